// Paged reads in the IR: x-paperoffice-pagination as the description states it (source "extension"), and a
// limit/offset read recognised without it (source "offset-limit") only where the description's shapes show one.
import { describe, expect, it } from "vitest";
import { buildIR } from "../../generator/ir/build.js";
import type { IR } from "../../generator/ir/types.js";
import { checkDescription } from "../../generator/spec/load.js";

const number = { type: "integer" };
const page = (properties: Record<string, unknown>) => ({
  responses: {
    "200": { description: "a page", content: { "application/json": { schema: { type: "object", properties } } } },
  },
});
const query = (...names: string[]) => names.map((name) => ({ name, in: "query", schema: number }));
const DOCUMENT = {
  openapi: "3.1.0",
  info: { title: "paging", version: "1" },
  paths: {
    "/stated": {
      get: {
        operationId: "stated",
        "x-paperoffice-pagination": { limit: "size", offset: "skip", items: "rows" },
        parameters: query("size", "skip"),
        ...page({ rows: { type: "array", items: {} } }),
      },
    },
    "/recognised": {
      get: {
        operationId: "recognised",
        parameters: [...query("limit", "offset"), { name: "q", in: "query", schema: { type: "string" } }],
        responses: {
          "200": { description: "a page", content: { "application/json": { schema: { $ref: "#/components/schemas/Things" } } } },
        },
      },
    },
    "/two-arrays": {
      get: {
        operationId: "twoArrays",
        parameters: query("limit", "offset"),
        ...page({ a: { type: "array", items: {} }, b: { type: "array", items: {} } }),
      },
    },
    "/no-offset": { get: { operationId: "noOffset", parameters: query("limit"), ...page({ a: { type: "array", items: {} } }) } },
    "/text-limit": {
      get: {
        operationId: "textLimit",
        parameters: [{ name: "limit", in: "query", schema: { type: "string" } }, ...query("offset")],
        ...page({ a: { type: "array", items: {} } }),
      },
    },
    "/write": {
      post: { operationId: "write", parameters: query("limit", "offset"), ...page({ a: { type: "array", items: {} } }) },
    },
  },
  components: {
    schemas: {
      Things: {
        allOf: [
          { type: "object", properties: { total_count: number } },
          { type: "object", properties: { things: { type: "array", items: { type: "string" } }, next: { type: "string" } } },
        ],
      },
    },
  },
};

async function ir(): Promise<IR> {
  const text = JSON.stringify(DOCUMENT);
  return buildIR(await checkDescription({ source: "paging.json", text, document: JSON.parse(text) as Record<string, unknown> }));
}

describe("paged reads in the IR", () => {
  it("takes the extension's names as stated, and recognises a limit/offset read with one items array", async () => {
    const byId = new Map((await ir()).operations.map((o) => [o.id, o.pagination]));
    expect(byId.get("stated")).toEqual({ limit: "size", offset: "skip", items: "rows", source: "extension" });
    expect(byId.get("recognised")).toEqual({
      limit: "limit",
      offset: "offset",
      items: "things",
      total: "total_count",
      source: "offset-limit",
    });
  });

  it("guesses nothing where the shapes do not show one: two arrays, no offset, a text limit, a write", async () => {
    const byId = new Map((await ir()).operations.map((o) => [o.id, o.pagination]));
    for (const id of ["twoArrays", "noOffset", "textLimit", "write"]) expect(byId.get(id), id).toBeUndefined();
  });
});
