/**
 * Release pairs: each a small, realistic change to an in-memory copy of the current description, with the rule ids
 * the diff must report (exactly those) and whether the pair breaks clients. No breaking change may be missed and
 * nothing may be reported that the change did not make.
 */
import { describe, expect, it } from "vitest";
import { type Change, locate } from "../../generator/diff/index.js";
import { resolvePointer } from "../../generator/spec/pointer.js";
import { at, base, type Doc, diffChanged } from "./helpers.js";

const S = (name: string, ...rest: (string | number)[]) => ["/components/schemas", name, ...rest].join("/");
const ADD_JOB = "/paths/~1job~1add~1{pipeline}/post";
const EXT = `${ADD_JOB}/x-paperoffice-variants`;
const PIPE = (i: number) => `${EXT}/pipelines/${i}`;
const VARIANT = (p: number, v: number) => `${PIPE(p)}/variants/${v}`;
const AUDIT = "/paths/~1analytics~1audit-center/get";
const MARK = "x-paperoffice-webhook-subscription";
const hook = (d: Doc, action: string) => at(d, `/paths/~1webhooks~1${action}/post`);
const props = (d: Doc, pointer: string) => at(d, `${pointer}/properties`);
const list = (d: Doc, pointer: string) => at(d, pointer) as unknown as unknown[];

interface Pair {
  readonly name: string;
  readonly breaking: boolean;
  readonly variants?: true;
  readonly rules: readonly string[];
  readonly change: (d: Doc) => void;
}

