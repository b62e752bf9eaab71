// Type-level tests of the generated client: what must compile does, and every combination that must not
// compile is marked @ts-expect-error (tsc fails on an expectation that no longer errors).
import { describe, expectTypeOf, it } from "vitest";
import {
  type AddJobCommonFields,
  addJob,
  type Billing,
  type components,
  createClient,
  getAuditCenter,
  getJob,
  type JobResult,
  startAddJob,
  waitJob,
  subscribeWebhook,
  type ServiceVoiceTtsRequest,
  type WorkflowDocumentAnonymizeFinalizeRequest,
  type WorkflowPdfAiSplitRequest,
} from "../../generated/index.js";
import { verify, type WebhookEvent } from "../../generated/webhooks.js";

const client = createClient({ baseUrl: "https://api.example.com/latest", token: "svc_sk_test" });
const pdf = new Blob(["%PDF-1.4"], { type: "application/pdf" });
type Payload<Name extends keyof components["schemas"]> = components["schemas"][Name];

describe("answers' meta: billing typed with the description's billing schema", () => {
  it("narrows meta.billing of calls, jobs and handles to the generated Billing type", () => {
    type Meta = Awaited<ReturnType<typeof getAuditCenter>>["meta"];
    expectTypeOf<Meta["billing"]>().toEqualTypeOf<Billing | undefined>();
    type JobMeta = Awaited<ReturnType<typeof startAddJob>>["meta"];
    expectTypeOf<JobMeta["billing"]>().toEqualTypeOf<Billing | undefined>();
    expectTypeOf<Billing>().toEqualTypeOf<components["schemas"]["Billing"]>();
    expectTypeOf<NonNullable<NonNullable<NonNullable<Meta["billing"]>["job"]>["credits_billed"]>>().toEqualTypeOf<number>();
  });

  it("keeps the narrowed billing on a copy made with withOptions", () => {
    const copy = client.withOptions({ retry: { maxRetries: 0 } });
    expectTypeOf(copy).toEqualTypeOf(client);
    expectTypeOf(getAuditCenter(copy, { limit: 1 })).toEqualTypeOf<ReturnType<typeof getAuditCenter>>();
  });
});

