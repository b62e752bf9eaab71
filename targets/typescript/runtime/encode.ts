// Request body encoding: multipart/form-data (the service's default), application/x-www-form-urlencoded where
// the operation only takes it or the call asks for it, JSON where the operation says so. These are openapi-fetch bodySerializers; file values are turned
// into Blobs beforehand (prepareBody) because reading streams and files is asynchronous.
import { RequestEncodingError } from "./errors.js";
import { isFileInput, PreparedFile, prepareFile } from "./files.js";
import type { RequestMediaType, SendBody } from "./model.js";
import { scalarText, setOwn } from "./parameter-text.js";

export { parameterHeaders } from "./parameter-text.js";

/**
 * How a form names the items of an array field: `brackets` (`files[]`, as the description states for its service)
 * or `repeat` (the field's own name once per item, OpenAPI's form style; the generic default).
 */
export type FormArrayNames = "brackets" | "repeat";

/** A body whose files are Blobs, with the names of the fields that travel as JSON text. */
export interface PreparedBody {
  fields: Record<string, unknown>;
  jsonStrings: readonly string[];
  /** How a form names array items (default `repeat`). */
  arrays?: FormArrayNames;
  /** A JSON body that is not an object (an array, a string, null...), sent as it is. */
  whole?: { value: unknown };
}

/** `raw`: the body as it is (text, bytes or a file), under the operation's own media type. */
export type BodyEncoding = "multipart" | "urlencoded" | "json" | "raw";

const FORM_OR_JSON: ReadonlySet<string> = new Set(["application/json", "multipart/form-data", "application/x-www-form-urlencoded"]);

/**
 * The encoding of a body: JSON for an operation that only takes JSON; raw for one that takes another media type
 * (application/octet-stream, text/plain...); else the form the call asks for, else urlencoded for an operation
 * whose spec says it takes only that (`urlencoded`), else multipart.
 */
export function encodingFor(
  opMediaType: RequestMediaType | undefined,
  requested: RequestMediaType | undefined,
  urlencoded = false,
): BodyEncoding {
  if (opMediaType === "application/json" || requested === "application/json") return "json";
  if (requested === "application/x-www-form-urlencoded") return "urlencoded";
  if (requested === undefined && urlencoded) return "urlencoded";
  const raw = requested ?? opMediaType;
  return raw !== undefined && !FORM_OR_JSON.has(raw) ? "raw" : "multipart";
}

/** A raw body: text as it is, anything else as a file (bytes, a Blob, a stream, a path). */
export async function prepareRawBody(body: unknown): Promise<PreparedBody> {
  if (typeof body === "string") return { fields: {}, jsonStrings: [], whole: { value: body } };
  if (isFileInput(body)) return { fields: {}, jsonStrings: [], whole: { value: await prepareFile(body) } };
  throw new RequestEncodingError("a raw body must be text, bytes, a Blob, a stream or a file reference");
}

/** The Content-Type of a raw body: the operation's media type, or the file's own where the description names a range. */
export function rawContentType(mediaType: string, body: PreparedBody): string {
  if (!mediaType.includes("*")) return mediaType;
  const value = body.whole?.value;
  return (value instanceof PreparedFile && value.blob.type) || "application/octet-stream";
}

function rawSerializer(body: PreparedBody): string | Blob {
  const value = body.whole?.value;
  if (typeof value === "string") return value;
  if (value instanceof PreparedFile) return value.blob;
  throw new RequestEncodingError("a raw body must be text, bytes, a Blob, a stream or a file reference");
}

/**
 * Sets an own property: `out[key] = value` with key `__proto__` would set the prototype and drop the field, so
 * fields named `__proto__` or `constructor` would not reach the wire.
 */
export async function prepareBody(
  body: unknown,
  jsonStrings: readonly string[] = [],
  arrays: FormArrayNames = "repeat",
): Promise<PreparedBody> {
  if (typeof body !== "object" || body === null || Array.isArray(body) || isFileInput(body))
    return { fields: {}, jsonStrings, whole: { value: body } };
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    setOwn(fields, name, jsonStrings.includes(name) ? value : await prepareValue(value));
  }
  return { fields, jsonStrings, arrays };
}

