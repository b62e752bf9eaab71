// Node's built-in fetch stops waiting for response headers after 300 s, while the service may hold a submission
// for about 295 s. These tests show the mechanism that lifts the limit, with a short server delay: a dispatcher
// whose headersTimeout is below the delay fails, one above it waits for the answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConnectionError, JobMayExistError, type OperationSpec } from "../../runtime/index.js";
import { createHoldDispatcher, DEFAULT_HOLD_TIMEOUT_MS, holdTimeoutMs } from "../../runtime/node.js";
import { defaultDeadlineMs } from "../../runtime/options.js";
import { serviceModel } from "../../../../generated/model.js";
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
  it("defaults above Node's own limit, and above the description's longest hold", () => {
    expect(DEFAULT_HOLD_TIMEOUT_MS).toBeGreaterThan(300_000);
    const hold = serviceModel.jobs?.submit.maxHoldSeconds;
    expect(hold).toBeGreaterThan(0);
    expect(holdTimeoutMs(serviceModel)).toBeGreaterThan((hold ?? 0) * 1000);
    expect(defaultDeadlineMs(serviceModel)).toBeGreaterThan(holdTimeoutMs(serviceModel));
  });

  it("follows a longer hold the description states", () => {
    const { jobs } = serviceModel;
    if (!jobs) throw new Error("the description states job operations");
    const longer = { ...serviceModel, jobs: { ...jobs, submit: { ...jobs.submit, maxHoldSeconds: 900 } } };
    expect(holdTimeoutMs(longer)).toBeGreaterThan(900_000);
    expect(defaultDeadlineMs(longer)).toBeGreaterThan(holdTimeoutMs(longer) - 1);
    const { jobs: _, ...plain } = serviceModel;
    expect(holdTimeoutMs(plain)).toBe(DEFAULT_HOLD_TIMEOUT_MS);
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
    const recordingFetch = (request: Request, init?: RequestInit) => {
      seen.push((init as { dispatcher?: unknown } | undefined)?.dispatcher);
      return fetch(request, init);
    };
    await runtimeFor(server, { dispatcher, fetch: recordingFetch }).call(GET_JOB, { path: { job_id: "x" } });
    expect(seen).toEqual([dispatcher]);
  });
});
