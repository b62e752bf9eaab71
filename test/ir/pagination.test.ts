// Paged reads in the IR: x-paperoffice-pagination as the description states it (source "extension"), and a
// limit/offset, cursor or Link header read recognised without it only where the description's shapes show one.
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
const text = (name: string) => ({ name, in: "query", schema: { type: "string" } });
const items = { type: "array", items: {} };
const nullableText = { type: ["string", "null"] };

/** Cursor reads by operationId: each a GET with its query parameters and its answer's properties. */
const CURSOR_CASES: Record<string, { parameters: unknown[]; answer: Record<string, unknown> }> = {
  cursorNextCursor: { parameters: [text("cursor")], answer: { data: items, next_cursor: { type: "string" } } },
  cursorAfterNullable: { parameters: [text("after"), text("q")], answer: { entries: items, next: nullableText } },
  cursorPageToken: { parameters: [text("page_token")], answer: { results: items, next_page_token: { type: "string" } } },
  cursorStartingAfter: { parameters: [text("starting_after")], answer: { data: items, next_cursor: { type: "string" } } },
  // Not recognised: two cursor parameters, two next fields, two arrays, a cursor that is a number, no next field.
  twoCursorParameters: { parameters: [text("cursor"), text("after")], answer: { data: items, next_cursor: { type: "string" } } },
  twoNextFields: { parameters: [text("cursor")], answer: { data: items, next: { type: "string" }, next_cursor: { type: "string" } } },
  cursorTwoArrays: { parameters: [text("cursor")], answer: { a: items, b: items, next_cursor: { type: "string" } } },
  numberCursor: { parameters: query("cursor"), answer: { data: items, next_cursor: { type: "string" } } },
  cursorWithoutNext: { parameters: [text("cursor")], answer: { data: items, more: { type: "boolean" } } },
};
const cursorReads = Object.fromEntries(
  Object.entries(CURSOR_CASES).map(([id, { parameters, answer }]) => [`/${id}`, { get: { operationId: id, parameters, ...page(answer) } }]),
);

