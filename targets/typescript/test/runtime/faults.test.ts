// Fault suite over real HTTP on 127.0.0.1. The server here is written for these tests alone (not the mock): it holds,
// resets, cuts and trickles answers on purpose and records when every request arrived and when its body was complete.
// The client is the generated one. Each case checks request counts: no billable submission is sent twice, a job is
// never lost without its id where the runtime could know it, and nothing is sent after a deadline or an abort.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AbortedError,
  createClient,
  DeadlineExceededError,
  downloadJobFile,
  getJob,
  JobMayExistError,
  RateLimitExceededError,
  ResponseBodyError,
  type Billing,
  type Runtime,
  submitJob,
  SdkError,
  ServiceUnavailableError,
} from "../../../../generated/index.js";

interface Arrival {
  method: string;
  path: string;
  /** Raw body text (multipart or urlencoded as sent). */
  body: string;
  bodyAt: number;
}

type FaultHandler = (req: http.IncomingMessage, res: http.ServerResponse, arrival: Arrival) => void;

const arrivals: Arrival[] = [];
/** Requests the client's fetch started, with their start time: the client-side view of "nothing sent after". */
const sent: { url: string; at: number }[] = [];
const closed: string[] = [];
/** Counts per case, printed at the end. */
const summary: string[] = [];
let handler: FaultHandler = (_req, res) => res.writeHead(500).end();
let bodyArrived: () => void = () => {};
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const arrival: Arrival = {
        method: req.method ?? "",
        path: (req.url ?? "").replace(/^\/latest/, "").split("?")[0] ?? "",
        body: Buffer.concat(chunks).toString("utf8"),
        bodyAt: Date.now(),
      };
      arrivals.push(arrival);
      res.on("close", () => closed.push(`${arrival.method} ${arrival.path}`));
      bodyArrived();
      handler(req, res, arrival);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/latest`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  console.log(`fault suite request counts:\n  ${summary.join("\n  ")}`);
});

beforeEach(() => {
  arrivals.length = 0;
  sent.length = 0;
  closed.length = 0;
});

function client(options: { pollMs?: number; maxRetries?: number } = {}): Runtime<Billing> {
  return createClient({
    baseUrl,
    token: "svc_sk_live_faultsuite000000",
    pollIntervalMs: options.pollMs ?? 50,
    retry: { maxRetries: options.maxRetries ?? 3, baseDelayMs: 1, maxDelayMs: 5 },
    fetch: (request, init) => {
      sent.push({ url: request.url, at: Date.now() });
      return globalThis.fetch(request, init);
    },
  });
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

const submissions = () => arrivals.filter((a) => a.method === "POST" && a.path.startsWith("/job/add/")).length;
const polls = (jobId: string) => arrivals.filter((a) => a.path === `/job/get/${jobId}`).length;
/** Resolves once the server has read the next complete request body. */
const nextBody = () => new Promise<void>((resolve) => (bodyArrived = resolve));
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Resolves when the server sees a request's connection close; rejects after a margin that holds on a busy machine. */
function closedSoon(label: string, ms = 10_000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const check = () => {
      if (closed.includes(label)) return resolve();
      if (Date.now() - started > ms) return reject(new Error(`${label} was still open after ${ms} ms`));
      setTimeout(check, 20);
    };
    check();
  });
}

/** The client sent nothing at or after `at`, and nothing more arrives in the next moments. */
async function expectNothingAfter(at: number, label: string): Promise<void> {
  const before = arrivals.length;
  const late = sent.filter((s) => s.at >= at);
  expect(late, `${label}: requests started after the stop`).toEqual([]);
  await settle(300);
  expect(arrivals.length, `${label}: requests arriving after the stop`).toBe(before);
}

const HOLD_FOREVER: FaultHandler = () => {};
const OCR = "service_aiocr___generate";

describe("job submission in flight", () => {
  it("an abort after the body reached the service gives JobMayExistError with the abort as cause", async () => {
    handler = HOLD_FOREVER;
    const controller = new AbortController();
    const arrived = nextBody();
    const pending = submitJob(client(), OCR, { model: "basic" }, { signal: controller.signal }).catch((e: unknown) => e);
    await arrived;
    controller.abort();
    const stoppedAt = Date.now();
    const error = await pending;
    expect(error).toBeInstanceOf(JobMayExistError);
    expect((error as Error).cause).toBeInstanceOf(AbortedError);
    // The default job deadline covers the hold: the submission was held, not switched to client_wait=false.
    expect(arrivals[0]?.body).not.toContain("client_wait");
    await closedSoon(`POST /job/add/${OCR}`);
    await expectNothingAfter(stoppedAt + 1, "abort in flight");
    expect(submissions()).toBe(1);
    summary.push(`abort during held submission: submissions=${submissions()} requests=${arrivals.length} after-abort=0`);
  });

  it("a deadline shorter than the hold submits with client_wait=false and polls, keeping the job id", async () => {
    let gets = 0;
    handler = (_req, res, a) => {
      if (a.method === "POST") {
        // A held submission would never answer in time; the one that does not wait is answered at once.
        if (!/name="client_wait"\r\n\r\nfalse/.test(a.body)) return;
        return json(res, 200, { status: "success", job_id: "k1", poll_url: "/job/get/k1", job_status: "queued" });
      }
      gets++;
      json(
        res,
        200,
        gets < 3 ? { status: "success", job_status: "processing" } : { status: "success", job_status: "completed", result: { ok: 1 } },
      );
    };
    const job = await submitJob(client(), OCR, { model: "basic" }, { deadlineMs: 30_000 });
    expect(job.jobId).toBe("k1");
    expect(job.data).toEqual({ ok: 1 });
    expect(submissions()).toBe(1);
    expect(polls("k1")).toBe(3);
    summary.push(`short deadline, job finishes: submissions=${submissions()} polls=${polls("k1")} id kept=k1`);
  });

  it("a short deadline that passes while polling ends at the deadline with the job id, sending nothing after it", async () => {
    handler = (_req, res, a) =>
      a.method === "POST"
        ? json(res, 200, { status: "success", job_id: "k2", poll_url: "/job/get/k2" })
        : json(res, 200, { status: "success", job_status: "processing" });
    const deadlineMs = 2_500;
    const started = Date.now();
    // Polls every 2 s: the next regular poll after the first would come after the deadline.
    const error = await submitJob(client({ pollMs: 2_000 }), OCR, {}, { deadlineMs }).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as SdkError).jobId).toBe("k2");
    // The wait ends at its deadline, not a poll interval before it (the old behaviour ended at about 2 s).
    expect(elapsed).toBeGreaterThanOrEqual(deadlineMs - 5);
    expect(elapsed).toBeLessThan(deadlineMs + 5_000);
    await expectNothingAfter(started + deadlineMs, "deadline while polling");
    expect(submissions()).toBe(1);
    summary.push(`short deadline passes while polling: submissions=${submissions()} polls=${polls("k2")} id kept=k2 after-deadline=0`);
  });

  it("a deadline that passes while a submission is held gives JobMayExistError, aborts it and sends nothing more", async () => {
    handler = HOLD_FOREVER;
    const deadlineMs = 1_500;
    const started = Date.now();
    // The caller asked for the hold explicitly, so the runtime keeps it.
    const error = await submitJob(client(), OCR, { client_wait: true }, { deadlineMs }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobMayExistError);
    expect((error as Error).cause).toBeInstanceOf(DeadlineExceededError);
    await closedSoon(`POST /job/add/${OCR}`);
    await expectNothingAfter(started + deadlineMs, "deadline in flight");
    expect(submissions()).toBe(1);
    summary.push(`deadline during held submission: submissions=${submissions()} after-deadline=0`);
  });

  it("an abort while a client_wait=false submission is in flight also gives JobMayExistError", async () => {
    handler = HOLD_FOREVER;
    const controller = new AbortController();
    const arrived = nextBody();
    const pending = submitJob(client(), OCR, {}, { deadlineMs: 60_000, signal: controller.signal }).catch((e: unknown) => e);
    await arrived;
    controller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(JobMayExistError);
    expect((error as Error).cause).toBeInstanceOf(AbortedError);
    await expectNothingAfter(Date.now(), "abort in flight, client_wait=false");
    expect(submissions()).toBe(1);
    summary.push(`abort during client_wait=false submission: submissions=${submissions()}`);
  });

  it("an abort before anything is sent is AbortedError and sends nothing", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await submitJob(client(), OCR, {}, { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect(sent).toEqual([]);
    summary.push(`abort before sending: requests=${sent.length}`);
  });

  it("a connection reset or a 5xx after the body arrived is never resubmitted", async () => {
    for (const fault of ["reset", 500, 502, 504] as const) {
      arrivals.length = 0;
      handler = (_req, res) =>
        fault === "reset" ? res.socket?.destroy() : json(res, fault, { status: "error", code: "INTERNAL_ERROR", message: "x" });
      const error = await submitJob(client(), OCR, {}).catch((e: unknown) => e);
      expect(error, String(fault)).toBeInstanceOf(JobMayExistError);
      await settle(100);
      expect(submissions(), String(fault)).toBe(1);
      summary.push(`${fault} on submission: submissions=${submissions()}`);
    }
  });

  it("an abort while polling keeps the job id and sends nothing after it", async () => {
    const controller = new AbortController();
    handler = (_req, res, a) => {
      if (a.method === "POST") return json(res, 202, { status: "success", job_id: "p1", poll_url: "/job/get/p1" });
      if (polls("p1") === 2) controller.abort();
      json(res, 200, { status: "success", job_status: "processing" });
    };
    const error = await submitJob(client(), OCR, {}, { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect((error as SdkError).jobId).toBe("p1");
    await expectNothingAfter(Date.now(), "abort while polling");
    expect(polls("p1")).toBe(2);
    summary.push(`abort while polling: submissions=${submissions()} polls=${polls("p1")} id kept=p1`);
  });

  it("reads result ?? job_result after polling, for OCR too", async () => {
    handler = (_req, res, a) =>
      a.method === "POST"
        ? json(res, 202, { status: "success", job_id: "r1", poll_url: "/job/get/r1" })
        : json(res, 200, { status: "success", job_status: "completed", result: { from: "result" }, job_result: { from: "job_result" } });
    const job = await submitJob(client(), OCR, {});
    expect(job.data).toEqual({ from: "result" });
  });
});

describe("downloads", () => {
  it("a body cut short rejects blob() with ResponseBodyError, an SdkError", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf", "content-length": "100000" });
      res.write(Buffer.alloc(1_000, 1), () => setTimeout(() => res.socket?.destroy(), 50));
    };
    const file = await downloadJobFile(client(), { token: "t1" });
    const error = await file.blob().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseBodyError);
    expect(error).toBeInstanceOf(SdkError);
    expect((error as Error).cause).toBeDefined();
    expect(arrivals).toHaveLength(1);
    summary.push(`download cut short: requests=${arrivals.length} error=ResponseBodyError`);
  });

  it("a body cut short fails the stream with ResponseBodyError too", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf", "content-length": "5000" });
      res.write(Buffer.alloc(100, 1), () => setTimeout(() => res.socket?.destroy(), 50));
    };
    const file = await downloadJobFile(client(), { token: "t2" });
    const reader = file.stream.getReader();
    const error = await (async () => {
      for (;;) if ((await reader.read()).done) return undefined;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseBodyError);
  });

  it("a body that trickles past the deadline ends at the deadline and releases the connection", async () => {
    const timers: NodeJS.Timeout[] = [];
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf", "content-length": "1000000" });
      timers.push(setInterval(() => res.write(Buffer.alloc(10, 1)), 100));
    };
    const deadlineMs = 1_500;
    const started = Date.now();
    try {
      const file = await downloadJobFile(client(), { token: "t3" }, { deadlineMs });
      const error = await file.blob().catch((e: unknown) => e);
      const elapsed = Date.now() - started;
      expect(error).toBeInstanceOf(DeadlineExceededError);
      expect(elapsed).toBeGreaterThanOrEqual(deadlineMs - 5);
      expect(elapsed).toBeLessThan(deadlineMs + 5_000);
      await closedSoon("GET /job/download/t3");
      await expectNothingAfter(started + deadlineMs, "trickling download");
      summary.push(`trickling download: requests=${arrivals.length} ended after ${elapsed} ms (deadline ${deadlineMs})`);
    } finally {
      for (const timer of timers) clearInterval(timer);
    }
  });

  it("an abort while the body is read ends it with AbortedError and releases the connection", async () => {
    const timers: NodeJS.Timeout[] = [];
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf", "content-length": "1000000" });
      timers.push(setInterval(() => res.write(Buffer.alloc(10, 1)), 50));
    };
    const controller = new AbortController();
    try {
      const file = await downloadJobFile(client(), { token: "t4" }, { signal: controller.signal });
      setTimeout(() => controller.abort(), 200);
      const error = await file.blob().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AbortedError);
      await closedSoon("GET /job/download/t4");
    } finally {
      for (const timer of timers) clearInterval(timer);
    }
  });
});

describe("Retry-After", () => {
  it("RateLimitExceededError carries the Retry-After the service sent", async () => {
    handler = (_req, res) => json(res, 429, { status: "error", code: "RATE_LIMIT_EXCEEDED", message: "slow down" }, { "retry-after": "7" });
    const error = await getJob(client({ maxRetries: 0 }), { job_id: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitExceededError);
    expect((error as RateLimitExceededError).retryAfterMs).toBe(7_000);
    expect(arrivals).toHaveLength(1);
  });

  it("a Retry-After beyond the deadline ends the call at once with that error, sending nothing more", async () => {
    handler = (_req, res) =>
      json(res, 429, { status: "error", code: "RATE_LIMIT_EXCEEDED", message: "slow down" }, { "retry-after": "30" });
    const started = Date.now();
    const error = await getJob(client(), { job_id: "x" }, { deadlineMs: 5_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitExceededError);
    expect((error as RateLimitExceededError).retryAfterMs).toBe(30_000);
    expect(Date.now() - started).toBeLessThan(5_000);
    await expectNothingAfter(Date.now(), "retry-after beyond deadline");
    expect(arrivals).toHaveLength(1);
    summary.push(`429 with Retry-After 30 s and a 5 s deadline: requests=${arrivals.length}`);
  });

  it("other service errors carry it too, also as an HTTP date", async () => {
    const at = new Date(Date.now() + 120_000).toUTCString();
    handler = (_req, res) =>
      json(res, 503, { status: "error", code: "SERVICE_UNAVAILABLE", message: "maintenance" }, { "retry-after": at });
    const error = await getJob(client({ maxRetries: 0 }), { job_id: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    const ms = (error as ServiceUnavailableError).retryAfterMs ?? 0;
    expect(ms).toBeGreaterThan(100_000);
    expect(ms).toBeLessThanOrEqual(120_000);
  });
});
