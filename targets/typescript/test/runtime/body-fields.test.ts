// The check before a job submission is sent: a body field that no variant the body may be of takes (a misspelt field)
// is refused with the field, the operation and the pipeline named, and nothing reaches the service. The variants'
// fields are the generated model's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobModel } from "../../../../generated/model.js";
import type { Billing } from "../../../../generated/schemas.js";
import { ServiceError, SdkError } from "../../runtime/index.js";
import { errorClasses, model, SECRET } from "./helpers/model.js";
import { TestRuntime } from "./helpers/runtime.js";
import { sendJson, startServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

function runtime(): TestRuntime<Billing> {
  return new TestRuntime<Billing>(
    { ...model, ...(jobModel.pipelines && { pipelines: jobModel.pipelines }) },
    { baseUrl: server.baseUrl, token: SECRET, pollIntervalMs: { min: 1, max: 3 }, retry: { baseDelayMs: 1, maxDelayMs: 5 } },
    errorClasses,
  );
}

const done = { status: "success", job_id: "j1", job_status: "completed", result: { ok: true } };

async function refusal(call: () => Promise<unknown>): Promise<SdkError> {
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SdkError);
  expect(error).not.toBeInstanceOf(ServiceError);
  return error as SdkError;
}

describe("a job submission's body fields, checked before sending", () => {
  it("refuses a misspelt field of the variant the discriminator chooses, naming it, the operation and the pipeline", async () => {
    server.handle((_req, res) => sendJson(res, 200, done));
    const error = await refusal(() =>
      runtime().submitJob("workflow", { template: "pdf_ai_split", pofid: "POF-1", naming_instructions: "x" }),
    );
    expect(error.message).toBe(
      'addJob: unknown field "naming_instructions" in the body for pipeline "workflow" (template "pdf_ai_split"); nothing was sent. ' +
        'Did you mean "naming_instruction" for "naming_instructions"?',
    );
    expect(server.received).toHaveLength(0);
  });

  it("refuses it in the start function too, and names every unknown field", async () => {
    server.handle((_req, res) => sendJson(res, 200, done));
    const error = await refusal(() => runtime().startJob("service_voice___tts", { text: "Hallo", voice: "anna", gendre: "male", xyz: 1 }));
    expect(error.message).toContain('unknown fields "gendre", "xyz" in the body for pipeline "service_voice___tts"');
    expect(error.message).toContain('"gender" for "gendre"');
    expect(server.received).toHaveLength(0);
  });

  it("refuses a field of another variant than the one chosen", async () => {
    server.handle((_req, res) => sendJson(res, 200, done));
    const error = await refusal(() => runtime().submitJob("workflow", { template: "pdf_ai_split", pofid: "POF-1", model: "basic" }));
    expect(error.message).toContain('"model"');
    expect(server.received).toHaveLength(0);
  });

  it("sends a body of declared fields, one without a discriminator that an open variant may take, and any body of an undescribed pipeline", async () => {
    server.handle((_req, res) => sendJson(res, 200, done));
    const r = runtime();
    await r.submitJob("workflow", { template: "pdf_ai_split", pofid: "POF-1", naming_instruction: "x", client_wait: true });
    await r.submitJob("workflow", { pofid: "POF-1", anything: "goes to the invoice variant" });
    await r.submitJob("service_dataripper___redact_image", { whatever: "its parameters are not shown" });
    await r.submitJob("other___pipeline", { any: "field" });
    // A field left undefined is not sent, so it is not refused either.
    await r.submitJob("service_voice___tts", { text: "Hallo", voice: "anna", gendre: undefined });
    expect(server.received).toHaveLength(5);
  });
});