/** Link header reads by operationId: the answer's schema and headers. */
const link = { Link: { description: "RFC 8288", schema: { type: "string" } } };
const LINK_CASES: Record<string, { schema: unknown; headers?: Record<string, unknown>; method?: string }> = {
  linkArray: { schema: { type: "array", items: { type: "string" } }, headers: link },
  linkArrayByRef: { schema: { $ref: "#/components/schemas/Names" }, headers: { link: link.Link } },
  linkObject: { schema: { type: "object", properties: { total_count: number, items } }, headers: link },
  // Not recognised: no Link header, an object with two arrays, a write, an answer that is no list.
  arrayWithoutLink: { schema: { type: "array", items: {} } },
  linkTwoArrays: { schema: { type: "object", properties: { a: items, b: items } }, headers: link },
  linkWrite: { schema: { type: "array", items: {} }, headers: link, method: "post" },
  linkScalar: { schema: { type: "string" }, headers: link },
};
const linkReads = Object.fromEntries(
  Object.entries(LINK_CASES).map(([id, { schema, headers, method }]) => [
    `/${id}`,
    {
      [method ?? "get"]: {
        operationId: id,
        responses: { "200": { description: "a page", ...(headers && { headers }), content: { "application/json": { schema } } } },
      },
    },
  ]),
);
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
    "/stated-cursor": {
      get: {
        operationId: "statedCursor",
        "x-paperoffice-pagination": { kind: "cursor", cursor: "from", next: "following", items: "rows" },
        parameters: [text("from")],
        ...page({ rows: { type: "array", items: {} }, following: { type: "string" } }),
      },
    },
    ...cursorReads,
    ...linkReads,
  },
  components: {
    schemas: {
      Things: {
        allOf: [
          { type: "object", properties: { total_count: number } },
          { type: "object", properties: { things: { type: "array", items: { type: "string" } }, next: { type: "string" } } },
        ],
      },
      Names: { type: "array", items: { type: "string" } },
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
    expect(byId.get("stated")).toEqual({ kind: "offset", limit: "size", offset: "skip", items: "rows", source: "extension" });
    expect(byId.get("recognised")).toEqual({
      kind: "offset",
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

  it("takes a cursor the extension states", async () => {
    const byId = new Map((await ir()).operations.map((o) => [o.id, o.pagination]));
    expect(byId.get("statedCursor")).toEqual({ kind: "cursor", cursor: "from", next: "following", items: "rows", source: "extension" });
  });

  it.each([
    ["cursorNextCursor", "cursor", "next_cursor", "data"],
    ["cursorAfterNullable", "after", "next", "entries"],
    ["cursorPageToken", "page_token", "next_page_token", "results"],
    ["cursorStartingAfter", "starting_after", "next_cursor", "data"],
  ])("recognises the cursor read %s", async (id, cursor, next, items) => {
    const found = (await ir()).operations.find((o) => o.id === id)?.pagination;
    expect(found).toEqual({ kind: "cursor", cursor, next, items, source: "cursor" });
  });

  it.each([["twoCursorParameters"], ["twoNextFields"], ["cursorTwoArrays"], ["numberCursor"], ["cursorWithoutNext"]])(
    "guesses no cursor in %s",
    async (id) => {
      expect((await ir()).operations.find((o) => o.id === id)?.pagination).toBeUndefined();
    },
  );

  it.each([
    ["linkArray", undefined],
    ["linkArrayByRef", undefined],
    ["linkObject", "items"],
  ])("recognises the Link header read %s", async (id, items) => {
    const found = (await ir()).operations.find((o) => o.id === id)?.pagination;
    expect(found).toEqual({ kind: "link", ...(items === undefined ? {} : { items }), source: "link-header" });
  });

  it.each([["arrayWithoutLink"], ["linkTwoArrays"], ["linkWrite"], ["linkScalar"]])("guesses no Link paging in %s", async (id) => {
    expect((await ir()).operations.find((o) => o.id === id)?.pagination).toBeUndefined();
  });
});

describe("x-paperoffice-pagination with kind cursor", () => {
  const checked = (extension: Record<string, unknown>) => {
    const document = {
      openapi: "3.1.0",
      info: { title: "paging", version: "1" },
      paths: {
        "/rows": {
          get: {
            operationId: "rows",
            "x-paperoffice-pagination": extension,
            parameters: [text("from")],
            ...page({ rows: items, following: { type: "integer" }, later: { type: "string" } }),
          },
        },
      },
    };
    const source = JSON.stringify(document);
    return checkDescription({ source: "paging.json", text: source, document: JSON.parse(source) as Record<string, unknown> });
  };
  const POINTER = "/paths/~1rows/get/x-paperoffice-pagination";

  it("is refused where it names what the operation lacks or a next field that is no string", async () => {
    await expect(checked({ kind: "cursor", cursor: "since", next: "following", items: "rows" })).rejects.toThrow(
      `${POINTER}/cursor: the operation has no query parameter "since"`,
    );
    await expect(checked({ kind: "cursor", cursor: "from", next: "following", items: "rows" })).rejects.toThrow(
      `${POINTER}/next: property "following" is not a string`,
    );
  });

  it("is refused without its next field, or with the offset form's names", async () => {
    await expect(checked({ kind: "cursor", cursor: "from", items: "rows" })).rejects.toThrow("must have required property 'next'");
    await expect(checked({ kind: "cursor", cursor: "from", next: "later", items: "rows", limit: "from" })).rejects.toThrow(
      "must NOT have additional properties",
    );
  });

  it("is taken when it names the operation's own parameter and fields", async () => {
    await expect(checked({ kind: "cursor", cursor: "from", next: "later", items: "rows" })).resolves.toBeDefined();
  });
});