describe("job submission: one signature per pipeline, exact variant unions", () => {
  it("accepts each variant with its discriminator and types the payload per variant", () => {
    expectTypeOf(addJob(client, "workflow", { template: "pdf_ai_split", file: pdf })).toEqualTypeOf<
      Promise<JobResult<Payload<"WorkflowPayload">, Billing>>
    >();
    expectTypeOf(addJob(client, "workflow", { idp_collection: "invoice", anything: 1 })).toEqualTypeOf<
      Promise<JobResult<Payload<"WorkflowInvoicePayload">, Billing>>
    >();
    expectTypeOf(
      addJob(client, "service_aiocr___generate", { idp_collection: "us_tax_forms", file_1: pdf, model: "premium" }),
    ).toEqualTypeOf<Promise<JobResult<Payload<"OcrPayload">, Billing>>>();
    expectTypeOf(addJob(client, "service_voice___tts", { text: "Hallo (happy)", voice: "anna", priority: "stream" })).toEqualTypeOf<
      Promise<JobResult<Payload<"VoiceResult">, Billing>>
    >();
    addJob(client, "workflow", {
      template: "document_anonymize_finalize",
      preview_images: ["https://x/1.png"],
      preview_bounding_boxes: [],
      redact_boxes: [],
    });
    addJob(client, "workflow", {
      idp_collection: "accounting_datev",
      pofid: "POF-1",
      model: "ultra",
      idp_fields: ["iban"],
      processing_lane: "sla_1h",
    });
    addJob(client, "pdfstudio___unlock_with_password_pdf", { files: [pdf, new Uint8Array([1])], password: "secret" });
    startAddJob(client, "service_dataripper___redact_image", { any_field: true });
  });

  it("refuses a field of another variant", () => {
    // @ts-expect-error preview_images belongs to document_anonymize_finalize, not to pdf_ai_split
    addJob(client, "workflow", { template: "pdf_ai_split", file: pdf, preview_images: ["https://x/1.png"] });
  });

  it("refuses a discriminator of another pipeline or an unknown one", () => {
    // @ts-expect-error accounting_datev is a workflow variant, not an OCR one
    addJob(client, "service_aiocr___generate", { idp_collection: "accounting_datev", file_1: pdf, model: "premium" });
    // @ts-expect-error no variant has this template
    addJob(client, "workflow", { template: "pdf_ai_splitter", file: pdf });
    // @ts-expect-error the discriminator is required even where the server has a default
    addJob(client, "workflow", { file: pdf });
  });

  it("makes 'exactly one of' exact", () => {
    // @ts-expect-error both file_1 and pofid
    addJob(client, "workflow", { idp_collection: "accounting_datev", file_1: pdf, pofid: "POF-1", model: "premium" });
    // @ts-expect-error neither file_1 nor pofid
    addJob(client, "workflow", { idp_collection: "accounting_datev", model: "premium" });
    // @ts-expect-error both file and pofid
    addJob(client, "workflow", { template: "pdf_ai_split", file: pdf, pofid: "POF-1" });
  });

  it("refuses values outside an enum, missing required fields and misspelt fields", () => {
    // @ts-expect-error "mega" is not a model tier
    addJob(client, "service_aiocr___generate", { idp_collection: "us_tax_forms", file_1: pdf, model: "mega" });
    // @ts-expect-error "sla_2h" is not a processing lane
    addJob(client, "workflow", { template: "pdf_ai_split", pofid: "POF-1", processing_lane: "sla_2h" });
    // @ts-expect-error model is required
    addJob(client, "service_aiocr___generate", { idp_collection: "us_tax_forms", file_1: pdf });
    // @ts-expect-error voice is required
    addJob(client, "service_voice___tts", { text: "Hallo" });
    // @ts-expect-error the voice pipeline's priority is queue or stream, not a number
    addJob(client, "service_voice___tts", { text: "Hallo", voice: "anna", priority: 900 });
    // @ts-expect-error naming_instructions is a misspelling of naming_instruction
    addJob(client, "workflow", { template: "pdf_ai_split", pofid: "POF-1", naming_instructions: "x" });
    // @ts-expect-error an unknown pipeline needs the runtime's loosely typed submit
    addJob(client, "no_such___pipeline", {});
  });
});

describe("job submission: the fields every variant shares, declared once", () => {
  it("gives every variant the shared fields, each variant still exact", () => {
    const common: AddJobCommonFields = { client_wait: false, async_only: true, processing_lane: "instant", priority: 5 };
    const split: WorkflowPdfAiSplitRequest = { ...common, template: "pdf_ai_split", pofid: "POF-1" };
    expectTypeOf(split.client_wait).toEqualTypeOf<boolean | undefined>();
    addJob(client, "workflow", { template: "pdf_ai_split", file: pdf, client_wait: false, processing_lane: "sla_6h", priority: 1 });
    addJob(client, "pdfstudio___unlock_with_password_pdf", { files: [pdf], password: "p", async_only: true, priority: 3 });
    // @ts-expect-error a wrong field beside the shared ones: preview_images is document_anonymize_finalize's
    const wrong: WorkflowPdfAiSplitRequest = { ...common, template: "pdf_ai_split", pofid: "POF-1", preview_images: [] };
    // @ts-expect-error a shared field of the wrong type
    addJob(client, "workflow", { template: "pdf_ai_split", file: pdf, client_wait: "no" });
    // @ts-expect-error a misspelt shared field
    addJob(client, "workflow", { template: "pdf_ai_split", file: pdf, client_wiat: false });
    void wrong;
  });

  it("keeps a variant's own form of a shared field in place of the shared one", () => {
    expectTypeOf<ServiceVoiceTtsRequest["priority"]>().not.toEqualTypeOf<AddJobCommonFields["priority"]>();
    expectTypeOf<ServiceVoiceTtsRequest["client_wait"]>().toEqualTypeOf<AddJobCommonFields["client_wait"]>();
    expectTypeOf<WorkflowDocumentAnonymizeFinalizeRequest["processing_lane"]>().toEqualTypeOf<AddJobCommonFields["processing_lane"]>();
    // @ts-expect-error the voice pipeline's priority stays queue or stream, the shared number does not leak in
    const voice: ServiceVoiceTtsRequest = { text: "Hallo", voice: "anna", priority: 5 };
    void voice;
  });
});

