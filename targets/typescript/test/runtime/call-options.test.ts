// Per-call options (query, extraBody), the client's default headers and their copies, and the request id header a
// model names.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callOperation, type OperationSpec, SdkError } from "../../runtime/index.js";
import { TestRuntime } from "./helpers/runtime.js";
import { errorClasses, model, runtimeFor } from "./helpers/model.js";
import { sendJson, startServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const LIST: OperationSpec = { operationId: "listThings", method: "GET", path: "/things", response: "json" };
const WRITE: OperationSpec = {
  operationId: "writeThing",
  method: "POST",
  path: "/things",
  response: "json",
  requestMediaType: "application/json",
};
const ok = () => server.handle((_req, res) => sendJson(res, 200, { status: "success" }, { "x-request-id": "req-1", "x-trace-id": "tr-9" }));

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error,
  );
}

describe("per-call options", () => {
  it("adds the query option to the operation's own, replacing a parameter of the same name", async () => {
    ok();
    await callOperation(runtimeFor(server), LIST, { query: { page: 1, kind: "a" } }, { query: { kind: "b", trace: "t1" } });
    const url = new URL(server.received.at(-1)!.url, server.origin);
    expect(url.searchParams.getAll("kind")).toEqual(["b"]);
    expect(url.searchParams.get("page")).toBe("1");
    expect(url.searchParams.get("trace")).toBe("t1");
  });

  it("lays extraBody over a JSON body, and sends it alone where the body is left out", async () => {
    ok();
    const runtime = runtimeFor(server);
    await runtime.call(WRITE, { body: { name: "x", note: "own" } }, { extraBody: { note: "extra", more: [1] } });
    expect(JSON.parse(server.received.at(-1)!.body.toString("utf8"))).toEqual({ name: "x", note: "extra", more: [1] });
    await runtime.call(WRITE, {}, { extraBody: { only: true } });
    expect(JSON.parse(server.received.at(-1)!.body.toString("utf8"))).toEqual({ only: true });
  });

  it("refuses extraBody, naming the operation, where there is no object to add to; nothing is sent", async () => {
    ok();
    const runtime = runtimeFor(server);
    const before = server.received.length;
    const onArray = await failureOf(runtime.call(WRITE, { body: [1, 2] }, { extraBody: { a: 1 } }));
    expect(onArray).toBeInstanceOf(SdkError);
    expect((onArray as Error).message).toContain("writeThing: extraBody");
    const withoutBody = await failureOf(callOperation(runtime, LIST, {}, { extraBody: { a: 1 } }));
    expect(withoutBody).toBeInstanceOf(SdkError);
    expect((withoutBody as Error).message).toContain("listThings: extraBody");
    expect(server.received.length).toBe(before);
  });
});

describe("default headers", () => {
  it("sends the client's headers, a call's header of the same name in another case winning", async () => {
    ok();
    const runtime = runtimeFor(server, { headers: { "X-Team": "a", "X-Env": "test" } });
    await callOperation(runtime, LIST, {}, { headers: { "x-team": "b" } });
    const headers = server.received.at(-1)!.headers;
    expect(headers["x-team"]).toBe("b");
    expect(headers["x-env"]).toBe("test");
  });

  it("merges a copy's headers into the client's, and leaves the client's own as they were", async () => {
    ok();
    const runtime = runtimeFor(server, { headers: { "X-Team": "a", "X-Env": "test" } });
    const copy = runtime.withOptions({ headers: { "x-team": "c", "X-Copy": "1" } });
    await callOperation(copy, LIST, {});
    const copied = server.received.at(-1)!.headers;
    expect([copied["x-team"], copied["x-env"], copied["x-copy"]]).toEqual(["c", "test", "1"]);
    await callOperation(runtime, LIST, {});
    const own = server.received.at(-1)!.headers;
    expect([own["x-team"], own["x-copy"]]).toEqual(["a", undefined]);
  });
});

describe("the request id", () => {
  it("is read from the header the model names, else from X-Request-Id", async () => {
    ok();
    const named = new TestRuntime({ ...model, requestIdHeader: "X-Trace-Id" }, { baseUrl: server.baseUrl, token: "t" }, errorClasses);
    expect((await callOperation(named, LIST, {})).meta.requestId).toBe("tr-9");
    expect((await callOperation(runtimeFor(server), LIST, {})).meta.requestId).toBe("req-1");
  });
});
