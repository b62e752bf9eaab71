// What the generated Go client tells the runtime about an operation (sdkruntime.Operation), from the IR only.
import { isBinaryResponse, jsonBodyMediaType, requestBodyContent } from "../../../generator/emit/operation-files.js";
import type { Operation, Pagination, Server } from "../../../generator/ir/types.js";
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
    IdempotencyKey: op.idempotencyKey === undefined ? undefined : goString(op.idempotencyKey),
    Job: op.job ? goString(op.job.role) : undefined,
    Security: `[][]string{${op.security.map((r) => `{${r.map((s) => goString(s.scheme)).join(", ")}}`).join(", ")}}`,
    Pagination: op.pagination ? paginationLiteral(op.pagination) : undefined,
    Servers: op.servers ? `[]sdkruntime.Server{${op.servers.map(serverLiteral).join(", ")}}` : undefined,
  });
}

/** How the operation pages, as the runtime's Pagination holds it (a limit/offset read without a Kind). */
function paginationLiteral(p: Pagination): string {
  if (p.kind === "cursor")
    return goStruct("&sdkruntime.Pagination", {
      Kind: "sdkruntime.PagingCursor",
      Items: goString(p.items),
      Cursor: goString(p.cursor),
      Next: goString(p.next),
    });
  if (p.kind === "link")
    return goStruct("&sdkruntime.Pagination", {
      Kind: "sdkruntime.PagingLink",
      Items: p.items === undefined ? undefined : goString(p.items),
    });
  return goStruct("&sdkruntime.Pagination", {
    Limit: goString(p.limit),
    Offset: goString(p.offset),
    Items: goString(p.items),
    Total: p.total === undefined ? undefined : goString(p.total),
  });
}
