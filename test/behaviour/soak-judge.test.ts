// The soak's judge over made-up reports and request logs: each broken promise it is there to catch is caught.
import { describe, expect, it } from "vitest";
import type { LoggedRequest } from "../../mock/index.js";
import { judgeSoak, type SoakConfig, type SoakJob } from "./soak.js";

const config: SoakConfig = {
  baseUrl: "http://127.0.0.1:1/latest",
  token: "svc_sk_x",
  prefix: "t",
  jobs: 2,
  concurrency: 2,
  deadlinesMs: [1_000],
  pollMs: [10, 20],
  maxRetries: 1,
  baseDelayMs: 10,
  maxDelayMs: 10,
  maxRetryAfterMs: 1_000,
  pipeline: "workflow",
  modes: ["submit"],
};
const T = 1_000_000;

let seq = 0;
function created(ref: string, jobId: string, at = T + 10): LoggedRequest {
  return {
    seq: ++seq,
    at,
    endedAt: at + 5,
    method: "POST",
    path: "/latest/job/add/workflow",
    operationId: "addJob",
    params: { pipeline: "workflow" },
    status: 200,
    jobId,
    created: true,
    fields: { pofid: ref },
  };
}
function poll(jobId: string, at: number, fault?: "429" | "503"): LoggedRequest {
  const base = { seq: ++seq, at, endedAt: at + 5, method: "GET", path: `/latest/job/get/${jobId}`, operationId: "getJob" };
  // A refused poll was not processed: it names its job by its path parameter only.
  if (fault === undefined) return { ...base, params: { job_id: jobId }, status: 200, jobId };
  return { ...base, params: { job_id: jobId }, status: Number(fault), fault, retryAfter: "1" };
}
function job(ref: string, outcome: Partial<SoakJob>, elapsedMs = 100): SoakJob {
  return {
    ref,
    mode: "submit",
    ok: true,
    jobId: null,
    hasData: true,
    calls: [{ op: "submit", deadlineMs: 1_000, startedAt: T, elapsedMs }],
    ...outcome,
  };
}

