import { describe, expect, it } from "vitest";
import { mediaEncoding } from "../../generator/ir/media.js";
import type { MediaEncoding, Schema } from "../../generator/ir/types.js";

const object: Schema = { kind: "object", properties: [], additionalProperties: true };
const file: Schema = { kind: "file" };
const text: Schema = { kind: "string" };
const unknown: Schema = { kind: "unknown" };
const named = new Map<string, Schema>([
  ["Comic", object],
  ["Blob", file],
  ["Alias", { kind: "ref", name: "Blob" }],
  ["Loop", { kind: "ref", name: "Loop" }],
]);

describe("mediaEncoding", () => {
  // [media type, schema, has a schema, encoding]
  const table: [string, Schema, boolean, MediaEncoding][] = [
    ["application/json", object, true, "json"],
    ["Application/JSON; charset=utf-8", object, true, "json"],
    ["application/json", file, true, "json"],
    ["text/json", object, true, "json"],
    ["application/problem+json", object, true, "json"],
    ["application/vnd.foo+json", object, true, "json"],
    ["application/x-json", object, true, "json"],
    ["application/x-www-form-urlencoded", object, true, "form"],
    ["multipart/form-data", object, true, "multipart"],
    ["multipart/form-data; boundary=x", object, true, "multipart"],
    ["text/plain", text, true, "text"],
    ["text/csv", object, true, "text"],
    ["application/xml", object, true, "text"],
    ["application/atom+xml", object, true, "text"],
    ["application/x-yaml", object, true, "text"],
    ["application/octet-stream", object, true, "binary"],
    ["application/pdf", file, true, "binary"],
    ["image/*", object, true, "binary"],
    ["application/x-ndjson", object, true, "binary"],
    // Ranges that do not name a format: the schema decides.
    ["*/*", object, true, "json"],
    ["*/*", { kind: "array", items: object }, true, "json"],
    ["*/*", { kind: "number" }, true, "json"],
    ["*/*", { kind: "boolean" }, true, "json"],
    ["*/*", unknown, true, "json"],
    ["*/*", { kind: "ref", name: "Comic" }, true, "json"],
    ["*/*", file, true, "binary"],
    ["*/*", { kind: "ref", name: "Alias" }, true, "binary"],
    ["*/*", { kind: "ref", name: "Loop" }, true, "json"],
    ["*/*", text, true, "text"],
    ["*/*", unknown, false, "binary"],
    ["application/*", object, true, "json"],
    ["application/*", file, true, "binary"],
    ["text/*", object, true, "text"],
  ];
  it.each(table)("%s of %j (schema given: %s) is %s", (mediaType, schema, hasSchema, encoding) => {
    expect(mediaEncoding(mediaType, schema, hasSchema, named)).toBe(encoding);
  });
});
