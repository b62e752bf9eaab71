// Jobs with a simulated duration: the hold, the 202 and polling to completion, failure, immediate acceptance,
// the voice pipeline's queue mode, downloads, and a job that never finishes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../mock/index.js";
import { auth, getJson, jsonStringsOf, pollUntilDone, responseErrors, schemaErrors, sleep, submit, variantBody } from "./helpers.js";

let mock: MockServer;
// The same jobs with a hold far longer than they take: the hold ends when the job does, so a test that expects a
// held answer holds on a busy machine too (a 150 ms hold for a 50 ms job did not, once).
let patient: MockServer;

beforeAll(async () => {
  mock = await startMock({ holdMs: 150, jobDurationMs: 50, maxWaitSeconds: 30 });
  patient = await startMock({ holdMs: 10_000, jobDurationMs: 50, maxWaitSeconds: 30 });
});
afterAll(async () => {
  await mock.stop();
  await patient.stop();
});

const OCR = "service_aiocr___generate";
const ocrBody = () => variantBody(OCR, "us_tax_forms");
const ocrJson = jsonStringsOf(OCR, "us_tax_forms");
const slow = { ...auth(), "x-mock-job-duration-ms": "600" };

describe("hold, 202 and polling", () => {
  it("holds a short job and answers the payload in result", async () => {
    const answer = await submit(patient.url, OCR, ocrBody(), auth(), ocrJson);
    expect(answer.status).toBe(200);
    expect(answer.body.result).toEqual(expect.objectContaining({ pages: expect.any(Array) }));
    expect(responseErrors("addJob", 200, answer.body)).toEqual([]);
  });

  it("answers 202 when the job outlasts the hold, then job/get moves through states to completed", async () => {
    const accepted = await submit(mock.url, OCR, ocrBody(), slow, ocrJson);
    expect(accepted.status).toBe(202);
    expect(responseErrors("addJob", 202, accepted.body)).toEqual([]);
    expect(accepted.body).toMatchObject({
      status: "success",
      client_wait: false,
      max_wait_seconds: 30,
      poll_url: `/job/get/${accepted.body.job_id}`,
    });
    expect(accepted.body.message).toEqual(expect.any(String));

    const { answers, last } = await pollUntilDone(mock.url, String(accepted.body.job_id));
    const states = [...new Set(answers.map((a) => a.body.job_status))];
    expect(states).toContain("running");
    expect(states.at(-1)).toBe("completed");
    for (const a of answers) expect(responseErrors("getJob", 200, a.body)).toEqual([]);
    // service_aiocr___generate gives its payload in job_result after polling, as the IR says.
    expect(last.body.job_result).toEqual(expect.objectContaining({ pages: expect.any(Array) }));
    expect(last.body.result).toBeUndefined();
  });

  it("puts the payload in result after polling for a pipeline whose payloadAfterPolling is result", async () => {
    const accepted = await submit(mock.url, "workflow", variantBody("workflow", "pdf_ai_split"), slow);
    expect(accepted.status).toBe(202);
    const { last } = await pollUntilDone(mock.url, String(accepted.body.job_id));
    expect(last.body.job_status).toBe("completed");
    expect(last.body.result).toEqual(expect.any(Object));
    expect(last.body.job_result).toBeUndefined();
  });

  it("reports a failure status when asked", async () => {
    const accepted = await submit(mock.url, OCR, ocrBody(), { ...slow, "x-mock-job-outcome": "failed" }, ocrJson);
    expect(accepted.status).toBe(202);
    const { last } = await pollUntilDone(mock.url, String(accepted.body.job_id));
    expect(last.body.job_status).toBe("failed");
    expect(last.body.job_result).toBeUndefined();
    expect(responseErrors("getJob", 200, last.body)).toEqual([]);
  });

  it("a job that fails within the hold is handed over to polling", async () => {
    const answer = await submit(mock.url, OCR, ocrBody(), { ...auth(), "x-mock-job-outcome": "failed" }, ocrJson);
    expect(answer.status).toBe(200);
    expect(answer.body.result).toBeUndefined();
    expect(responseErrors("addJob", 200, answer.body)).toEqual([]);
    const { last } = await pollUntilDone(mock.url, String(answer.body.job_id));
    expect(last.body.job_status).toBe("failed");
  });

  it.each([
    ["client_wait=false", { client_wait: false }],
    ["async_only=true", { async_only: true }],
  ])("%s returns job_id and poll_url at once", async (_name, extra) => {
    const answer = await submit(mock.url, OCR, { ...ocrBody(), ...extra }, slow, ocrJson);
    expect(answer.status).toBe(200);
    expect(answer.body.result).toBeUndefined();
    expect(answer.body.poll_url).toBe(`/job/get/${answer.body.job_id}`);
    expect(schemaErrors("JobAcceptedResponse", answer.body)).toEqual([]);
    const first = await getJson(mock.url, String(answer.body.poll_url));
    expect(["queued", "running"]).toContain(first.body.job_status);
  });

  it("a job of another token is not found", async () => {
    const answer = await submit(mock.url, OCR, { ...ocrBody(), client_wait: false }, auth(), ocrJson);
    const other = await getJson(mock.url, `/job/get/${answer.body.job_id}`, auth("svc_sk_someone_else"));
    expect(other.status).toBe(404);
  });
});

