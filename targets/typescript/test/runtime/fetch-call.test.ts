// What fetch receives. openapi-fetch builds a Request (which middleware sees) and the runtime's fetch, the global one
// or the caller's, is called as fetch does: fetch(request, init) with that Request (full URL, method, headers, body,
// signal) and, only when a dispatcher is set, an init holding it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OperationSpec } from "../../runtime/index.js";
import { runtimeFor, SECRET } from "./helpers/model.js";
import { formOf, sendJson, startServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const GET_JOB: OperationSpec = { operationId: "getJob", method: "GET", path: "/job/get/{job_id}", response: "json" };

interface Seen {
  self: unknown;
  request: Request;
  init: RequestInit | undefined;
  /** The body as fetch would send it, read from a clone. */
  body: ArrayBuffer;
}

/** A user-supplied fetch that records its arguments and sends them on with the global fetch. */
function recordingFetch(seen: Seen[]) {
  return async function (this: unknown, request: Request, init?: RequestInit): Promise<Response> {
    seen.push({ self: this, request, init, body: await request.clone().arrayBuffer() });
    return fetch(request, init);
  };
}

function only(seen: Seen[]): Seen & { headers: Headers; text: string } {
  expect(seen).toHaveLength(1);
  const call = seen[0]!;
  return { ...call, headers: call.request.headers, text: new TextDecoder().decode(call.body) };
}

describe("a user-supplied fetch", () => {
  it("gets a GET as a Request: the full URL, method, auth headers, no body; called as a plain function", async () => {
    server.handle((_req, res) => sendJson(res, 200, { status: "success", job_status: "processing" }));
    const seen: Seen[] = [];
    const result = await runtimeFor(server, { fetch: recordingFetch(seen) }).call(
      GET_JOB,
      { path: { job_id: "a b" } },
      { headers: { "X-Trace": "t-1" } },
    );
    expect(result.data).toEqual({ status: "success", job_status: "processing" });
    const call = only(seen);
    // Browsers refuse a fetch whose `this` is not the window.
    expect(call.self).toBeUndefined();
    expect(call.request.url).toBe(`${server.baseUrl}/job/get/a%20b`);
    expect(call.request.method).toBe("GET");
    expect(call.request.body).toBeNull();
    expect(call.init).toBeUndefined();
    expect(call.headers.get("authorization")).toBe(`Bearer ${SECRET}`);
    expect(call.headers.get("x-trace")).toBe("t-1");
    expect(call.headers.get("user-agent")).toMatch(/^document-automation-service-sdk-typescript\//);
    expect(server.received[0]?.url).toBe("/latest/job/get/a%20b");
  });

  it("gets a JSON body as its text with the JSON content type", async () => {
    server.handle((_req, res) => sendJson(res, 200, { status: "success" }));
    const seen: Seen[] = [];
    const create: OperationSpec = {
      operationId: "createThing",
      method: "POST",
      path: "/things/create",
      requestMediaType: "application/json",
      idempotent: true,
    };
    await runtimeFor(server, { fetch: recordingFetch(seen) }).call(create, { body: { name: "x", list: [1, 2] } });
    const call = only(seen);
    expect(call.request.method).toBe("POST");
    expect(call.text).toBe('{"name":"x","list":[1,2]}');
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
    expect(call.request.method).toBe("POST");
    expect(call.text).toBe("template=a+b&pages=2");
    expect(call.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(server.received[0]?.body.toString()).toBe("template=a+b&pages=2");
  });

  it("gets a multipart body, files included, whose Content-Type names the boundary of that very body", async () => {
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
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(call.headers.get("content-type") ?? "")?.[1];
    expect(boundary).toBeDefined();
    expect(call.text).toContain(`--${boundary}`);
    const form = await formOf(server.received[0]!);
    expect(form.get("template")).toBe("pdf_ai_split");
    const file = form.get("file");
    expect(file).toBeInstanceOf(File);
    expect((file as File).name).toBe("in.pdf");
    expect(await (file as File).text()).toBe("%PDF-1.7");
  });

  it("gets a Request a fetch wrapper may wrap again", async () => {
    server.handle((_req, res) => sendJson(res, 200, { status: "success", job_id: "r", result: { ok: 1 } }));
    // A fetch that wraps its argument in a new Request, as middleware-style fetch wrappers do.
    const viaRequest = (request: Request, init?: RequestInit) => fetch(new Request(request), init);
    const job = await runtimeFor(server, { fetch: viaRequest }).submitJob("workflow", { template: "t" });
    expect(job.data).toEqual({ ok: 1 });
    expect((await formOf(server.received[0]!)).get("template")).toBe("t");
  });

  it("gets the dispatcher in its init, and only then an init", async () => {
    const inits: (RequestInit | undefined)[] = [];
    // Answered here: the stand-in dispatcher is no undici Agent.
    const answering = (_request: Request, init?: RequestInit) => {
      inits.push(init);
      return Promise.resolve(Response.json({ status: "success" }));
    };
    const dispatcher = { marker: "dispatcher" };
    const result = await runtimeFor(server, { fetch: answering, dispatcher }).call(GET_JOB, { path: { job_id: "d" } });
    expect(result.data).toEqual({ status: "success" });
    expect(inits).toEqual([{ dispatcher }]);
  });
});
