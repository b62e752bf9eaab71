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
    status: 200,
    jobId,
    created: true,
    fields: { pofid: ref },
  };
}
function poll(jobId: string, at: number, fault?: LoggedRequest["fault"]): LoggedRequest {
  return {
    seq: ++seq,
    at,
    method: "GET",
    path: `/latest/job/get/${jobId}`,
    operationId: "getJob",
    status: 200,
    jobId,
    ...(fault && { fault }),
  };
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
    expect([r.duplicates, r.lost, r.overruns, r.wrong]).toEqual([[], [], [], []]);
    expect(r).toMatchObject({ ok: 2, created: 2, faulted: 1, faults: { "503": 1 } });
  });

  it("counts a second job created for one reference as a duplicate submission", () => {
    const log = [created("t-00000", "job_a"), created("t-00000", "job_a2"), created("t-00001", "job_b")];
    const r = judgeSoak(config, [job("t-00000", { jobId: "job_a" }), job("t-00001", { jobId: "job_b" })], log);
    expect(r.duplicates).toEqual(["t-00000: job_a, job_a2"]);
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
  });

  it("flags calls past their deadline plus 1 s, and requests after it", () => {
    const log = [created("t-00000", "job_a"), poll("job_a", T + 2_100), created("t-00001", "job_b")];
    const r = judgeSoak(config, [job("t-00000", { jobId: "job_a" }, 2_050), job("t-00001", { jobId: "job_b" }, 1_900)], log);
    expect(r.overruns).toHaveLength(2);
    expect(r.overruns.join("\n")).toContain("t-00000: submit took 2050 ms");
    expect(r.overruns.join("\n")).toContain("GET /latest/job/get/job_a arrived 100 ms after");
    expect(r.maxOverrunMs).toBe(1_050);
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