describe("voice pipeline", () => {
  it("queue mode (the default priority) answers status queued, then completes by polling", async () => {
    const body = variantBody("service_voice___tts", "default");
    delete body.priority;
    const answer = await submit(mock.url, "service_voice___tts", body);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: "queued", job_id: expect.any(String), message: expect.any(String) });
    expect(schemaErrors("VoiceQueuedResponse", answer.body)).toEqual([]);
    const { last } = await pollUntilDone(mock.url, String(answer.body.job_id));
    expect(last.body.job_status).toBe("completed");
    expect(schemaErrors("VoiceResult", last.body.result)).toEqual([]);
  });

  it("stream mode holds and answers the voice envelope", async () => {
    const answer = await submit(patient.url, "service_voice___tts", {
      ...variantBody("service_voice___tts", "default"),
      priority: "stream",
    });
    expect(answer.status).toBe(200);
    expect(schemaErrors("VoiceEnvelope", answer.body)).toEqual([]);
  });
});

describe("downloads", () => {
  it("results carry working /job/download/<token> URLs of the mock", async () => {
    const answer = await submit(
      mock.url,
      "pdfstudio___unlock_with_password_pdf",
      variantBody("pdfstudio___unlock_with_password_pdf", "default"),
    );
    const result = answer.body.result as { download_url: string; output_files: string[] };
    expect(result.download_url.startsWith(`${mock.url}/job/download/`)).toBe(true);
    expect(result.output_files).toEqual([result.download_url]);
    const file = await fetch(result.download_url, { headers: auth() });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toContain("filename=");
    expect(await file.text()).toContain("%PDF");
    const invalid = await fetch(result.download_url, { headers: auth("bad_token") });
    expect(invalid.status).toBe(401);
    // The description requires bearerAuth on the download as on every call.
    const anonymous = await fetch(result.download_url);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { code: string }).code).toBe("AUTH_REQUIRED");
  });

  it("voice results list the download URL in output_files", async () => {
    const answer = await submit(patient.url, "service_voice___tts", {
      ...variantBody("service_voice___tts", "default"),
      priority: "stream",
    });
    const files = (answer.body.result as { output_files: string[] }).output_files;
    expect((await fetch(files[0]!, { headers: auth() })).status).toBe(200);
  });
});

describe("a job that never finishes", () => {
  it("outlasts the hold and stays running", async () => {
    const answer = await submit(mock.url, OCR, ocrBody(), { ...auth(), "x-mock-fault": "never-finishes" }, ocrJson);
    expect(answer.status).toBe(202);
    await sleep(200);
    const later = await getJson(mock.url, `/job/get/${answer.body.job_id}`);
    expect(later.body.job_status).toBe("running");
    expect(mock.stats.faults["never-finishes"]).toBe(1);
  });
});
