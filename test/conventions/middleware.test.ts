// Middleware added with `use` sees every request the client sends: a job submission held and answered 202, then
// its polls, a retried one included; with `eject` it sees no more.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJob, createClient, type Middleware } from "../../generated/index.js";
import { SECRET } from "../../targets/typescript/test/runtime/helpers/model.js";
import { sendJson, startServer, type TestServer } from "../../targets/typescript/test/runtime/helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const FAST = { pollIntervalMs: { min: 1, max: 3 }, retry: { baseDelayMs: 1, maxDelayMs: 5 } } as const;

/** Holds the submission a moment and answers 202; the first poll meets a 503, then processing, then completed. */
function jobServer(): void {
  server.handle(async (req, res, index) => {
    if (req.method === "POST") {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return sendJson(res, 202, { status: "success", job_id: "m1", poll_url: "/job/get/m1", message: "hold exceeded" });
    }
    if (index === 1) return sendJson(res, 503, { status: "error", code: "SERVICE_UNAVAILABLE", message: "busy" });
    if (index === 2) return sendJson(res, 200, { status: "success", job_id: "m1", job_status: "processing" });
    return sendJson(res, 200, { status: "success", job_id: "m1", job_status: "completed", result: { pages: [1] } });
  });
}

describe("middleware", () => {
  it("sees every request of an addJob that is held, answered 202 and polled, the retried poll included", async () => {
    jobServer();
    const seen: { method: string; path: string; status?: number; auth: string | null }[] = [];
    const middleware: Middleware = {
      onRequest({ request }) {
        seen.push({ method: request.method, path: new URL(request.url).pathname, auth: request.headers.get("authorization") });
        request.headers.set("x-trace", `t${seen.length}`);
      },
      onResponse({ response }) {
        const last = seen[seen.length - 1];
        if (last) last.status = response.status;
      },
    };
    const client = createClient({ baseUrl: server.baseUrl, token: SECRET, ...FAST });
    client.use(middleware);
    const job = await addJob(client, "workflow", { template: "pdf_ai_split", pofid: "POF-1" });
    expect(job.data).toEqual({ pages: [1] });
    expect(job.submitMeta?.status).toBe(202);
    expect(seen.map((s) => `${s.method} ${s.path} ${s.status}`)).toEqual([
      "POST /latest/job/add/workflow 202",
      "GET /latest/job/get/m1 503",
      "GET /latest/job/get/m1 200",
      "GET /latest/job/get/m1 200",
    ]);
    // The Request it is shown carries the credentials, and what it changes reaches the server.
    expect(seen.every((s) => s.auth === `Bearer ${SECRET}`)).toBe(true);
    expect(server.received.map((r) => r.headers["x-trace"])).toEqual(["t1", "t2", "t3", "t4"]);
  });

  it("sees nothing after eject, and a copy made with withOptions keeps its own list", async () => {
    jobServer();
    let count = 0;
    const counter: Middleware = {
      onRequest() {
        count++;
      },
    };
    const client = createClient({ baseUrl: server.baseUrl, token: SECRET, ...FAST });
    client.use(counter);
    const copy = client.withOptions({ userAgentSuffix: "copy/1" });
    client.eject(counter);
    await addJob(client, "workflow", { template: "pdf_ai_split", pofid: "POF-1" });
    expect(count).toBe(0);
    jobServer();
    await addJob(copy, "workflow", { template: "pdf_ai_split", pofid: "POF-1" });
    expect(count).toBe(4);
    expect(server.received[0]?.headers["user-agent"]).toMatch(/ copy\/1$/);
  });

  it("may answer in place of the server", async () => {
    server.handle((_req, res) => sendJson(res, 500, { status: "error", code: "INTERNAL_ERROR", message: "not reached" }));
    const client = createClient({ baseUrl: server.baseUrl, token: SECRET, ...FAST });
    client.use({
      onRequest: () =>
        new Response(JSON.stringify({ status: "success", job_id: "c1", result: { cached: true } }), {
          status: 200,
          headers: { "content-type": "application/json" },
        }),
    });
    const job = await addJob(client, "workflow", { template: "pdf_ai_split", pofid: "POF-1" });
    expect(job.data).toEqual({ cached: true });
    expect(server.received).toHaveLength(0);
  });

  it("also sees the requests of client.openapi, openapi-fetch typed with the description's paths", async () => {
    server.handle((_req, res) => sendJson(res, 200, { status: "success", job_id: "o1", job_status: "processing" }));
    const paths: string[] = [];
    const client = createClient({ baseUrl: server.baseUrl, token: SECRET, ...FAST });
    client.use({
      onRequest({ request, schemaPath }) {
        paths.push(`${schemaPath} ${request.headers.get("authorization")}`);
      },
    });
    const { data, response } = await client.openapi.GET("/job/get/{job_id}", { params: { path: { job_id: "o 1" } } });
    expect(response.status).toBe(200);
    expect(data?.job_status).toBe("processing");
    expect(paths).toEqual([`/job/get/{job_id} Bearer ${SECRET}`]);
    expect(server.received[0]?.url).toBe("/latest/job/get/o%201");
    expect(server.received[0]?.headers["user-agent"]).toMatch(/^document-automation-service-sdk-typescript\//);
    // @ts-expect-error a path the description does not have
    await client.openapi.GET("/job/nope").catch(() => undefined);
  });
});
