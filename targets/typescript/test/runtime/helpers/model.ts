// A service model as the generated client would pass it, written out from the description (its conventions and job
// operations taken from the generated model), and one error class per code, named like the generated ones.
import { serviceModel } from "../../../../../generated/model.js";
import type { Billing } from "../../../../../generated/schemas.js";
import { ServiceError, type ClientOptions, type ServiceErrorClass, type ServiceModel } from "../../../runtime/index.js";
import { TestRuntime } from "./runtime.js";
import type { TestServer } from "./server.js";

export const model: ServiceModel = {
  release: "R20261120.0900",
  descriptionHash: "0".repeat(64),
  errors: {
    INVALID_REQUEST: { status: 400, description: "Missing or invalid parameters." },
    JOB_CONFIG_INVALID: { status: 400, description: "Invalid pipeline slug (dot notation)." },
    INVALID_CURRENCY_CODE: { status: 400 },
    CURRENCY_NOT_AVAILABLE: { status: 400 },
    INVALID_COORDINATES: { status: 400 },
    AUTH_REQUIRED: { status: 401 },
    INVALID_TOKEN: { status: 401 },
    BEARERTOKEN_EXPIRED: { status: 401 },
    INSUFFICIENT_CREDITS: { status: 402 },
    BUDGET_EXHAUSTED: { status: 402 },
    FORBIDDEN: { status: 403 },
    TIER_RESTRICTED: { status: 403 },
    JOB_REQUIRES_PAID_TIER: { status: 403 },
    NOT_FOUND: { status: 404 },
    RATE_LIMIT_EXCEEDED: { status: 429 },
    QUEUE_LIMIT_REACHED: { status: 429 },
    INTERNAL_ERROR: { status: 500 },
    SERVICE_UNAVAILABLE: { status: 503 },
  },
  pipelines: {
    service_aiocr___generate: { payloadAfterPolling: "job_result", baseCredits: 10 },
    workflow: {
      payloadAfterPolling: "result",
      baseCredits: 10,
      jsonStrings: ["idp_fields", "partial_regions", "preview_bounding_boxes", "preview_images", "redact_boxes"],
    },
    pdfstudio___unlock_with_password_pdf: { payloadAfterPolling: "job_result", baseCredits: 10 },
    service_voice___tts: { payloadAfterPolling: "result", baseCredits: 10 },
    service_dataripper___redact_image: { payloadAfterPolling: "job_result", baseCredits: 10 },
  },
  pricing: {
    laneMultipliers: { no_sla: 1, sla_24h: 1.5, sla_12h: 2, sla_6h: 3, sla_1h: 4, instant: 5 },
    defaultLane: "no_sla",
    minimumCharge: 5,
  },
  title: "Document Automation Service",
  servers: [{ url: "https://{host}/latest", variables: { host: { default: "api.example.com" } } }],
  securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
  conventions: {
    basePathSuffix: "/latest",
    tokens: {
      scheme: "bearerAuth",
      brand: "svc_",
      kinds: [
        { prefix: "sk_", name: "secret", serverOnly: true },
        { prefix: "ut_", name: "user", serverOnly: true },
        { prefix: "gt_", name: "gt" },
        { prefix: "pk_", name: "publishable" },
      ],
      renewOn: ["INVALID_TOKEN", "BEARERTOKEN_EXPIRED"],
    },
    ...(serviceModel.conventions?.envelope && { envelope: serviceModel.conventions.envelope }),
    ...(serviceModel.conventions?.form && { form: serviceModel.conventions.form }),
  },
  ...(serviceModel.jobs && { jobs: serviceModel.jobs }),
};

function className(code: string): string {
  return `${code
    .toLowerCase()
    .split("_")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("")}Error`;
}

export const errorClasses: Record<string, ServiceErrorClass> = Object.fromEntries(
  Object.keys(model.errors!).map((code) => {
    const ErrorClass = class extends ServiceError {};
    Object.defineProperty(ErrorClass, "name", { value: className(code) });
    return [code, ErrorClass];
  }),
);

export const SECRET = "svc_sk_live_0123456789abcdef";

/**
 * A runtime against the test server with tiny poll intervals and backoff so that tests run fast; its answers' billing
 * typed with the description's schema, as the generated client types it.
 */
export function runtimeFor(server: TestServer, options: Partial<ClientOptions> = {}): TestRuntime<Billing> {
  return new TestRuntime<Billing>(
    model,
    { baseUrl: server.baseUrl, token: SECRET, pollIntervalMs: { min: 1, max: 3 }, retry: { baseDelayMs: 1, maxDelayMs: 5 }, ...options },
    errorClasses,
  );
}