describe("job submission: the trailing arguments, and waiting for a pipeline's job", () => {
  it("takes the options and nothing after them, whatever the body", () => {
    // @ts-expect-error a fifth argument, even one spelling the unknown field, is one argument too many
    addJob(client, "workflow", { template: "pdf_ai_split", pofid: "POF-1", extra: 1 }, undefined, "unknown field: extra");
    // @ts-expect-error the same for the start function
    startAddJob(client, "workflow", { template: "pdf_ai_split", pofid: "POF-1", extra: 1 }, undefined, "unknown field: extra");
    // @ts-expect-error and for an exact body
    addJob(client, "workflow", { template: "pdf_ai_split", pofid: "POF-1" }, undefined, "unknown field: extra");
  });

  it("types waitJob's payload by the pipeline it is given, and leaves it unknown without one", async () => {
    const speech = await waitJob(client, "job-1", { pipeline: "service_voice___tts" });
    expectTypeOf(speech.data).toEqualTypeOf<Payload<"VoiceResult">>();
    expectTypeOf(speech).toEqualTypeOf<JobResult<Payload<"VoiceResult">, Billing>>();
    const workflow = await waitJob(client, "job-2", { pipeline: "workflow", deadlineMs: 1000 });
    expectTypeOf(workflow.data).toEqualTypeOf<Payload<"WorkflowPayload"> | Payload<"WorkflowInvoicePayload">>();
    const any = await waitJob(client, "job-3");
    expectTypeOf(any.data).toEqualTypeOf<unknown>();
    // @ts-expect-error not a pipeline of the description
    waitJob(client, "job-4", { pipeline: "no_such___pipeline" });
  });

  it("keeps the payload of a slug known only as a union of pipelines", async () => {
    const slug = "service_voice___tts" as "service_voice___tts" | "pdfstudio___unlock_with_password_pdf";
    const either = await addJob(client, slug, { text: "Hallo", voice: "anna" });
    // The body fits the voice pipeline only, so the payload is the voice pipeline's.
    expectTypeOf(either.data).toEqualTypeOf<Payload<"VoiceResult">>();
  });
});

describe("other operations", () => {
  it("types parameters and responses from the description", async () => {
    const job = await getJob(client, { job_id: "j1" });
    expectTypeOf(job.data.job_status).toEqualTypeOf<string>();
    expectTypeOf(job.meta.status).toEqualTypeOf<number>();
    // @ts-expect-error job_id is required
    getJob(client, {});
    await getAuditCenter(client, { limit: 10, severity: "high" });
    // @ts-expect-error "urgent" is not a severity
    getAuditCenter(client, { severity: "urgent" });
    const created = await subscribeWebhook(client, { name: "n", url: "https://hooks.example.com/x", events: ["job.completed", "*"] });
    expectTypeOf(created.data.secret).toEqualTypeOf<string | undefined>();
    // @ts-expect-error not an event name
    subscribeWebhook(client, { name: "n", url: "https://hooks.example.com/x", events: ["job.finished"] });
  });
});

describe("webhooks", () => {
  it("narrows the event union on event_type", async () => {
    const verified = await verify("{}", {}, "secret");
    if (verified.known) {
      const event = verified.event;
      expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
      if (event.event_type === "document.processed") expectTypeOf(event.data.processing_result.confidence).toEqualTypeOf<number>();
    }
  });
});