async function prepareValue(value: unknown): Promise<unknown> {
  if (typeof value !== "object" || value === null || value instanceof Date || value instanceof URL) return value;
  if (isFileInput(value)) return prepareFile(value);
  if (Array.isArray(value)) return Promise.all(value.map(prepareValue));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) setOwn(out, key, await prepareValue(item));
  return out;
}

type Append = (name: string, value: string | PreparedFile) => void;

/**
 * Flattens fields into form entries: arrays of plain values or files as `name[]` (`brackets`) or `name` once per
 * item (`repeat`), arrays holding objects and nested objects as `splits[0][pages]`, booleans as "true"/"false",
 * dates as ISO text; null and undefined are left out. Fields named in jsonStrings are sent as JSON text.
 */
function flatten(body: PreparedBody, append: Append): void {
  if (body.whole) throw new RequestEncodingError("a form body must be an object of fields");
  const itemSuffix = body.arrays === "brackets" ? "[]" : "";
  for (const [name, value] of Object.entries(body.fields)) {
    if (value === undefined || value === null) continue;
    if (body.jsonStrings.includes(name)) append(name, JSON.stringify(value));
    else appendValue(name, value, append, itemSuffix);
  }
}

function appendValue(name: string, value: unknown, append: Append, itemSuffix: string): void {
  if (value === undefined || value === null) return;
  const text = scalarText(value);
  if (text !== undefined || value instanceof PreparedFile) {
    append(name, text ?? (value as PreparedFile));
  } else if (Array.isArray(value)) {
    const indexed = value.some((item) => typeof item === "object" && item !== null && !(item instanceof PreparedFile));
    value.forEach((item, index) => {
      appendValue(indexed ? `${name}[${index}]` : `${name}${itemSuffix}`, item, append, itemSuffix);
    });
  } else if (typeof value === "object") {
    for (const [key, item] of Object.entries(value)) appendValue(`${name}[${key}]`, item, append, itemSuffix);
  } else {
    throw new RequestEncodingError(`field ${name} has a value of type ${typeof value} that cannot be sent`);
  }
}

/** The form text of a scalar: booleans as "true"/"false", dates as ISO text, URLs as their address. */
export function multipartSerializer(body: PreparedBody): FormData {
  const form = new FormData();
  flatten(body, (name, value) => {
    if (value instanceof PreparedFile) form.append(name, value.blob, value.filename);
    else form.append(name, value);
  });
  return form;
}

export function urlencodedSerializer(body: PreparedBody): URLSearchParams {
  const params = new URLSearchParams();
  flatten(body, (name, value) => {
    if (value instanceof PreparedFile) {
      throw new RequestEncodingError(`field ${name} holds a file, which application/x-www-form-urlencoded cannot carry: use multipart`);
    }
    params.append(name, value);
  });
  return params;
}

export function jsonSerializer(body: PreparedBody): string {
  if (body.whole) return JSON.stringify(body.whole.value);
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body.fields)) {
    setOwn(fields, name, body.jsonStrings.includes(name) ? JSON.stringify(value) : value);
  }
  return JSON.stringify(fields, (key, value: unknown) => {
    if (value instanceof PreparedFile) throw new RequestEncodingError(`field ${key} holds a file, which a JSON body cannot carry`);
    return value;
  });
}

export const SERIALIZERS: Readonly<Record<BodyEncoding, (body: PreparedBody) => FormData | URLSearchParams | string | Blob>> = {
  multipart: multipartSerializer,
  urlencoded: urlencodedSerializer,
  json: jsonSerializer,
  raw: rawSerializer,
};

export const CONTENT_TYPES: Readonly<Record<BodyEncoding, string | undefined>> = {
  // FormData sets its own type with the boundary.
  multipart: undefined,
  urlencoded: "application/x-www-form-urlencoded",
  json: "application/json",
  // The operation's media type, set with the request's headers (rawContentType).
  raw: undefined,
};

/** A prepared body as sent, and its Content-Type (none where fetch sets it, for FormData, or for a raw body). */
export function serialiseBody(body: PreparedBody, encoding: BodyEncoding): { body: SendBody; contentType: string | undefined } {
  return { body: SERIALIZERS[encoding](body), contentType: CONTENT_TYPES[encoding] };
}