describe("soak judge", () => {
  it("passes completed jobs whose results name the job the mock created", () => {
    const log = [created("t-00000", "job_a"), poll("job_a", T + 50, "503"), created("t-00001", "job_b")];
    const r = judgeSoak(config, [job("t-00000", { jobId: "job_a" }), job("t-00001", { jobId: "job_b" })], log);
    expect([r.duplicates, r.lost, r.overruns, r.earlyRetries, r.wrong]).toEqual([[], [], [], [], []]);
    expect(r).toMatchObject({ ok: 2, created: 2, faulted: 1, faults: { "503": 1 } });
  });

  it("counts a second job created for one reference as a duplicate submission", () => {
    const log = [created("t-00000", "job_a"), created("t-00000", "job_a2"), created("t-00001", "job_b")];
    const r = judgeSoak(config, [job("t-00000", { jobId: "job_a" }), job("t-00001", { jobId: "job_b" })], log);
    expect(r.duplicates).toEqual(["t-00000: job_a, job_a2", "t-00000: submitted again after a 200 answer"]);
  });

  it("counts a submission sent again after an answer that does not say it was refused as a duplicate", () => {
    const attempt = (status: number, fault: "503" | "500"): LoggedRequest => {
      const { jobId: _id, created: _created, ...unprocessed } = created("t-00000", "job_x", T + 5);
      return { ...unprocessed, status, fault, ...(status === 503 && { retryAfter: "1" }) };
    };
    const refused = attempt(503, "503");
    const failed = attempt(500, "500");
    const jobs = [job("t-00000", { jobId: "job_a" }, 1_500), job("t-00001", { jobId: "job_b" })];
    const retried = judgeSoak(config, jobs, [refused, { ...created("t-00000", "job_a", T + 1_100) }, created("t-00001", "job_b")]);
    expect(retried.duplicates).toEqual([]);
    expect(retried.maxSubmissionsPerJob).toBe(2);
    const resent = judgeSoak(config, jobs, [failed, created("t-00000", "job_a", T + 1_100), created("t-00001", "job_b")]);
    expect(resent.duplicates).toEqual(["t-00000: submitted again after a 500 answer (fault 500)"]);
  });

  it("counts an error after a created job that neither carries its id nor says it may exist as lost", () => {
    const log = [created("t-00000", "job_a"), created("t-00001", "job_b")];
    const jobs = [
      job("t-00000", { ok: false, kind: "connection", message: "reset" }),
      job("t-00001", { ok: false, kind: "job-may-exist", message: "may exist" }),
    ];
    const r = judgeSoak(config, jobs, log);
    expect(r.lost).toHaveLength(1);
    expect(r.lost[0]).toContain("t-00000");
    // The same error with the job id is not lost, nor an error when no job was created.
    const kept = judgeSoak(
      config,
      [job("t-00000", { ok: false, kind: "deadline", jobId: "job_a" }), job("t-00001", { ok: false, kind: "service" })],
      [created("t-00000", "job_a")],
    );
    expect(kept.lost).toEqual([]);
    expect(kept.wrong).toEqual([]);
    // A submission answered 500 may have been processed: a plain service error for it is lost too, a 503 refusal is not.
    const { jobId: _id, created: _created, ...unprocessed } = created("t-00000", "job_x");
    const service = [job("t-00000", { ok: false, kind: "service", message: "HTTP 500" })];
    expect(judgeSoak({ ...config, jobs: 1 }, service, [{ ...unprocessed, status: 500 }]).lost).toEqual([
      "t-00000: its submission got a 500 answer, the service error neither carries a job id nor says it may exist (HTTP 500)",
    ]);
    expect(judgeSoak({ ...config, jobs: 1 }, service, [{ ...unprocessed, status: 503 }]).lost).toEqual([]);
  });

  it("flags calls past their deadline plus 1 s, and requests after it", () => {
    const log = [created("t-00000", "job_a"), poll("job_a", T + 2_100), created("t-00001", "job_b")];
    const r = judgeSoak(config, [job("t-00000", { jobId: "job_a" }, 2_050), job("t-00001", { jobId: "job_b" }, 1_900)], log);
    expect(r.overruns).toHaveLength(2);
    expect(r.overruns.join("\n")).toContain("t-00000: submit took 2050 ms");
    expect(r.overruns.join("\n")).toContain("GET /latest/job/get/job_a arrived 100 ms after");
    expect(r.maxOverrunMs).toBe(1_050);
  });

  it("extends a call's slack by the stalls of the driver's own process during it, and no more", () => {
    const log = [created("t-00000", "job_a"), created("t-00001", "job_b")];
    const jobs = [job("t-00000", { jobId: "job_a" }, 2_400), job("t-00001", { jobId: "job_b" })];
    // 2,400 ms of a 1,000 ms deadline: 1,400 ms late, 400 ms past the slack.
    expect(judgeSoak(config, jobs, log, [[T + 2_000, 500]]).overruns).toEqual([]);
    expect(judgeSoak(config, jobs, log, [[T + 2_000, 300]]).overruns).toEqual([
      "t-00000: submit took 2400 ms of a 1000 ms deadline (the driver's process stalled 300 ms meanwhile)",
    ]);
    // A stall outside the call does not count.
    expect(judgeSoak(config, jobs, log, [[T + 9_000, 5_000]]).overruns).toHaveLength(1);
  });

  it("flags a request sent again sooner than the Retry-After before it", () => {
    const log = [created("t-00000", "job_a"), poll("job_a", T + 50, "429"), poll("job_a", T + 600), created("t-00001", "job_b")];
    const r = judgeSoak(config, [job("t-00000", { jobId: "job_a" }, 700), job("t-00001", { jobId: "job_b" })], log);
    expect(r.earlyRetries).toEqual(["t-00000: GET /latest/job/get/job_a sent 545 ms after an answer with Retry-After 1"]);
    const patient = [created("t-00000", "job_a"), poll("job_a", T + 50, "503"), poll("job_a", T + 1_060), created("t-00001", "job_b")];
    const r2 = judgeSoak(config, [job("t-00000", { jobId: "job_a" }, 900), job("t-00001", { jobId: "job_b" })], patient);
    expect(r2.earlyRetries).toEqual([]);
  });

  it("flags the token in an error's message", () => {
    const r = judgeSoak({ ...config, jobs: 1 }, [job("t-00000", { ok: false, kind: "service", message: "Bearer svc_sk_x refused" })], []);
    expect(r.wrong).toEqual(["t-00000: the error's message shows the token"]);
  });

  it("flags unreported jobs, results of other jobs, results without payload and unknown errors", () => {
    const log = [created("t-00000", "job_a"), created("t-00001", "job_b"), created("x-1", "job_c")];
    const r = judgeSoak(config, [job("t-00000", { jobId: "job_b", hasData: false })], log);
    expect(r.wrong).toEqual([
      'the mock created job_c for an unknown reference "x-1"',
      "t-00000: result of job_b, the mock created job_a",
      "t-00000: a result without a payload",
      "t-00001: no outcome reported",
    ]);
    const odd = judgeSoak({ ...config, jobs: 1 }, [job("t-00000", { ok: false, kind: "other:TypeError", message: "boom" })], []);
    expect(odd.wrong).toEqual(["t-00000: an error of kind other:TypeError: boom"]);
  });
});
