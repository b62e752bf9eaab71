// Node's built-in fetch stops waiting for response headers after 300 s, while the service may hold a submission
// for about 295 s. These tests show the mechanism that lifts the limit, with a short server delay: a dispatcher
// whose headersTimeout is below the delay fails, one above it waits for the answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConnectionError, JobMayExistError, type OperationSpec } from "../../runtime/index.js";
import { createHoldDispatcher, DEFAULT_HOLD_TIMEOUT_MS } from "../../runtime/node.js";
import { runtimeFor } from "./helpers/model.js";
import { sendJson, startServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

// undici checks these timeouts on a timer of about one second, so the hold must be a few seconds long.
const HOLD_MS = 2_500;
const GET_JOB: OperationSpec = { operationId: "getJob", method: "GET", path: "/job/get/{job_id}", response: "json" };

function holdThenAnswer(): void {
  server.handle((_req, res) => {
    setTimeout(() => sendJson(res, 200, { status: "success", job_id: "h", result: { held: true } }), HOLD_MS);
  });
}

describe("hold longer than the transport's header timeout", () => {
  it("defaults above the service's longest hold", () => {
    expect(DEFAULT_HOLD_TIMEOUT_MS).toBeGreaterThan(300_000);
  });

  it("fails like Node's default would when headersTimeout is shorter than the hold", async () => {
    holdThenAnswer();
    const dispatcher = await createHoldDispatcher({ headersTimeoutMs: 100 });
    const runtime = runtimeFor(server, { dispatcher, retry: { maxRetries: 0 } });
    const read = await runtime.call(GET_JOB, { path: { job_id: "h" } }).catch((e: unknown) => e);
    expect(read).toBeInstanceOf(ConnectionError);
    expect((read as ConnectionError).causeCode).toBe("UND_ERR_HEADERS_TIMEOUT");
    const submit = await runtime.submitJob("workflow", {}).catch((e: unknown) => e);
    expect(submit).toBeInstanceOf(JobMayExistError);
    expect(((submit as Error).cause as ConnectionError).causeCode).toBe("UND_ERR_HEADERS_TIMEOUT");
    expect(server.received).toHaveLength(2);
  });

  it("waits out the hold with a dispatcher whose timeouts exceed it", async () => {
    holdThenAnswer();
    const dispatcher = await createHoldDispatcher({ headersTimeoutMs: HOLD_MS * 4, bodyTimeoutMs: HOLD_MS * 4 });
    const job = await runtimeFor(server, { dispatcher }).submitJob("workflow", {});
    expect(job.data).toEqual({ held: true });
    expect(server.received).toHaveLength(1);
  });

  it("hands the dispatcher to a custom fetch as init.dispatcher", async () => {
    server.handle((_req, res) => sendJson(res, 200, { status: "success" }));
    const dispatcher = await createHoldDispatcher();
    const seen: unknown[] = [];
    const recordingFetch = (url: string, init: RequestInit) => {
      seen.push((init as { dispatcher?: unknown }).dispatcher);
      return fetch(url, init);
    };
    await runtimeFor(server, { dispatcher, fetch: recordingFetch }).call(GET_JOB, { path: { job_id: "x" } });
    expect(seen).toEqual([dispatcher]);
  });
});
