// What every target and shared output agrees on about an operation's files and request media, from the IR alone.
import { createHash } from "node:crypto";
import { mediaEssence } from "../ir/media.js";
import type { MediaContent, Operation } from "../ir/types.js";

/** The longest file name (without extension) given to an operation's files. */
export const MAX_FILE_NAME = 80;

/**
 * A file name (no extension) per operation, from the given names: bounded, unique without regard to case (for
 * case-insensitive file systems), never a name Windows keeps for devices.
 */
export function operationFileNames(operations: readonly Operation[], names: ReadonlyMap<string, string>): Map<string, string> {
  const used = new Set<string>();
  return new Map(
    operations.map((op) => {
      const name = names.get(op.id)!;
      const hash = createHash("sha256").update(op.id).digest("hex").slice(0, 8);
      let file = name.length <= MAX_FILE_NAME ? name : `${name.slice(0, MAX_FILE_NAME - 9)}_${hash}`;
      // Names Windows keeps for devices, whatever the extension.
      if (/^(con|prn|aux|nul|com\d|lpt\d)$/i.test(file)) file = `${file}_`;
      if (used.has(file.toLowerCase())) file = `${file.slice(0, MAX_FILE_NAME - 9)}_${hash}`;
      for (let n = 2; used.has(file.toLowerCase()); n++) file = `${file.slice(0, MAX_FILE_NAME - 12)}_${hash.slice(0, 5)}${n}`;
      used.add(file.toLowerCase());
      return [op.id, file] as const;
    }),
  );
}

/**
 * The content an operation's body is sent as, one rule for every target: JSON when the body offers it (its types
 * travel as declared, where a form's one-element array reads back as a string), else multipart (it carries files
 * and every field alike), else urlencoded, else the first content, sent as it is.
 */
export function requestBodyContent(op: Operation): MediaContent | undefined {
  const contents = op.requestBody?.contents ?? [];
  const jsons = contents.filter((c) => c.encoding === "json");
  return (
    jsons.find((c) => mediaEssence(c.mediaType) === "application/json") ??
    jsons[0] ??
    contents.find((c) => c.encoding === "multipart") ??
    contents.find((c) => c.encoding === "form") ??
    contents[0]
  );
}

/**
 * The media type of a body sent as it is: that of an operation whose body is neither JSON nor a form
 * (application/octet-stream, text/plain...). A client takes text or a file for it.
 */
export function rawBodyMediaType(op: Operation): string | undefined {
  const content = requestBodyContent(op);
  return content === undefined || isJsonOrForm(content) ? undefined : content.mediaType;
}

/** The form content an operation's body is sent as (multipart or urlencoded), by requestBodyContent's rule. */
export function formContent(op: Operation): MediaContent | undefined {
  const content = requestBodyContent(op);
  return content?.encoding === "multipart" || content?.encoding === "form" ? content : undefined;
}

const isJsonOrForm = (c: MediaContent): boolean => c.encoding === "json" || c.encoding === "form" || c.encoding === "multipart";

/** A media type without parameters that is safe in a header: a token, a slash and a token. */
const PLAIN_MEDIA_TYPE = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+$/;

/**
 * The Content-Type of a JSON body: application/json where the operation declares it or only a range (`*\/*`), else
 * the JSON media type it declares (application/merge-patch+json, which a server may require). Undefined without a
 * JSON body.
 */
export function jsonBodyMediaType(op: Operation): string | undefined {
  const jsons = (op.requestBody?.contents ?? []).filter((c) => c.encoding === "json").map((c) => mediaEssence(c.mediaType));
  if (jsons.length === 0) return undefined;
  return jsons.includes("application/json") ? "application/json" : (jsons.find((t) => PLAIN_MEDIA_TYPE.test(t)) ?? "application/json");
}

/**
 * The Content-Type class a body is sent with, by requestBodyContent's rule: the canonical media type of a form or
 * JSON body (`multipart/form-data`, `application/x-www-form-urlencoded`, `application/json`; a runtime tells the
 * encodings apart by it, jsonBodyMediaType gives a JSON body's declared type), else the raw body's own media type.
 * Undefined without a body.
 */
export function requestMediaType(op: Operation): string | undefined {
  const form = formContent(op);
  if (form) return form.encoding === "multipart" ? "multipart/form-data" : "application/x-www-form-urlencoded";
  return jsonBodyMediaType(op) !== undefined ? "application/json" : rawBodyMediaType(op);
}

/** A success answer is binary when every 2xx response has content and none of it is JSON. */
export function isBinaryResponse(op: Operation): boolean {
  const ok = op.responses.filter((r) => r.status.startsWith("2"));
  return ok.length > 0 && ok.every((r) => r.contents.length > 0 && r.contents.every((c) => c.encoding !== "json"));
}

/**
 * Whether every client sends the operation again after a failure that may have reached the server, as their
 * runtimes decide it: always when it takes an idempotency key (the server carries a key out once), else when the IR
 * calls it idempotent; never a job submission.
 */
export function sentAgainAfterFailure(op: Operation): boolean {
  return op.job?.role !== "submit" && (op.idempotencyKey !== undefined || op.idempotent);
}
