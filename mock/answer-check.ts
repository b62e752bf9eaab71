// The mock's check of its own answers against the description, for every answer an operation gives (JSON, binary
// and text alike): a declared status, a declared media type, the declared headers, and a JSON body that fits its
// schema. An answer that fails it is a bug of the mock; a developer's test against it would pass for the wrong
// reason.
import type { Operation, Response } from "../generator/ir/index.js";
import type { Reply } from "./envelope.js";
import { resolveSchema, type MockModel } from "./model.js";
import type { Validator } from "./validate.js";

/** The declared response of a status: the status itself, else its class (`4XX`), else `default`. */
export function declaredResponse(operation: Operation, status: number): Response | undefined {
  const exact = String(status);
  return (
    operation.responses.find((r) => r.status === exact) ??
    operation.responses.find((r) => r.status.toUpperCase() === `${exact[0]}XX`) ??
    operation.responses.find((r) => r.status === "default")
  );
}

/** `type/subtype` of a Content-Type, lower case, without parameters. */
function essence(mediaType: string): string {
  return mediaType.split(";")[0]!.trim().toLowerCase();
}

/** Whether a media type is one a declared one (possibly `*\/*` or `image/*`) allows. */
export function mediaTypeAllowed(declared: string, actual: string): boolean {
  const [dType, dSub] = essence(declared).split("/");
  const [aType, aSub] = essence(actual).split("/");
  return (dType === "*" || dType === aType) && (dSub === "*" || dSub === aSub);
}

/**
 * The media type a binary or text answer is sent with: the one it has when the response declares it, else the
 * response's own declared non-JSON type (`application/octet-stream` where the description leaves it open).
 */
export function declaredFileType(response: Response | undefined, wanted: string): string {
  const contents = response?.contents ?? [];
  if (contents.length === 0 || contents.some((c) => mediaTypeAllowed(c.mediaType, wanted))) return wanted;
  const declared = contents.find((c) => !c.mediaType.includes("json"))?.mediaType ?? contents[0]!.mediaType;
  return declared.includes("*") ? "application/octet-stream" : declared;
}

/** The Content-Type the mock sends a reply with (see send in server.ts). */
export function replyMediaType(reply: Reply): string {
  return reply.file?.contentType ?? reply.text?.contentType ?? "application/json";
}

/** A header's text as the value its schema describes: numbers and booleans are sent as text. */
function headerValue(model: MockModel, schema: Response["headers"][number]["schema"], text: string): unknown {
  const kind = resolveSchema(model, schema).kind;
  if ((kind === "integer" || kind === "number") && /^-?\d+(\.\d+)?$/.test(text.trim())) return Number(text);
  if (kind === "boolean" && (text === "true" || text === "false")) return text === "true";
  return text;
}

/** What is wrong with an answer of an operation, or undefined when the description allows it. */
export function answerProblem(model: MockModel, validator: Validator, operation: Operation, reply: Reply): string | undefined {
  const response = declaredResponse(operation, reply.status);
  if (!response) {
    return `status ${reply.status} is not declared (declared: ${operation.responses.map((r) => r.status).join(", ")})`;
  }
  const mediaType = replyMediaType(reply);
  if (response.contents.length > 0 && !response.contents.some((c) => mediaTypeAllowed(c.mediaType, mediaType))) {
    return `media type ${mediaType} is not declared (declared: ${response.contents.map((c) => c.mediaType).join(", ")})`;
  }
  const sent = new Map(Object.entries(reply.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  for (const header of response.headers) {
    const text = sent.get(header.name.toLowerCase());
    if (text === undefined) {
      if (header.required) return `header ${header.name} is required`;
      continue;
    }
    const error = validator.check(
      `header:${operation.id}:${response.status}:${header.name}`,
      header.schema,
      headerValue(model, header.schema, text),
    );
    if (error) return `header ${header.name} ${JSON.stringify(text)} ${error.message ?? "is invalid"}`;
  }
  const schema = response.contents.find((c) => c.mediaType === "application/json")?.schema;
  if (reply.json !== undefined && schema) return validator.checkResponse(operation, reply.status, schema, reply.json);
  return undefined;
}
