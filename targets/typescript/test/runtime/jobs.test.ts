import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AbortedError,
  DeadlineExceededError,
  isFailureStatus,
  isValidPipelineSlug,
  JobFailedError,
  type JobProgress,
  type ServiceError,
} from "../../runtime/index.js";
import { errorClasses, model, runtimeFor } from "./helpers/model.js";
import { formOf, sendJson, startServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const OCR = "service_aiocr___generate";

describe("submitJob", () => {
  it("returns the payload of a 200 within the hold, without polling", async () => {
    server.handle((_req, res) =>
      sendJson(res, 200, {
        status: "success",
        job_id: "j1",
        result: { pages: [1, 2] },
        processing_time: "12ms",
        _billing: { job: { credits_billed: 10 }, remaining_credits: 90 },
      }),
    );
    const job = await runtimeFor(server).submitJob<{ pages: number[] }>(OCR, { model: "premium" });
    expect(job).toMatchObject({ jobId: "j1", data: { pages: [1, 2] }, polls: 0 });
    expect(job.meta.status).toBe(200);
    expect(job.meta.processingTime).toBe("12ms");
    expect(job.meta.billing?.job?.credits_billed).toBe(10);
    expect(job.submitMeta?.billing?.remaining_credits).toBe(90);
    expect(server.received.map((r) => `${r.method} ${r.url}`)).toEqual([`POST /latest/job/add/${OCR}`]);
  });

  it("polls poll_url after a 202 until completed, reports each status change, reads result ?? job_result for OCR too", async () => {
    const statuses = ["queued", "processing", "processing", "completed"];
    server.handle((req, res, index) => {
      if (req.method === "POST") {
        return sendJson(res, 202, {
          status: "success",
          job_id: "j 2",
          poll_url: "/job/get/j2",
          max_wait_seconds: 295,
          client_wait: false,
          message: "hold exceeded",
          processing_time: "295000ms",
          _billing: { job: { credits_billed: 10 } },
        });
      }
      const jobStatus = statuses[index - 1];
      sendJson(res, 200, {
        status: "success",
        job_id: "j 2",
        job_status: jobStatus,
        ...(jobStatus === "completed" ? { job_result: { text: "done" }, result: { other: true } } : {}),
        processing_time: "1ms",
      });
    });
    const progress: JobProgress[] = [];
    const job = await runtimeFor(server).submitJob(OCR, { model: "basic" }, { onProgress: (p) => progress.push(p) });
    // `result ?? job_result` for every pipeline: result wins when the service sends both.
    expect(job.data).toEqual({ other: true });
    expect(job.jobId).toBe("j 2");
    expect(job.polls).toBe(4);
    expect(job.submitMeta?.status).toBe(202);
    expect(job.submitMeta?.billing?.job?.credits_billed).toBe(10);
    expect(progress.map((p) => [p.status, p.previousStatus])).toEqual([
      ["queued", undefined],
      ["processing", "queued"],
      ["completed", "processing"],
    ]);
    expect(server.count("/job/get/j2")).toBe(4);
    expect(server.received).toHaveLength(5);
  });

  it("keeps polling through unknown statuses and reads result first for workflow", async () => {
    server.handle((req, res, index) => {
      if (req.method === "POST") return sendJson(res, 202, { status: "success", job_id: "w1", poll_url: "/job/get/w1" });
      if (index < 3) return sendJson(res, 200, { status: "success", job_status: index === 1 ? "warming_up" : "stage-7" });
      sendJson(res, 200, { status: "success", job_status: "completed", result: { r: 1 }, job_result: { jr: 1 } });
    });
    const job = await runtimeFor(server).submitJob("workflow", { template: "pdf_ai_split" });
    expect(job.data).toEqual({ r: 1 });
    expect(server.count("/job/get/w1")).toBe(3);
  });

  it("ends the wait with JobFailedError carrying the job id on a failure status", async () => {
    for (const failure of ["failed", "error", "cancelled", "canceled", "processing_failed", "USER_CANCEL"]) {
      server.handle((req, res) => {
        if (req.method === "POST") return sendJson(res, 202, { status: "success", job_id: "f1", poll_url: "/job/get/f1" });
        sendJson(res, 200, { status: "success", job_status: failure, message: "the PDF is damaged", processing_time: "3ms" });
      });
      const error = await runtimeFor(server)
        .submitJob(OCR, {})
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JobFailedError);
      const failed = error as JobFailedError;
      expect(failed.jobId).toBe("f1");
      expect(failed.jobStatus).toBe(failure);
      expect(failed.message).toContain("the PDF is damaged");
      expect(failed.processingTime).toBe("3ms");
      expect(server.received).toHaveLength(2);
    }
  });

  it("ends the wait with the typed error of an error body, carrying the job id", async () => {
    server.handle((req, res) => {
      if (req.method === "POST") return sendJson(res, 202, { status: "success", job_id: "e1", poll_url: "/job/get/e1" });
      sendJson(res, 404, { status: "error", code: "NOT_FOUND", message: "no such job", processing_time: "1ms" });
    });
    const error = await runtimeFor(server)
      .submitJob(OCR, {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorClasses.NOT_FOUND);
    expect((error as ServiceError).jobId).toBe("e1");
    expect((error as ServiceError).status).toBe(404);
    expect(server.count("/job/get/e1")).toBe(1);
  });

  it("stops at the deadline mid-poll and sends nothing after it", async () => {
    server.handle((req, res) => {
      if (req.method === "POST") return sendJson(res, 202, { status: "success", job_id: "d1", poll_url: "/job/get/d1" });
      sendJson(res, 200, { status: "success", job_status: "processing" });
    });
    // Seconds, not milliseconds: on a starved machine the submission alone may take longer than a short deadline.
    const intervalMs = 1_000;
    const deadlineMs = 2_500;
    const started = Date.now();
    const error = await runtimeFor(server, { pollIntervalMs: intervalMs })
      .submitJob(OCR, {}, { deadlineMs })
      .catch((e: unknown) => e);
    const ended = Date.now();
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as DeadlineExceededError).jobId).toBe("d1");
    // Idle: polls at about 1 and 2 s, then the wait ends at 2.5 s. Late timers shift them, but polls stay at least
    // half an interval apart, the first one interval after the submission: never more than 3 fit before the deadline.
    const polls = server.count("/job/get/d1");
    expect(polls).toBeGreaterThanOrEqual(1);
    expect(polls).toBeLessThanOrEqual(3);
    expect(ended - started).toBeGreaterThanOrEqual(deadlineMs - 50);
    await new Promise((resolve) => setTimeout(resolve, intervalMs * 1.5));
    expect(server.count("/job/get/d1")).toBe(polls);
    expect(ended - started).toBeLessThan(deadlineMs + 15_000);
  });

  it("stops on abort mid-poll and sends nothing after it", async () => {
    const controller = new AbortController();
    server.handle((req, res, index) => {
      if (req.method === "POST") return sendJson(res, 202, { status: "success", job_id: "a1", poll_url: "/job/get/a1" });
      if (index === 2) controller.abort();
      sendJson(res, 200, { status: "success", job_status: "processing" });
    });
    const error = await runtimeFor(server, { pollIntervalMs: 20 })
      .submitJob(OCR, {}, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect((error as AbortedError).jobId).toBe("a1");
    expect(server.count("/job/get/a1")).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.received).toHaveLength(3);
  });

  it("aborts a poll in flight", async () => {
    const controller = new AbortController();
    server.handle((req, res) => {
      if (req.method === "POST") return sendJson(res, 202, { status: "success", job_id: "a2", poll_url: "/job/get/a2" });
      controller.abort();
      setTimeout(() => sendJson(res, 200, { status: "success", job_status: "processing" }), 50);
    });
    const error = await runtimeFor(server)
      .submitJob(OCR, {}, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect((error as AbortedError).jobId).toBe("a2");
    expect(server.received).toHaveLength(2);
  });

  it("refuses an invalid pipeline slug before sending, with JOB_CONFIG_INVALID", async () => {
    server.handle((_req, res) => sendJson(res, 200, {}));
    for (const slug of ["service.aiocr.generate", "service_aiocr__generate", "a___b___c", "", "two_words", "x/../y"]) {
      const error = await runtimeFor(server)
        .submitJob(slug, {})
        .catch((e: unknown) => e);
      expect(error, slug).toBeInstanceOf(errorClasses.JOB_CONFIG_INVALID);
      expect((error as ServiceError).code).toBe("JOB_CONFIG_INVALID");
      expect((error as ServiceError).status).toBe(400);
    }
    expect(server.received).toHaveLength(0);
  });

  it("submits a pipeline the model does not know (loosely typed) and reads result ?? job_result", async () => {
    server.handle((req, res) => {
      if (req.method === "POST") return sendJson(res, 202, { status: "success", job_id: "n1", poll_url: "/job/get/n1" });
      sendJson(res, 200, { status: "success", job_status: "completed", job_result: { ok: 1 } });
    });
    const job = await runtimeFor(server).submitJob("newhandler___run", { a: 1 });
    expect(job.data).toEqual({ ok: 1 });
  });

  it("follows the voice queue answer (status queued, no poll_url) by polling /job/get/{job_id}", async () => {
    server.handle((req, res) => {
      if (req.method === "POST") return sendJson(res, 200, { status: "queued", job_id: "v1", message: "queued" });
      sendJson(res, 200, { status: "success", job_status: "completed", result: { status: "completed", output_files: ["u"] } });
    });
    const job = await runtimeFor(server).submitJob("service_voice___tts", { text: "hi", voice: "anna" });
    expect(job.data).toEqual({ status: "completed", output_files: ["u"] });
    expect(server.count("/job/get/v1")).toBe(1);
  });
});