const PAIRS: readonly Pair[] = [
  // ---------------------------------------------------------------- breaking
  {
    name: "a new required field in the subscription body",
    breaking: true,
    rules: ["request.field.required-added"],
    change: (d) => {
      props(d, S("WebhookSubscriptionCreate")).label = { type: "string" };
      list(d, S("WebhookSubscriptionCreate", "required")).push("label");
    },
  },
  {
    name: "a severity filter value removed",
    breaking: true,
    rules: ["request.enum.value-removed"],
    change: (d) => {
      at(d, S("Severity")).enum = ["low", "medium", "high"];
    },
  },
  {
    name: "the audit page size range narrowed",
    breaking: true,
    rules: ["request.range.narrowed"],
    change: (d) => {
      at(d, `${AUDIT}/parameters/0/schema`).maximum = 200;
    },
  },
  {
    name: "a new required query parameter",
    breaking: true,
    rules: ["request.parameter.required-added"],
    change: (d) => {
      list(d, `${AUDIT}/parameters`).push({ name: "tenant", in: "query", required: true, schema: { type: "string" } });
    },
  },
  {
    name: "a query parameter removed",
    breaking: true,
    rules: ["request.parameter.removed"],
    change: (d) => {
      list(d, `${AUDIT}/parameters`).splice(3, 1);
    },
  },
  {
    name: "an operation removed",
    breaking: true,
    rules: ["operation.removed"],
    change: (d) => {
      delete at(d, "/paths")["/webhooks/test"];
    },
  },
  {
    name: "a response field removed",
    breaking: true,
    rules: ["response.field.removed"],
    change: (d) => {
      const stats = at(d, S("ActivityHeatmapResponse", "allOf/1/properties/stats"));
      delete (stats.properties as Doc).avg_per_day;
      stats.required = ["total_documents", "max_per_day", "active_days"];
    },
  },
  {
    name: "a response enum widened (the voice queue status)",
    breaking: true,
    rules: ["response.enum.value-added"],
    change: (d) => {
      props(d, S("VoiceQueuedResponse")).status = { type: "string", enum: ["queued", "pending"] };
    },
  },
  {
    name: "a response field's type changed",
    breaking: true,
    rules: ["response.type.changed"],
    change: (d) => {
      props(d, S("ActivityHeatmapResponse", "allOf/1")).year = { type: "string" };
    },
  },
  {
    name: "a webhook event no longer delivered",
    breaking: true,
    rules: ["webhook.event.removed"],
    change: (d) => {
      delete at(d, "/webhooks")["task.overdue"];
    },
  },
  {
    name: "event data enum widened (delete_mode)",
    breaking: true,
    rules: ["webhook.enum.value-added"],
    change: (d) => {
      props(d, S("DocumentDeletedData")).delete_mode = { type: "string", enum: ["trash", "instant", "archive"] };
    },
  },
  {
    name: "a request media type removed",
    breaking: true,
    rules: ["request.media-type.removed"],
    change: (d) => {
      delete at(d, `${ADD_JOB}/requestBody/content`)["application/x-www-form-urlencoded"];
    },
  },
  {
    name: "an error code's status changed in the catalogue",
    breaking: true,
    rules: ["errors.catalogue.status-changed"],
    change: (d) => {
      const member = (list(d, S("ErrorCode", "oneOf")) as Doc[]).find((m) => m.const === "QUEUE_LIMIT_REACHED")!;
      member["x-http-status"] = 503;
    },
  },
  {
    name: "a new success status",
    breaking: true,
    rules: ["response.status.success-added"],
    change: (d) => {
      at(d, "/paths/~1documents~1document-get~1{pofid}/get/responses")["202"] = { description: "Accepted; still processing." };
    },
  },
  {
    name: "the bearer scheme replaced by basic authentication",
    breaking: true,
    rules: ["security.scheme.changed"],
    change: (d) => {
      at(d, "/components/securitySchemes/bearerAuth").scheme = "basic";
    },
  },
  {
    name: "the delete body now checked as a webhook subscription",
    breaking: true,
    rules: ["request.subscription-check.added"],
    change: (d) => {
      hook(d, "delete")[MARK] = "update";
    },
  },
  {
    name: "the update body now checked as a new subscription",
    breaking: true,
    rules: ["request.subscription-check.create-now"],
    change: (d) => {
      hook(d, "update")[MARK] = "create";
    },
  },
  // ---------------------------------------------------------------- breaking, inside x-paperoffice-variants
  {
    name: "a variant removed",
    breaking: true,
    variants: true,
    rules: ["variants.variant.removed"],
    change: (d) => {
      list(d, `${PIPE(1)}/variants`).splice(1, 1);
    },
  },
  {
    name: "a pipeline removed",
    breaking: true,
    variants: true,
    rules: ["variants.pipeline.removed"],
    change: (d) => {
      list(d, `${EXT}/pipelines`).splice(2, 1);
    },
  },
  {
    name: "a discriminator value renamed",
    breaking: true,
    variants: true,
    rules: ["variants.discriminator.changed"],
    change: (d) => {
      at(d, `${VARIANT(1, 0)}/discriminator`).value = "datev_skr03";
      props(d, S("WorkflowAccountingDatevRequest", "allOf/2")).idp_collection = {
        type: "string",
        enum: ["datev_skr03"],
        default: "datev_skr03",
      };
    },
  },
  {
    name: "the OCR payload moves from job_result to result",
    breaking: true,
    variants: true,
    rules: ["variants.payload-location.changed"],
    change: (d) => {
      at(d, PIPE(0)).payloadAfterPolling = "result";
    },
  },
  {
    name: "a new required field in one variant",
    breaking: true,
    variants: true,
    rules: ["variants.field.required-added"],
    change: (d) => {
      const own = at(d, S("WorkflowPdfAiSplitRequest", "allOf/2"));
      (own.properties as Doc).split_mode = { type: "string", enum: ["documents", "ranges"] };
      own.required = ["split_mode"];
    },
  },
  {
    name: "a variant field becomes JSON text",
    breaking: true,
    variants: true,
    rules: ["variants.json-text.added"],
    change: (d) => {
      props(d, S("WorkflowPdfAiSplitRequest", "allOf/2")).document_types = {
        type: "string",
        contentMediaType: "application/json",
        contentSchema: { type: "array", items: { type: "string" } },
      };
      at(d, VARIANT(1, 2)).jsonStrings = ["document_types"];
    },
  },
  {
    name: "a variant is no longer the server default",
    breaking: true,
    variants: true,
    rules: ["variants.discriminator.default-removed"],
    change: (d) => {
      at(d, `${VARIANT(1, 3)}/discriminator`).serverDefault = false;
    },
  },
  {
    name: "a variant enum value removed (output_format ogg)",
    breaking: true,
    variants: true,
    rules: ["variants.enum.value-removed"],
    change: (d) => {
      (props(d, S("VoiceTtsRequest", "allOf/1")).output_format as Doc).enum = ["mp3", "wav"];
    },
  },
  {
    name: "a variant range narrowed (temperature)",
    breaking: true,
    variants: true,
    rules: ["variants.range.narrowed"],
    change: (d) => {
      (props(d, S("VoiceTtsRequest", "allOf/1")).temperature as Doc).maximum = 0.9;
    },
  },
  {
    name: "a variant field removed",
    breaking: true,
    variants: true,
    rules: ["variants.field.removed"],
    change: (d) => {
      delete props(d, S("WorkflowPdfAiSplitRequest", "allOf/2")).include_reasoning;
    },
  },
  // ---------------------------------------------------------------- not breaking
  {
    name: "a new optional field in the subscription body",
    breaking: false,
    rules: ["request.field.added"],
    change: (d) => {
      props(d, S("WebhookSubscriptionCreate")).label = { type: "string" };
    },
  },
  {
    name: "a severity filter value added",
    breaking: false,
    rules: ["request.enum.value-added"],
    change: (d) => {
      at(d, S("Severity")).enum = ["info", "low", "medium", "high", "critical"];
    },
  },
  {
    name: "the audit page size range widened",
    breaking: false,
    rules: ["request.range.widened"],
    change: (d) => {
      at(d, `${AUDIT}/parameters/0/schema`).maximum = 1000;
    },
  },
  {
    name: "a new optional query parameter",
    breaking: false,
    rules: ["request.parameter.added"],
    change: (d) => {
      list(d, `${AUDIT}/parameters`).push({ name: "since", in: "query", schema: { type: "string", format: "date" } });
    },
  },
  {
    name: "a parameter default changed",
    breaking: false,
    rules: ["request.default.changed"],
    change: (d) => {
      at(d, "/paths/~1analytics~1calendar-due-dates/get/parameters/1/schema").default = false;
    },
  },
  {
    name: "an operation added",
    breaking: false,
    rules: ["operation.added"],
    change: (d) => {
      at(d, "/paths")["/webhooks/deliveries"] = {
        get: {
          operationId: "listWebhookDeliveries",
          responses: { "200": { $ref: "#/components/responses/NotShownSuccess" } },
        },
      };
    },
  },
  {
    name: "a new optional response field",
    breaking: false,
    rules: ["response.field.added"],
    change: (d) => {
      props(d, S("ActivityHeatmapResponse", "allOf/1/properties/stats")).median_per_day = { type: "number" };
    },
  },
  {
    name: "event data enum narrowed",
    breaking: false,
    rules: ["webhook.enum.value-removed"],
    change: (d) => {
      props(d, S("DocumentDeletedData")).delete_mode = { type: "string", enum: ["trash"] };
    },
  },
  {
    name: "a webhook event added",
    breaking: false,
    rules: ["webhook.event.added"],
    change: (d) => {
      at(d, "/webhooks")["document.archived"] = structuredClone(at(d, "/webhooks/document.edited"));
      at(d, "/webhooks/document.archived/post").operationId = "onDocumentArchived";
    },
  },
  {
    name: "an error code added to the catalogue",
    breaking: false,
    rules: ["errors.catalogue.code-added"],
    change: (d) => {
      list(d, S("ErrorCode", "oneOf")).push({ const: "FILE_TOO_LARGE", description: "Upload too large.", "x-http-status": 413 });
    },
  },
  {
    name: "an operation may fail with one more code",
    breaking: false,
    rules: ["errors.operation.code-added"],
    change: (d) => {
      props(d, S("JobBadRequestError", "allOf/1")).code = {
        type: "string",
        enum: ["INVALID_REQUEST", "JOB_CONFIG_INVALID", "INVALID_COORDINATES"],
      };
    },
  },
  {
    name: "an error status added to an operation",
    breaking: false,
    rules: ["errors.operation.code-added", "response.status.added"],
    change: (d) => {
      at(d, "/paths/~1job~1get~1{job_id}/get/responses")["403"] = { $ref: "#/components/responses/Forbidden" };
    },
  },
  {
    name: "a request media type added",
    breaking: false,
    rules: ["request.media-type.added"],
    change: (d) => {
      const content = at(d, "/paths/~1webhooks~1subscribe/post/requestBody/content");
      content["application/x-www-form-urlencoded"] = structuredClone(content["application/json"]);
    },
  },
  {
    name: "an operation deprecated",
    breaking: false,
    rules: ["operation.deprecated"],
    change: (d) => {
      at(d, "/paths/~1webhooks~1delete/post").deprecated = true;
    },
  },
  {
    name: "the subscribe body no longer checked as a webhook subscription",
    breaking: false,
    rules: ["request.subscription-check.removed"],
    change: (d) => {
      delete hook(d, "subscribe")[MARK];
      // Only the create body has a name: the conventions may no longer name a field no marked body has.
      delete at(d, "/x-paperoffice-conventions/webhookSubscription").name;
    },
  },
  {
    name: "the subscribe body checked as an update, with nothing required",
    breaking: false,
    rules: ["request.subscription-check.update-now"],
    change: (d) => {
      hook(d, "subscribe")[MARK] = "update";
    },
  },
  // ---------------------------------------------------------------- not breaking, inside x-paperoffice-variants
  {
    name: "a new variant in the workflow pipeline",
    breaking: false,
    variants: true,
    rules: ["variants.variant.added"],
    change: (d) => {
      const schemas = at(d, "/components/schemas");
      const request = structuredClone(schemas.WorkflowInvoiceRequest) as Doc;
      ((request.allOf as Doc[])[2]!.properties as Doc).idp_collection = { type: "string", enum: ["purchase_order"] };
      schemas.WorkflowPurchaseOrderRequest = request;
      list(d, S("JobAddRequest", "anyOf")).push({ $ref: "#/components/schemas/WorkflowPurchaseOrderRequest" });
      list(d, `${PIPE(1)}/variants`).push({
        name: "purchase_order",
        discriminator: { property: "idp_collection", value: "purchase_order" },
        open: true,
        request: { $ref: "#/components/schemas/WorkflowPurchaseOrderRequest" },
        payload: { $ref: "#/components/schemas/WorkflowPayload" },
      });
    },
  },
  {
    name: "a new pipeline",
    breaking: false,
    variants: true,
    rules: ["variants.pipeline.added"],
    change: (d) => {
      const pipeline = structuredClone(at(d, PIPE(2))) as unknown as Doc;
      pipeline.slug = "pdfstudio___lock_with_password_pdf";
      list(d, `${EXT}/pipelines`).push(pipeline);
    },
  },
  {
    name: "a new optional field in one variant",
    breaking: false,
    variants: true,
    rules: ["variants.field.added"],
    change: (d) => {
      props(d, S("WorkflowPdfAiSplitRequest", "allOf/2")).max_segments = { type: "integer", minimum: 1 };
    },
  },
  {
    name: "a pipeline's base credits changed",
    breaking: false,
    variants: true,
    rules: ["variants.price.base-credits-changed"],
    change: (d) => {
      at(d, PIPE(0)).baseCredits = 12;
    },
  },
  {
    name: "a lane multiplier changed",
    breaking: false,
    variants: true,
    rules: ["variants.price.lane-multiplier-changed"],
    change: (d) => {
      at(d, `${EXT}/pricing/laneMultipliers`).instant = 6;
    },
  },
  {
    name: "a variant enum value added (output_format flac)",
    breaking: false,
    variants: true,
    rules: ["variants.enum.value-added"],
    change: (d) => {
      (props(d, S("VoiceTtsRequest", "allOf/1")).output_format as Doc).enum = ["mp3", "wav", "ogg", "flac"];
    },
  },
  {
    name: "a variant range widened (repetition_penalty)",
    breaking: false,
    variants: true,
    rules: ["variants.range.widened"],
    change: (d) => {
      (props(d, S("VoiceTtsRequest", "allOf/1")).repetition_penalty as Doc).maximum = 2.5;
    },
  },
  {
    name: "a variant field default changed (locale)",
    breaking: false,
    variants: true,
    rules: ["variants.default.changed"],
    change: (d) => {
      (props(d, S("WorkflowPdfAiSplitRequest", "allOf/2")).locale as Doc).default = "en_US";
    },
  },
  {
    name: "a new field in a variant's payload",
    breaking: false,
    variants: true,
    rules: ["variants.payload.field.added"],
    change: (d) => {
      props(d, S("WorkflowInvoicePayload")).pages_summary = { type: "string" };
    },
  },
  {
    name: "an exactly-one group widened with a new input field",
    breaking: false,
    variants: true,
    rules: ["variants.exactly-one.widened", "variants.field.added"],
    change: (d) => {
      const own = at(d, S("WorkflowAccountingDatevRequest", "allOf/2"));
      (own.properties as Doc).source_url = { type: "string", description: "One of `file_1`, `pofid` and `source_url`." };
      (own.oneOf as Doc[]).push({ required: ["source_url"] });
      at(d, VARIANT(1, 0)).exactlyOne = [["file_1", "pofid", "source_url"]];
    },
  },
];

