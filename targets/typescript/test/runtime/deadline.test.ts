// Deadlines and the caller's signal on requests in flight (runtime/call-deadline.ts). A call whose deadline is the
// default or longer gets no AbortController of its own: fetch gets the caller's signal as it is (or none), and the
// deadline ends the call without aborting the request. A shorter deadline gets a controller that aborts the request.
// Either way the call ends on time and nothing is sent after its deadline or abort.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ABORT_IN_FLIGHT_BELOW_MS, callDeadline } from "../../runtime/call-deadline.js";
import { AbortedError, DeadlineExceededError, JobMayExistError, type OperationSpec } from "../../runtime/index.js";
import { DEFAULTS } from "../../runtime/options.js";
import { budget } from "../../runtime/timing.js";
import { runtimeFor } from "./helpers/model.js";
import { sendJson, startServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
afterEach(() => {
  vi.useRealTimers();
});

const GET_JOB: OperationSpec = { operationId: "getJob", method: "GET", path: "/job/get/{job_id}", response: "json" };

/** A fetch that never answers, recording the signal of each call. */
function silentFetch(signals: (AbortSignal | null | undefined)[]) {
  return (request: Request): Promise<Response> => {
    signals.push(request.signal);
    return new Promise<Response>(() => {});
  };
}

/** Generous: the close travels through two event loops that may be starved on a busy machine. */
const CLOSE_MARGIN_MS = 15_000;

/**
 * Resolves when the server sees the connection of the request it holds close, rejects after `ms`. `onArrival` runs
 * once the server holds the request, so that an abort is sure to meet a request in flight, however slow the machine.
 */
function closedWithin(ms: number, onArrival: () => void = () => {}): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the request in flight was not aborted within ${ms} ms`)), ms);
    server.handle((_req, res) => {
      res.on("close", () => {
        clearTimeout(timer);
        resolve();
      });
      onArrival();
    });
  });
}

describe("the default deadline", () => {
  it("is the boundary: default calls have no controller of their own", () => {
    expect(ABORT_IN_FLIGHT_BELOW_MS).toBe(DEFAULTS.deadlineMs);
    expect(callDeadline(budget(DEFAULTS.deadlineMs, undefined)).signal).toBeUndefined();
    expect(callDeadline(budget(DEFAULTS.deadlineMs - 1, undefined)).signal).toBeInstanceOf(AbortSignal);
  });

  it("ends a call whose request never answers, with no per-call controller, and sends nothing more", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const signals: (AbortSignal | null | undefined)[] = [];
    const pending = runtimeFor(server, { fetch: silentFetch(signals) })
      .call(GET_JOB, { path: { job_id: "d" } })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(DEFAULTS.deadlineMs - 1);
    await vi.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as DeadlineExceededError).deadlineMs).toBe(DEFAULTS.deadlineMs);
    // No controller of the call's own: nothing aborts the request.
    expect(signals.map((s) => s?.aborted)).toEqual([false]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(false);
  });

  it("turns a submission still held at the job deadline into JobMayExistError, never resubmitting", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const signals: (AbortSignal | null | undefined)[] = [];
    const pending = runtimeFor(server, { fetch: silentFetch(signals) })
      .submitJob("workflow", {})
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(DEFAULTS.jobDeadlineMs);
    const error = await pending;
    expect(error).toBeInstanceOf(JobMayExistError);
    expect((error as Error).cause).toBeInstanceOf(DeadlineExceededError);
    expect(signals.map((s) => s?.aborted)).toEqual([false]);
  });

  it("releases the body of an answer that arrives after the deadline", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const deadline = callDeadline(budget(DEFAULTS.deadlineMs, undefined));
    let answer: (late: { response: Response }) => void = () => {};
    const late = new Promise<{ response: Response }>((resolve) => {
      answer = resolve;
    });
    const settled = deadline.settle(late).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(DEFAULTS.deadlineMs);
    expect(await settled).toBeInstanceOf(DeadlineExceededError);
    let cancelled = false;
    const body = new ReadableStream({
      cancel() {
        cancelled = true;
      },
    });
    answer({ response: new Response(body) });
    await vi.advanceTimersByTimeAsync(0);
    expect(cancelled).toBe(true);
  });

  it("hands the caller's signal to fetch as it is; aborting it ends the request in flight", async () => {
    const controller = new AbortController();
    const closed = closedWithin(CLOSE_MARGIN_MS, () => controller.abort());
    const signals: (AbortSignal | null | undefined)[] = [];
    const spy = (request: Request, init?: RequestInit) => {
      signals.push(request.signal);
      return fetch(request, init);
    };
    const error = await runtimeFor(server, { fetch: spy })
      .call(GET_JOB, { path: { job_id: "s" } }, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    // fetch gets a Request whose signal follows the caller's.
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(true);
    await closed;
    expect(server.received).toHaveLength(1);
  });

  it("sends nothing after an abort that comes while a retry waits", async () => {
    const controller = new AbortController();
    server.handle((_req, res) => {
      controller.abort();
      sendJson(res, 503, { status: "error", code: "SERVICE_UNAVAILABLE", message: "busy" });
    });
    const error = await runtimeFor(server, { retry: { maxRetries: 3, baseDelayMs: 50, maxDelayMs: 50 } })
      .call(GET_JOB, { path: { job_id: "w" } }, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.received).toHaveLength(1);
  });

  it("never fires for a deadline beyond setTimeout's range (Infinity included)", async () => {
    server.handle((_req, res) => {
      setTimeout(() => sendJson(res, 200, { status: "success", job_status: "processing" }), 30);
    });
    for (const deadlineMs of [Number.POSITIVE_INFINITY, 40 * 24 * 3_600_000]) {
      const result = await runtimeFor(server).call(GET_JOB, { path: { job_id: "i" } }, { deadlineMs });
      expect(result.meta.status, String(deadlineMs)).toBe(200);
    }
  });
});

describe("a deadline under the default", () => {
  it("aborts the request in flight with its own controller", async () => {
    const closed = closedWithin(CLOSE_MARGIN_MS);
    const signals: (AbortSignal | null | undefined)[] = [];
    const spy = (request: Request, init?: RequestInit) => {
      signals.push(request.signal);
      return fetch(request, init);
    };
    // Long enough for the request to reach the server on a starved machine, far below the default.
    const error = await runtimeFor(server, { fetch: spy })
      .call(GET_JOB, { path: { job_id: "c" } }, { deadlineMs: 5_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(signals).toHaveLength(1);
    expect(signals[0]).toBeInstanceOf(AbortSignal);
    expect(signals[0]?.aborted).toBe(true);
    await closed;
  });

  it("ties the caller's signal to that controller", async () => {
    const controller = new AbortController();
    const closed = closedWithin(CLOSE_MARGIN_MS, () => controller.abort());
    const signals: (AbortSignal | null | undefined)[] = [];
    const spy = (request: Request, init?: RequestInit) => {
      signals.push(request.signal);
      return fetch(request, init);
    };
    const error = await runtimeFor(server, { fetch: spy })
      .call(GET_JOB, { path: { job_id: "t" } }, { deadlineMs: 10_000, signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect(signals[0]).not.toBe(controller.signal);
    expect(signals[0]?.aborted).toBe(true);
    await closed;
  });
});
