// What the generated Go client tells the runtime about an operation (sdkruntime.Operation), from the IR only.
import { isBinaryResponse, jsonBodyMediaType, requestBodyContent } from "../../../generator/emit/operation-files.js";
import type { Operation, Server } from "../../../generator/ir/types.js";
import { goString } from "./escape.js";
import { goStrings, goStruct, uniqueBy } from "./go-value.js";

/** The sdkruntime.Server literal of a server. */
export function serverLiteral(s: Server): string {
  const entries = uniqueBy(s.variables, (v) => v.name).map(
    (v) => `${goString(v.name)}: ${goStruct("", { Default: goString(v.default), Enum: v.enum ? goStrings(v.enum) : undefined })}`,
  );
  return `sdkruntime.Server{URL: ${goString(s.url)}, Variables: map[string]sdkruntime.ServerVariable{${entries.join(", ")}}}`;
}

export { isBinaryResponse };

/** How the body travels: JSON, a form (multipart or urlencoded), raw bytes of a media type, or none. */
export type BodyKind = { kind: "json" | "form" | "raw"; mediaType: string } | undefined;

export function bodyKind(op: Operation): BodyKind {
  const content = requestBodyContent(op);
  if (content === undefined) return undefined;
  if (content.encoding === "multipart") return { kind: "form", mediaType: "multipart/form-data" };
  if (content.encoding === "form") return { kind: "form", mediaType: "application/x-www-form-urlencoded" };
  if (content.encoding === "json") return { kind: "json", mediaType: "application/json" };
  return { kind: "raw", mediaType: content.mediaType };
}

/** The sdkruntime.Operation literal of an operation. */
export function operationLiteral(op: Operation): string {
  const body = bodyKind(op);
  const jsonType = jsonBodyMediaType(op);
  return goStruct("sdkruntime.Operation", {
    ID: goString(op.id),
    Method: goString(op.method.toUpperCase()),
    Path: goString(op.requestPath),
    RequestMediaType: body ? goString(body.mediaType) : undefined,
    Urlencoded: body?.kind === "form" && body.mediaType === "application/x-www-form-urlencoded" ? "true" : undefined,
    JSONMediaType: body?.kind === "json" && jsonType !== "application/json" && jsonType !== undefined ? goString(jsonType) : undefined,
    Response: isBinaryResponse(op) ? "sdkruntime.ResponseBinary" : undefined,
    Idempotent: `Ptr(${op.idempotent})`,
    Billed: op.billed ? "true" : undefined,
    Job: op.job ? goString(op.job.role) : undefined,
    Security: `[][]string{${op.security.map((r) => `{${r.map((s) => goString(s.scheme)).join(", ")}}`).join(", ")}}`,
    Pagination:
      op.pagination?.kind === "offset"
        ? goStruct("&sdkruntime.Pagination", {
            Limit: goString(op.pagination.limit),
            Offset: goString(op.pagination.offset),
            Items: goString(op.pagination.items),
            Total: op.pagination.total === undefined ? undefined : goString(op.pagination.total),
          })
        : undefined,
    Servers: op.servers ? `[]sdkruntime.Server{${op.servers.map(serverLiteral).join(", ")}}` : undefined,
  });
}
