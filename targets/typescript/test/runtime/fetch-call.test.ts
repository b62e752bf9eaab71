// What fetch receives. openapi-fetch builds a Request (which middleware sees) from the runtime's init, and the runtime
// hands that init back to fetch (runtime/fetch-adapter.ts): fetch, the global one or the caller's, is called as fetch(url, init) with a string URL
// and an init holding method, headers, body and signal, so only fetch itself builds a Request.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OperationSpec } from "../../runtime/index.js";
import { adaptFetch, PreparedRequest } from "../../runtime/fetch-adapter.js";
import { runtimeFor, SECRET } from "./helpers/model.js";
import { formOf, sendJson, startServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const GET_JOB: OperationSpec = { operationId: "getJob", method: "GET", path: "/job/get/{job_id}", response: "json" };

interface Seen {
  input: unknown;
  init: RequestInit;
}

/** A user-supplied fetch that records its arguments and sends them on with the global fetch. */
function recordingFetch(seen: Seen[]) {
  return (input: string, init: RequestInit): Promise<Response> => {
    seen.push({ input, init });
    return fetch(input, init);
  };
}

function only(seen: Seen[]): Seen & { headers: Headers } {
  expect(seen).toHaveLength(1);
  const call = seen[0]!;
  return { ...call, headers: new Headers(call.init.headers) };
}

describe("a user-supplied fetch", () => {
  it("gets a GET as (url, init): the full URL as a string, method, auth headers, no body", async () => {
    server.handle((_req, res) => sendJson(res, 200, { status: "success", job_status: "processing" }));
    const seen: Seen[] = [];
    const result = await runtimeFor(server, { fetch: recordingFetch(seen) }).call(
      GET_JOB,
      { path: { job_id: "a b" } },
      { headers: { "X-Trace": "t-1" } },
    );
    expect(result.data).toEqual({ status: "success", job_status: "processing" });
    const call = only(seen);
    expect(call.input).toBe(`${server.baseUrl}/job/get/a%20b`);
    expect(call.init.method).toBe("GET");
    expect(call.init.body ?? undefined).toBeUndefined();
    expect(call.headers.get("authorization")).toBe(`Bearer ${SECRET}`);
    expect(call.headers.get("x-trace")).toBe("t-1");
    expect(call.headers.get("user-agent")).toMatch(/^document-automation-service-sdk-typescript\//);
    expect(server.received[0]?.url).toBe("/latest/job/get/a%20b");
  });

  it("gets a JSON body as its text with the JSON content type", async () => {
    server.handle((_req, res) => sendJson(res, 200, { status: "success" }));
    const seen: Seen[] = [];
    await runtimeFor(server, { fetch: recordingFetch(seen) }).raw("POST", "/things/create", {
      mediaType: "application/json",
      body: { name: "x", list: [1, 2] },
      idempotent: true,
    });
    const call = only(seen);
    expect(call.init.method).toBe("POST");
    expect(call.init.body).toBe('{"name":"x","list":[1,2]}');
    expect(call.headers.get("content-type")).toBe("application/json");
    expect(server.received[0]?.body.toString()).toBe('{"name":"x","list":[1,2]}');
    expect(server.received[0]?.headers["content-type"]).toBe("application/json");
  });

  it("gets a urlencoded body with its content type", async () => {
    server.handle((_req, res) => sendJson(res, 200, { status: "success", job_id: "u", result: {} }));
    const seen: Seen[] = [];
    await runtimeFor(server, { fetch: recordingFetch(seen) }).submitJob(
      "workflow",
      { template: "a b", pages: 2 },
      { mediaType: "application/x-www-form-urlencoded" },
    );
    const call = only(seen);
    expect(call.init.method).toBe("POST");
    expect(call.init.body).toBeInstanceOf(URLSearchParams);
    expect(String(call.init.body)).toBe("template=a+b&pages=2");
    expect(call.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(server.received[0]?.body.toString()).toBe("template=a+b&pages=2");
  });

  it("gets a multipart body as FormData, files included, and leaves the boundary to fetch", async () => {
    server.handle((_req, res) => sendJson(res, 200, { status: "success", job_id: "m", result: {} }));
    const seen: Seen[] = [];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("%PDF-"));
        controller.enqueue(new TextEncoder().encode("1.7"));
        controller.close();
      },
    });
    await runtimeFor(server, { fetch: recordingFetch(seen) }).submitJob("workflow", {
      template: "pdf_ai_split",
      file: { data: stream, filename: "in.pdf", contentType: "application/pdf" },
    });
    const call = only(seen);
    // Streams are read into Blobs before the first attempt, so no body is ever a stream and `duplex` is never needed.
    expect(call.init.body).toBeInstanceOf(FormData);
    expect(call.headers.has("content-type")).toBe(false);
    const form = await formOf(server.received[0]!);
    expect(form.get("template")).toBe("pdf_ai_split");
    const file = form.get("file");
    expect(file).toBeInstanceOf(File);
    expect((file as File).name).toBe("in.pdf");
    expect(await (file as File).text()).toBe("%PDF-1.7");
  });

  it("gets an init from which a standard Request can be built", async () => {
    server.handle((_req, res) => sendJson(res, 200, { status: "success", job_id: "r", result: { ok: 1 } }));
    // A fetch that wraps its arguments in a Request, as middleware-style fetch wrappers do.
    const viaRequest = (input: string, init: RequestInit) => fetch(new Request(input, init));
    const job = await runtimeFor(server, { fetch: viaRequest }).submitJob("workflow", { template: "t" });
    expect(job.data).toEqual({ ok: 1 });
    expect((await formOf(server.received[0]!)).get("template")).toBe("t");
  });
});

describe("the fetch adapter", () => {
  it("gives fetch the init a PreparedRequest was built from, with the Request's current headers", async () => {
    const calls: { self: unknown; input: string; init: RequestInit }[] = [];
    const fetchImpl = function (this: unknown, input: string, init: RequestInit) {
      calls.push({ self: this, input, init });
      return Promise.resolve(new Response("{}"));
    };
    const form = new FormData();
    form.append("a", "1");
    const request = new PreparedRequest("http://127.0.0.1/a", { method: "POST", headers: { x: "1" }, body: form });
    // A middleware may change the headers of the Request it is shown.
    request.headers.set("x-trace", "t");
    await adaptFetch(fetchImpl, undefined)(request);
    await adaptFetch(fetchImpl, "d")(new PreparedRequest("http://127.0.0.1/b", { method: "GET" }));
    expect(calls[0]?.self).toBeUndefined();
    expect(calls[0]?.input).toBe("http://127.0.0.1/a");
    // The FormData itself, and no Content-Type naming the boundary of the Request's own encoding.
    expect(calls[0]?.init.body).toBe(form);
    const headers = new Headers(calls[0]?.init.headers);
    expect([headers.get("x"), headers.get("x-trace"), headers.has("content-type")]).toEqual(["1", "t", false]);
    expect(calls[1]?.init).toMatchObject({ method: "GET", dispatcher: "d" });
  });

  it("sends a Request a middleware made in place of the prepared one with its body as bytes", async () => {
    const calls: RequestInit[] = [];
    const fetchImpl = (_input: string, init: RequestInit) => {
      calls.push(init);
      return Promise.resolve(new Response("{}"));
    };
    await adaptFetch(fetchImpl, undefined)(new Request("http://127.0.0.1/c", { method: "PUT", body: "hello" }));
    expect(calls[0]?.method).toBe("PUT");
    expect(new TextDecoder().decode(calls[0]?.body as ArrayBuffer)).toBe("hello");
  });
});