const sorted = (rules: readonly string[]) => [...new Set(rules)].sort();

describe("the release pairs", () => {
  it("are at least 30, half breaking, at least 8 inside the variants extension", () => {
    expect(PAIRS.length).toBeGreaterThanOrEqual(30);
    expect(PAIRS.filter((p) => p.breaking).length).toBeGreaterThanOrEqual(15);
    expect(PAIRS.filter((p) => !p.breaking).length).toBeGreaterThanOrEqual(15);
    expect(PAIRS.filter((p) => p.variants).length).toBeGreaterThanOrEqual(8);
    expect(PAIRS.filter((p) => p.variants && p.rules.every((r) => r.startsWith("variants."))).length).toBe(
      PAIRS.filter((p) => p.variants).length,
    );
  });
});

describe.each(PAIRS.map((p) => [p.name, p] as const))("%s", (_, pair) => {
  let changes: Change[] = [];
  it(`reports exactly ${pair.rules.join(", ")}`, async () => {
    changes = await diffChanged(pair.change);
    expect(sorted(changes.map((c) => c.rule))).toEqual(sorted(pair.rules));
  });
  it(pair.breaking ? "is breaking" : "is not breaking", () => {
    expect(changes.some((c) => c.severity === "breaking")).toBe(pair.breaking);
  });
  it("locates every change in the description it names", async () => {
    const { document: old } = await base();
    for (const c of changes) {
      if (c.in === "old") expect(resolvePointer(old, c.pointer), c.pointer).toBeDefined();
      expect(c.pointer).toBe(c.in === "old" ? locate(old, c.pointer) : c.pointer);
      expect(c.pointer.length, `${c.rule} is located beyond the root`).toBeGreaterThan(0);
    }
  });
});