describe("startJob and waitJob", () => {
  it("startJob sends client_wait=false and returns a handle at once; waitJob resumes by id", async () => {
    server.handle((req, res, index) => {
      if (req.method === "POST")
        return sendJson(res, 200, { status: "success", job_id: "s1", poll_url: "/job/get/s1", processing_time: "90ms" });
      sendJson(res, 200, index === 1 ? { job_status: "processing" } : { job_status: "completed", job_result: { n: 3 } });
    });
    const runtime = runtimeFor(server);
    const handle = await runtime.startJob(OCR, { model: "basic" });
    expect(handle).toMatchObject({ jobId: "s1", pipeline: OCR, pollUrl: "/job/get/s1" });
    expect(handle.meta.processingTime).toBe("90ms");
    expect(server.received).toHaveLength(1);
    const form = await formOf(server.received[0]!);
    expect(form.get("client_wait")).toBe("false");

    const other = runtimeFor(server);
    const job = await other.waitJob<{ n: number }>("s1", { pipeline: OCR });
    expect(job.data).toEqual({ n: 3 });
    expect(job.polls).toBe(2);
    expect(job.submitMeta).toBeUndefined();
    expect(server.count("/job/get/s1")).toBe(2);
  });

  it("handle.wait polls immediately and reports progress", async () => {
    server.handle((req, res) => {
      if (req.method === "POST") return sendJson(res, 200, { status: "success", job_id: "s2", poll_url: "/job/get/s2" });
      sendJson(res, 200, { job_status: "completed", result: "x" });
    });
    const handle = await runtimeFor(server).startJob("workflow", {});
    const seen: string[] = [];
    const job = await handle.wait<string>({ onProgress: (p) => seen.push(p.status) });
    expect(job.data).toBe("x");
    expect(seen).toEqual(["completed"]);
  });

  it("waitJob with an already spent deadline sends nothing", async () => {
    server.handle((_req, res) => sendJson(res, 200, { job_status: "completed", result: 1 }));
    const controller = new AbortController();
    controller.abort();
    const error = await runtimeFor(server)
      .waitJob("z1", { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect((error as AbortedError).jobId).toBe("z1");
    expect(server.received).toHaveLength(0);
  });
});

describe("slugs and statuses", () => {
  it("accepts <handler>___<command> and single words only", () => {
    for (const ok of ["workflow", "service_aiocr___generate", "pdfstudio___unlock_with_password_pdf", "a-b___c"])
      expect(isValidPipelineSlug(ok, model), ok).toBe(true);
    for (const bad of ["service.aiocr", "a__b", "a____b", "_a___b", "a___b_", "a___b___c", "a b", ""])
      expect(isValidPipelineSlug(bad, model), bad).toBe(false);
  });

  it("treats failed, error, cancelled, canceled and similar as failures, nothing else", () => {
    for (const failure of ["failed", "error", "cancelled", "canceled", "FAILED_OCR", "user_cancel", "errored"])
      expect(isFailureStatus(failure)).toBe(true);
    for (const running of ["queued", "processing", "completed", "pending", "running"]) expect(isFailureStatus(running)).toBe(false);
  });
});
