// Reads by cursor and by Link header (paginate-next.ts): three pages to the end, the stop conditions, the call's
// options on every page, the deadline across pages, and a next link to another origin refused with no request.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BillingData,
  DeadlineExceededError,
  followLink,
  nextLink,
  nextPaginator,
  type OperationSpec,
  type RequestOptions,
} from "../../runtime/index.js";
import { runtimeFor, SECRET } from "./helpers/model.js";
import { sendJson, startServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
let other: TestServer;
beforeAll(async () => {
  server = await startServer();
  other = await startServer();
});
afterAll(async () => {
  await server.close();
  await other.close();
});

const LIST: OperationSpec = { operationId: "listThings", method: "GET", path: "/things", response: "json", security: [["bearerAuth"]] };

/** Every item of a paginator, in order. */
async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const seen: T[] = [];
  for await (const item of items) seen.push(item);
  return seen;
}

describe("nextPaginator by cursor", () => {
  const NAMES = { kind: "cursor", cursor: "cursor", next: "next_cursor", items: "data" } as const;
  const pager = (options: RequestOptions = {}) => {
    const client = runtimeFor(server);
    return nextPaginator<number, { data: number[] }, BillingData, RequestOptions>(
      "listThings",
      (next, o) => client.call(LIST, { query: next === undefined ? {} : { cursor: next } }, o),
      NAMES,
      options,
    );
  };

  it("reads three pages to the end, each with the call's headers, the next cursor in the query", async () => {
    const pages: Record<string, { data: number[]; next_cursor?: string | null }> = {
      "": { data: [1, 2], next_cursor: "c2" },
      c2: { data: [3, 4], next_cursor: "c3" },
      c3: { data: [5], next_cursor: null },
    };
    server.handle((req, res) => sendJson(res, 200, pages[new URL(req.url, "http://x").searchParams.get("cursor") ?? ""]));
    expect(await all(pager({ headers: { "X-Trace": "t1" } }))).toEqual([1, 2, 3, 4, 5]);
    expect(server.received.map((r) => new URL(r.url, "http://x").searchParams.get("cursor"))).toEqual([null, "c2", "c3"]);
    expect(server.received.map((r) => r.headers["x-trace"])).toEqual(["t1", "t1", "t1"]);
  });

  it("stops on an empty page even when it gives a cursor, and on an empty cursor", async () => {
    server.handle((_req, res) => sendJson(res, 200, { data: [], next_cursor: "again" }));
    expect(await all(pager())).toEqual([]);
    expect(server.received).toHaveLength(1);
    server.handle((_req, res) => sendJson(res, 200, { data: [1], next_cursor: "" }));
    expect(await all(pager())).toEqual([1]);
    expect(server.received).toHaveLength(1);
  });

  it("bounds the whole iteration by the deadline given, not each page", async () => {
    server.handle((req, res) => {
      const at = Number(new URL(req.url, "http://x").searchParams.get("cursor") ?? "0");
      setTimeout(() => sendJson(res, 200, { data: [at], next_cursor: String(at + 1) }), 150);
    });
    const seen: number[] = [];
    const error = await (async () => {
      for await (const item of pager({ deadlineMs: 400 })) seen.push(item);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as DeadlineExceededError).deadlineMs).toBe(400);
    expect(seen).toEqual([0, 1]);
  });

  it("refuses a page without its items array", async () => {
    server.handle((_req, res) => sendJson(res, 200, { rows: [1] }));
    await expect(all(pager())).rejects.toThrow('listThings: a page has no array field "data"');
  });
});

describe("nextPaginator by Link header", () => {
  const pager = (link: (page: number) => string | undefined, options: RequestOptions = {}) => {
    const client = runtimeFor(server);
    server.handle((req, res) => {
      const page = Number(new URL(req.url, "http://x").searchParams.get("page") ?? "1");
      const next = link(page);
      sendJson(res, 200, page <= 3 ? [page * 10, page * 10 + 1] : [], next === undefined ? {} : { link: next });
    });
    return nextPaginator<number, number[], BillingData, RequestOptions>(
      "listThings",
      (next, o) => (next === undefined ? client.call(LIST, {}, o) : followLink<number[]>(client, LIST, next, o)),
      { kind: "link" },
      options,
    );
  };

  it("follows rel=next below the base address to the last page, with credentials and the call's headers", async () => {
    const link = (page: number) =>
      page < 3 ? `<${server.baseUrl}/things?page=${page + 1}>; rel="next", <${server.baseUrl}/things?page=3>; rel="last"` : undefined;
    expect(await all(pager(link, { headers: { "X-Trace": "t2" } }))).toEqual([10, 11, 20, 21, 30, 31]);
    expect(server.received.map((r) => r.url)).toEqual(["/latest/things", "/latest/things?page=2", "/latest/things?page=3"]);
    expect(server.received.map((r) => r.headers.authorization)).toEqual(Array(3).fill(`Bearer ${SECRET}`));
    expect(server.received.map((r) => r.headers["x-trace"])).toEqual(["t2", "t2", "t2"]);
  });

  it("refuses a next link to another origin before sending anything there", async () => {
    const link = () => `<${other.baseUrl}/things?page=2>; rel="next"`;
    other.handle((_req, res) => sendJson(res, 200, []));
    await expect(all(pager(link))).rejects.toThrow(`the next link goes to ${other.origin}, not to the operation's origin ${server.origin}`);
    expect(server.received).toHaveLength(1);
    expect(other.received).toHaveLength(0);
  });

  it("stops without a next link and on an empty page", async () => {
    expect(await all(pager(() => undefined))).toEqual([10, 11]);
    expect(server.received).toHaveLength(1);
    expect(await all(pager((page) => `<${server.baseUrl}/things?page=${page + 1}>; rel="next"`))).toEqual([10, 11, 20, 21, 30, 31]);
    expect(server.received).toHaveLength(4);
  });
});

describe("nextLink", () => {
  it.each([
    ['<https://a.example/x?page=2>; rel="next"', "https://a.example/x?page=2"],
    ['<https://a.example/x?page=1>; rel="prev", <https://a.example/x?page=3>; rel=next', "https://a.example/x?page=3"],
    ['<https://a.example/x?page=3>; rel="last next"', "https://a.example/x?page=3"],
    ['<https://a.example/x?page=1>; rel="first"', undefined],
    ["", undefined],
  ])("reads %j", (header, want) => {
    expect(nextLink(header)).toBe(want);
  });
  it("reads no header as no link", () => {
    expect(nextLink(null)).toBeUndefined();
  });
});
