import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  callOperation,
  callSubmission,
  ConnectionError,
  DeadlineExceededError,
  InternalServerError,
  JobMayExistError,
  MayHaveBeenProcessedError,
  type OperationSpec,
  ServiceError,
} from "../../runtime/index.js";
import { backoffDelay, isResendable, parseRetryAfter, retryDelay, verdictForNetwork, verdictForStatus } from "../../runtime/retry.js";
import { errorClasses, runtimeFor } from "./helpers/model.js";
import { closedPort, sendJson, sendText, startServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const OCR = "service_aiocr___generate";
const GET_JOB: OperationSpec = { operationId: "getJob", method: "GET", path: "/job/get/{job_id}", response: "json" };
const DONE = { status: "success", job_id: "j", result: { ok: true } };

function recordingLogger() {
  const lines: { level: string; message: string; fields: Record<string, unknown> | undefined }[] = [];
  const at =
    (level: string) =>
    (message: string, fields?: Record<string, unknown>): void => {
      lines.push({ level, message, fields });
    };
  return { lines, logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") } };
}

describe("retries of a billable submission", () => {
  it("retries a 429 after the Retry-After seconds", async () => {
    server.handle((_req, res, index) =>
      index === 0
        ? sendJson(
            res,
            429,
            { status: "error", code: "RATE_LIMIT_EXCEEDED", message: "slow down", processing_time: "1ms" },
            { "retry-after": "1" },
          )
        : sendJson(res, 200, DONE),
    );
    const { lines, logger } = recordingLogger();
    const job = await runtimeFor(server, { logger }).submitJob(OCR, {});
    expect(job.data).toEqual({ ok: true });
    expect(server.received).toHaveLength(2);
    const retries = lines.filter((l) => l.message === "retrying");
    expect(retries).toHaveLength(1);
    expect(retries[0]?.fields).toMatchObject({ status: 429, code: "RATE_LIMIT_EXCEEDED", delayMs: 1000 });
  });

  it("caps Retry-After at maxRetryAfterMs", async () => {
    server.handle((_req, res, index) =>
      index === 0
        ? sendJson(res, 429, { status: "error", code: "QUEUE_LIMIT_REACHED", message: "full" }, { "retry-after": "120" })
        : sendJson(res, 200, DONE),
    );
    const { lines, logger } = recordingLogger();
    await runtimeFor(server, { logger, retry: { maxRetryAfterMs: 25 } }).submitJob(OCR, {});
    expect(server.received).toHaveLength(2);
    expect(lines.find((l) => l.message === "retrying")?.fields?.delayMs).toBe(25);
  });

  it("retries a 503 and succeeds", async () => {
    server.handle((_req, res, index) =>
      index === 0 ? sendJson(res, 503, { status: "error", code: "SERVICE_UNAVAILABLE", message: "down" }) : sendJson(res, 200, DONE),
    );
    const job = await runtimeFor(server).submitJob(OCR, { model: "basic" });
    expect(job.data).toEqual({ ok: true });
    expect(job.meta.requestCount).toBe(2);
    expect(server.received).toHaveLength(2);
  });

  it("does not resubmit after a 500 and says the job may exist", async () => {
    server.handle((_req, res) => sendJson(res, 500, { status: "error", code: "INTERNAL_ERROR", message: "boom", processing_time: "5ms" }));
    const error = await runtimeFor(server)
      .submitJob(OCR, {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobMayExistError);
    expect((error as JobMayExistError).status).toBe(500);
    expect((error as Error).message).toContain("may exist");
    expect((error as Error).cause).toBeInstanceOf(errorClasses.INTERNAL_ERROR);
    expect(server.received).toHaveLength(1);
  });

  it.each([502, 504])("does not resubmit after a %i with a non-JSON body", async (status) => {
    server.handle((_req, res) => sendText(res, status, "<html>gateway</html>"));
    const error = await runtimeFor(server)
      .submitJob(OCR, {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobMayExistError);
    expect((error as JobMayExistError).status).toBe(status);
    expect(((error as Error).cause as ServiceError).body).toBe("<html>gateway</html>");
    expect(server.received).toHaveLength(1);
  });

  it("does not resubmit when the connection is reset after the body was read", async () => {
    server.handle((_req, res) => {
      res.socket?.destroy();
    });
    const error = await runtimeFor(server)
      .submitJob(OCR, { model: "basic" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobMayExistError);
    const cause = (error as Error).cause;
    expect(cause).toBeInstanceOf(ConnectionError);
    expect((cause as ConnectionError).sent).toBe(true);
    expect(server.received).toHaveLength(1);
    expect(server.received[0]?.body.length).toBeGreaterThan(0);
  });

  it("does not resubmit when the deadline passes during the hold", async () => {
    // Held far beyond the deadline, which is long enough for the submission to reach the server on a starved machine.
    server.handle((_req, res) => {
      const late = setTimeout(() => sendJson(res, 200, DONE), 60_000);
      res.on("close", () => clearTimeout(late));
    });
    const error = await runtimeFor(server)
      .submitJob(OCR, {}, { deadlineMs: 3_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobMayExistError);
    expect((error as Error).cause).toBeInstanceOf(DeadlineExceededError);
    expect(server.received).toHaveLength(1);
  });

  it("resubmits when the connection was refused before anything was sent", async () => {
    const port = await closedPort();
    let calls = 0;
    const fetchOnce = (request: Request, init?: RequestInit): Promise<Response> => {
      calls++;
      if (calls === 1) return fetch(new Request(request.url.replace(server.origin, `http://127.0.0.1:${port}`), request), init);
      return fetch(request, init);
    };
    server.handle((_req, res) => sendJson(res, 200, DONE));
    const job = await runtimeFor(server, { fetch: fetchOnce }).submitJob(OCR, { model: "basic" });
    expect(job.data).toEqual({ ok: true });
    expect(calls).toBe(2);
    expect(server.received).toHaveLength(1);
  });

  it("never retries a 400 validation error", async () => {
    server.handle((_req, res) => sendJson(res, 400, { status: "error", code: "INVALID_REQUEST", message: "model missing" }));
    const error = await runtimeFor(server)
      .submitJob(OCR, {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorClasses.INVALID_REQUEST);
    expect(server.received).toHaveLength(1);
  });
});

describe("a submission without a body", () => {
  // A job submission whose request has no body: the generated function calls callSubmission, which alone (with the
  // calls that send a body) knows a submission's error; callOperation serves operations that are no submission.
  const BODILESS_SUBMIT: OperationSpec = {
    operationId: "addJobNow",
    method: "POST",
    path: "/job/add/now",
    job: "submit",
    response: "json",
  };
  const BODILESS_POST: OperationSpec = { operationId: "touch", method: "POST", path: "/touch", response: "json" };

  it("is not resent after a 500 and says the job may exist; a POST that is no submission says it may have been processed", async () => {
    server.handle((_req, res) => sendJson(res, 500, { status: "error", code: "INTERNAL_ERROR", message: "boom" }));
    const runtime = runtimeFor(server);
    const submitted = await callSubmission(runtime, BODILESS_SUBMIT, {}).catch((e: unknown) => e);
    expect(submitted).toBeInstanceOf(JobMayExistError);
    expect((submitted as JobMayExistError).status).toBe(500);
    expect((submitted as Error).message).toContain("may exist");
    expect(server.received).toHaveLength(1);
    const posted = await callOperation(runtime, BODILESS_POST, {}).catch((e: unknown) => e);
    expect(posted).toBeInstanceOf(MayHaveBeenProcessedError);
    expect(posted).not.toBeInstanceOf(JobMayExistError);
    expect(server.received).toHaveLength(2);
  });
  it("makes the error of a 5xx answer a ServiceError and an InternalServerError too, with the answer's fields", async () => {
    server.handle((_req, res) => sendJson(res, 502, { status: "error", code: "INTERNAL_ERROR", message: "boom" }));
    const runtime = runtimeFor(server);
    for (const [sent, job] of [
      [callSubmission(runtime, BODILESS_SUBMIT, {}), true],
      [callOperation(runtime, BODILESS_POST, {}), false],
    ] as const) {
      const error = await sent.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceError);
      expect(error).toBeInstanceOf(InternalServerError);
      expect(error).toBeInstanceOf(MayHaveBeenProcessedError);
      expect(error instanceof JobMayExistError).toBe(job);
      expect(error).not.toBeInstanceOf(errorClasses.INTERNAL_ERROR);
      expect((error as Error).cause).toBeInstanceOf(errorClasses.INTERNAL_ERROR);
      expect((error as Error).name).toBe(job ? "JobMayExistError" : "MayHaveBeenProcessedError");
      expect(error).toMatchObject({ status: 502, code: "INTERNAL_ERROR" });
      expect((error as Error).message).toContain(job ? "may exist" : "may have been processed");
    }
    // A failure with no answer stays no ServiceError.
    server.handle((_req, res) => void res.socket?.destroy());
    const reset = await callOperation(runtime, BODILESS_POST, {}).catch((e: unknown) => e);
    expect(reset).toBeInstanceOf(MayHaveBeenProcessedError);
    expect(reset).not.toBeInstanceOf(ServiceError);
    expect(new Error("other")).not.toBeInstanceOf(MayHaveBeenProcessedError);
  });
});

describe("retries of reads", () => {
  it("retries 500 and a reset freely, then succeeds", async () => {
    server.handle((_req, res, index) => {
      if (index === 0) return sendJson(res, 500, { status: "error", code: "INTERNAL_ERROR", message: "x" });
      if (index === 1) return void res.socket?.destroy();
      sendJson(res, 200, { status: "success", job_status: "processing" });
    });
    const result = await runtimeFor(server).call(GET_JOB, { path: { job_id: "r1" } });
    expect(result.data).toEqual({ status: "success", job_status: "processing" });
    expect(result.meta.requestCount).toBe(3);
    expect(server.count("/job/get/r1")).toBe(3);
  });

  it("gives up after maxRetries with the last error", async () => {
    server.handle((_req, res) => sendJson(res, 503, { status: "error", code: "SERVICE_UNAVAILABLE", message: "down" }));
    const error = await runtimeFor(server, { retry: { maxRetries: 2, baseDelayMs: 1 } })
      .call(GET_JOB, { path: { job_id: "r2" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorClasses.SERVICE_UNAVAILABLE);
    expect(server.received).toHaveLength(3);
  });

  it("does not wait for a retry the deadline would not allow", async () => {
    // The deadline is far below the 30 s asked for, and far above what one answer takes on a loaded machine.
    server.handle((_req, res) =>
      sendJson(res, 429, { status: "error", code: "RATE_LIMIT_EXCEEDED", message: "x" }, { "retry-after": "30" }),
    );
    const error = await runtimeFor(server)
      .call(GET_JOB, { path: { job_id: "r3" } }, { deadlineMs: 10_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorClasses.RATE_LIMIT_EXCEEDED);
    expect(server.received).toHaveLength(1);
  });

  it("throws DeadlineExceededError when a read outlives its deadline", async () => {
    // The answer comes long after the deadline, which is long enough for the request to reach the server on a
    // starved machine (an earlier abort would leave the server nothing to count).
    server.handle((_req, res) => {
      const late = setTimeout(() => sendJson(res, 200, {}), 60_000);
      res.on("close", () => clearTimeout(late));
    });
    const error = await runtimeFor(server)
      .call(GET_JOB, { path: { job_id: "r4" } }, { deadlineMs: 3_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(server.received).toHaveLength(1);
  });
});

describe("pacing", () => {
  it("waits next_possible_request_seconds before the next request", async () => {
    const arrivals: number[] = [];
    server.handle((_req, res) => {
      arrivals.push(Date.now());
      sendJson(res, 200, { status: "success", job_status: "processing", _billing: { requests: { next_possible_request_seconds: 1 } } });
    });
    const { lines, logger } = recordingLogger();
    const runtime = runtimeFor(server, { pacing: true, logger });
    const first = await runtime.call(GET_JOB, { path: { job_id: "p" } });
    expect(first.meta.billing?.requests?.next_possible_request_seconds).toBe(1);
    await runtime.call(GET_JOB, { path: { job_id: "p" } });
    expect(server.received).toHaveLength(2);
    const paced = lines.find((l) => l.message === "pacing");
    // The logged wait is what was left of the second when the next call began: less on a slow machine, never more.
    expect(paced?.fields?.waitMs).toBeGreaterThan(0);
    expect(paced?.fields?.waitMs).toBeLessThanOrEqual(1000);
    expect((arrivals[1] ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(950);
  });
});

describe("retry arithmetic", () => {
  const options = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 5_000 };

  it("draws full-jitter backoff from [0, min(max, base * 2^retry)]", () => {
    expect(backoffDelay(0, options, () => 0.999)).toBe(99);
    expect(backoffDelay(2, options, () => 0.5)).toBe(200);
    expect(backoffDelay(8, options, () => 0.999)).toBe(999);
    expect(backoffDelay(3, options, () => 0)).toBe(0);
  });

  it("reads Retry-After as seconds or an HTTP date, and caps it", () => {
    const now = Date.parse("2026-11-20T09:00:00Z");
    expect(parseRetryAfter("2", now)).toBe(2000);
    expect(parseRetryAfter("Fri, 20 Nov 2026 09:00:03 GMT", now)).toBe(3000);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(retryDelay(0, "3600", options)).toBe(5_000);
  });

  it("sends a request that is not resendable again only when it was provably not taken", () => {
    expect([429, 503, 500, 502, 504, 400, 404].map((s) => verdictForStatus(s, false))).toEqual([
      "retry",
      "retry",
      "may-have-been-processed",
      "may-have-been-processed",
      "may-have-been-processed",
      "fail",
      "fail",
    ]);
    expect([429, 503, 500, 502, 504, 400].map((s) => verdictForStatus(s, true))).toEqual([
      "retry",
      "retry",
      "retry",
      "retry",
      "retry",
      "fail",
    ]);
    expect(
      ["ECONNREFUSED", "ECONNRESET", "UND_ERR_SOCKET", "UND_ERR_HEADERS_TIMEOUT", undefined].map((c) => verdictForNetwork(c, false)),
    ).toEqual(["retry", "may-have-been-processed", "may-have-been-processed", "may-have-been-processed", "may-have-been-processed"]);
    expect(verdictForNetwork("ECONNRESET", true)).toBe("retry");
  });

  it("resends by the description's mark, else by method; never a job submission", () => {
    expect(["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE", "POST", "PATCH"].map((method) => isResendable({ method }))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(isResendable({ method: "POST", idempotent: true })).toBe(true);
    expect(isResendable({ method: "PUT", idempotent: false })).toBe(false);
    expect(isResendable({ method: "POST", idempotent: true, job: "submit" })).toBe(false);
  });
});
