// How a body of a media type travels, decided once here so that no target tests media type strings itself.
import type { MediaEncoding, Schema } from "./types.js";

/** The media type without parameters, lower-cased: `Application/JSON; charset=utf-8` is `application/json`. */
export function mediaEssence(mediaType: string): string {
  return (mediaType.split(";")[0] ?? "").trim().toLowerCase();
}

const TEXT_SUBTYPES: ReadonlySet<string> = new Set(["xml", "yaml", "x-yaml"]);

/**
 * The encoding of a content of a request body or response. A named media type decides by itself; a range that
 * says nothing of the format (`*\/*`, `application/*`) decides by the schema: a JSON shape is JSON, a
 * `format: binary` string or no schema at all is binary (bytes may be anything, so nothing is parsed without a
 * schema saying what), any other string is text.
 *
 * `hasSchema` tells an absent schema from `{}`; `named` resolves references to named schemas.
 */
export function mediaEncoding(
  mediaType: string,
  schema: Schema,
  hasSchema: boolean,
  named: ReadonlyMap<string, Schema> = new Map(),
): MediaEncoding {
  const essence = mediaEssence(mediaType);
  const slash = essence.indexOf("/");
  const type = slash < 0 ? essence : essence.slice(0, slash);
  const subtype = slash < 0 ? "" : essence.slice(slash + 1);
  if (essence === "application/x-www-form-urlencoded") return "form";
  if (essence === "multipart/form-data") return "multipart";
  // application/json, text/json, application/problem+json, application/vnd.api+json...
  if (subtype === "json" || subtype === "x-json" || subtype.endsWith("+json")) return "json";
  if ((type === "*" || type === "") && (subtype === "*" || subtype === "")) return byShape(schema, hasSchema, named);
  if (type === "application" && subtype === "*") return byShape(schema, hasSchema, named);
  if (type === "text" || TEXT_SUBTYPES.has(subtype) || subtype.endsWith("+xml")) return "text";
  return "binary";
}

/** The encoding a schema implies under a media range that does not name its format. */
function byShape(schema: Schema, hasSchema: boolean, named: ReadonlyMap<string, Schema>): MediaEncoding {
  if (!hasSchema) return "binary";
  const resolved = resolve(schema, named);
  switch (resolved.kind) {
    case "file":
      return "binary";
    case "string":
    case "json-text":
      return "text";
    default:
      return "json";
  }
}

/** Follows references to named schemas; a reference that names nothing, or a cycle, stays a reference. */
function resolve(schema: Schema, named: ReadonlyMap<string, Schema>): Schema {
  const seen = new Set<string>();
  let current = schema;
  while (current.kind === "ref" && !seen.has(current.name)) {
    seen.add(current.name);
    const next = named.get(current.name);
    if (next === undefined) return current;
    current = next;
  }
  return current;
}
