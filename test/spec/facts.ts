/**
 * The facts of the interface specification (the text the description was written from), written down by hand.
 * Nothing here is read from a description: when the description and this table disagree, one of them is wrong,
 * and the table is checked against the text, never against the YAML.
 *
 * Where the text says "not shown", the table says nothing (or marks the place as open).
 */

/** A value type as the text names it. `file` is an upload part, `files` an array of them, `json` a JSON text in a form field. */
export type FieldType = "string" | "integer" | "number" | "boolean" | "object" | "array" | "file" | "files" | "json";

export interface Field {
  readonly type?: FieldType | readonly FieldType[];
  readonly required?: boolean;
  /** The default the text states. */
  readonly default?: unknown;
  /** The text states that there is no fixed default (derived from elsewhere, or automatic). */
  readonly noDefault?: true;
  /** The complete list of allowed values. */
  readonly values?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
}

/** A response or body field tree: names with, where the text gives them, types and nested fields. */
export interface Shape {
  readonly type?: FieldType | readonly FieldType[];
  readonly fields?: Fields;
  /** The text lists every field of this object: no others may be described. */
  readonly exact?: true;
  /** The fields the text says are always there. */
  readonly required?: readonly string[];
  readonly items?: Shape;
  /** Type of the values of a map (an object keyed by arbitrary names). */
  readonly values?: Shape;
  readonly values_of?: readonly unknown[];
  readonly pattern?: { readonly accepts: readonly string[]; readonly rejects: readonly string[] };
  readonly format?: string;
}
export type Fields = Readonly<Record<string, Shape>>;

const any: Shape = {};
const str: Shape = { type: "string" };
const int: Shape = { type: "integer" };
const num: Shape = { type: "number" };
const bool: Shape = { type: "boolean" };
const arr: Shape = { type: "array" };

// ---------------------------------------------------------------- versioning, servers, security

/** Versioning 2: each release has an identifier of the form R<yyyymmdd>.<hhmm>, held in info.version. */
export const RELEASE_ID_FORM = /^R\d{8}\.\d{4}$/;
/** Versioning 3. */
export const OPENAPI_VERSION_PREFIX = "3.1";
/** Endpoints: {base_url} includes the version prefix /latest; Versioning 1. */
export const BASE_URL_SUFFIX = "/latest";
/** Authentication 1: every call carries `Authorization: Bearer <TOKEN>`. */
export const SECURITY = { type: "http", scheme: "bearer" } as const;
/** Versioning 4. */
export const VARIANTS_EXTENSION = "x-paperoffice-variants";

// ---------------------------------------------------------------- endpoints

export type Method = "get" | "post";

export interface Endpoint {
  readonly path: string;
  readonly method: Method;
  /** The operation's name in the SDK. The text names no operations; these are the public method names, pinned here. */
  readonly operationId: string;
  readonly pathParams: readonly string[];
}

/** Every endpoint the text shows with a path; the other sections are "listed by section only". */
export const ENDPOINTS: readonly Endpoint[] = [
  { path: "/job/add/{pipeline}", method: "post", operationId: "addJob", pathParams: ["pipeline"] },
  { path: "/job/get/{job_id}", method: "get", operationId: "getJob", pathParams: ["job_id"] },
  { path: "/job/download/{token}", method: "get", operationId: "downloadJobFile", pathParams: ["token"] },
  { path: "/documents/document-get/{pofid}", method: "get", operationId: "getDocument", pathParams: ["pofid"] },
  { path: "/analytics/activity-document", method: "get", operationId: "getActivityDocument", pathParams: [] },
  { path: "/analytics/activity-heatmap", method: "get", operationId: "getActivityHeatmap", pathParams: [] },
  { path: "/analytics/activity-users", method: "get", operationId: "getActivityUsers", pathParams: [] },
  { path: "/analytics/audit-center", method: "get", operationId: "getAuditCenter", pathParams: [] },
  { path: "/analytics/calendar-due-dates", method: "get", operationId: "getCalendarDueDates", pathParams: [] },
  { path: "/analytics/contact-stats", method: "get", operationId: "getContactStats", pathParams: [] },
  { path: "/analytics/contact-stats-financial", method: "get", operationId: "getContactStatsFinancial", pathParams: [] },
  { path: "/webhooks/subscribe", method: "post", operationId: "subscribeWebhook", pathParams: [] },
  { path: "/webhooks/list", method: "get", operationId: "listWebhooks", pathParams: [] },
  { path: "/webhooks/update", method: "post", operationId: "updateWebhook", pathParams: [] },
  { path: "/webhooks/delete", method: "post", operationId: "deleteWebhook", pathParams: [] },
  { path: "/webhooks/test", method: "post", operationId: "testWebhook", pathParams: [] },
];

export const JOB_ADD = "/job/add/{pipeline}";
export const JOB_GET = "/job/get/{job_id}";
export const JOB_DOWNLOAD = "/job/download/{token}";

/** Request encoding: multipart by default, urlencoded accepted, JSON not accepted on job submission. */
export const JOB_ADD_MEDIA_TYPES = ["multipart/form-data", "application/x-www-form-urlencoded"] as const;
/** Webhook management: subscribe takes a JSON body. */
export const SUBSCRIBE_MEDIA_TYPE = "application/json";

/** Query parameters of the document read. */
export const DOCUMENT_GET_QUERY: Readonly<Record<string, Field>> = {
  share_context: { type: "string", required: false },
};

// ---------------------------------------------------------------- job submission: common parameters, lanes, models

export const PROCESSING_LANES = ["no_sla", "sla_24h", "sla_12h", "sla_6h", "sla_1h", "instant"] as const;
export const LANE_MULTIPLIERS: Readonly<Record<(typeof PROCESSING_LANES)[number], number>> = {
  no_sla: 1,
  sla_24h: 1.5,
  sla_12h: 2,
  sla_6h: 3,
  sla_1h: 4,
  instant: 5,
};
/** "Stated base cost of the listed jobs is 10 credits at no_sla". */
export const BASE_CREDITS = 10;
/** General rule 4 and Limits: every billable call costs at least 5 credits. */
export const MINIMUM_CHARGE = 5;
export const DEFAULT_LANE = "no_sla";
export const LANE_FIELD = "processing_lane";

export const MODEL_TIERS = [
  "basic",
  "basic-pro",
  "basic-pro-max",
  "premium",
  "premium-pro",
  "premium-pro-max",
  "ultra",
  "ultra-pro",
  "ultra-pro-max",
] as const;

/** Common parameters of job submission. */
const common = {
  priority: { type: "integer", required: false },
  client_wait: { type: "boolean", required: false, default: true },
  async_only: { type: "boolean", required: false, default: false },
  // "If omitted: the workspace default_processing_lane, else no_sla": no fixed default.
  processing_lane: { type: "string", required: false, values: PROCESSING_LANES, noDefault: true },
} as const satisfies Record<string, Field>;

const model: Field = { type: "string", required: true, values: MODEL_TIERS, default: "premium" };

// ---------------------------------------------------------------- pipelines and variants

export interface Variant {
  readonly name: string;
  /** The body field and value that choose the variant (absent for a pipeline's single `default` variant). */
  readonly discriminator?: { readonly property: string; readonly value: string };
  /** Parameters not shown: the request stays open. */
  readonly open?: true;
  /** Every field of the request (for a variant that is not open, no other may be described). */
  readonly fields: Readonly<Record<string, Field>>;
  readonly exactlyOne: readonly (readonly string[])[];
  readonly jsonStrings: readonly string[];
  /** Fields of the finished payload the text shows. */
  readonly payload?: Fields;
}

export interface Pipeline {
  readonly slug: string;
  /** Where the finished payload is read after polling. */
  readonly payloadAfterPolling: "result" | "job_result";
  readonly baseCredits: number;
  readonly variants: readonly Variant[];
}

const ocrPayload: Fields = { pages: arr, output: { type: "object", fields: { pages: arr } } };
const invoicePages: Shape = { fields: { _supplier_name: any, _total_amount: any } };

export const PIPELINES: readonly Pipeline[] = [
  {
    slug: "service_aiocr___generate",
    payloadAfterPolling: "job_result", // "Result is read from job_result after polling."
    baseCredits: BASE_CREDITS,
    variants: [
      {
        name: "us_tax_forms",
        discriminator: { property: "idp_collection", value: "us_tax_forms" },
        fields: {
          ...common,
          file_1: { type: "file", required: true },
          model,
          idp_collection: { type: "string", required: false, default: "us_tax_forms" },
          idp_fields: { type: "json", required: false },
        },
        exactlyOne: [],
        jsonStrings: ["idp_fields"],
        payload: ocrPayload,
      },
    ],
  },
  {
    slug: "workflow",
    payloadAfterPolling: "result", // "Completed payload stays in result when polling."
    baseCredits: BASE_CREDITS,
    variants: [
      {
        name: "accounting_datev",
        discriminator: { property: "idp_collection", value: "accounting_datev" },
        fields: {
          ...common,
          file_1: { type: "file", required: false },
          pofid: { type: "string", required: false },
          model,
          idp_collection: { type: "string", required: false, default: "accounting_datev" },
          idp_fields: { type: "json", required: false },
        },
        exactlyOne: [["file_1", "pofid"]],
        jsonStrings: ["idp_fields"],
      },
      {
        // "For idp_collection=invoice the workflow payload contains pages_idp and pages_aiocr"; its parameters are not shown.
        name: "invoice",
        discriminator: { property: "idp_collection", value: "invoice" },
        open: true,
        fields: {},
        exactlyOne: [],
        jsonStrings: [],
        payload: { pages_idp: invoicePages, pages_aiocr: invoicePages },
      },
      {
        name: "pdf_ai_split",
        discriminator: { property: "template", value: "pdf_ai_split" },
        fields: {
          ...common,
          file: { type: "file", required: false },
          pofid: { type: "string", required: false },
          template: { type: "string", required: false, default: "pdf_ai_split" },
          naming_instruction: { type: "string", required: false },
          locale: { type: "string", required: false, default: "de_DE" },
          document_types: { type: "string", required: false },
          date_format: { type: "string", required: false, default: "DD.MM.YYYY" },
          include_document_type: { type: "string", required: false, default: "false" },
          include_date: { type: "string", required: false, default: "false" },
          include_sender: { type: "string", required: false, default: "false" },
          include_reasoning: { type: "string", required: false, default: "false" },
        },
        exactlyOne: [["file", "pofid"]],
        jsonStrings: [],
      },
      {
        name: "document_anonymize_finalize",
        discriminator: { property: "template", value: "document_anonymize_finalize" },
        fields: {
          ...common,
          // "The anonymization finalize page describes priority as 1 to 900, plan default when omitted".
          priority: { type: "integer", required: false, minimum: 1, maximum: 900, noDefault: true },
          template: { type: "string", required: false, values: ["document_anonymize_finalize"] },
          preview_images: { type: "json", required: true },
          preview_bounding_boxes: { type: "json", required: true },
          redact_boxes: { type: "json", required: true },
          partial_regions: { type: "json", required: false },
        },
        exactlyOne: [],
        jsonStrings: ["preview_images", "preview_bounding_boxes", "redact_boxes", "partial_regions"],
      },
    ],
  },
  {
    slug: "pdfstudio___unlock_with_password_pdf",
    payloadAfterPolling: "job_result",
    baseCredits: BASE_CREDITS, // "Base cost 10 credits."
    variants: [
      {
        name: "default",
        fields: { ...common, files: { type: "files", required: true }, password: { type: "string", required: true } },
        exactlyOne: [],
        jsonStrings: [],
      },
    ],
  },
  {
    slug: "service_voice___tts",
    payloadAfterPolling: "result", // Voice result sits inside `result`.
    baseCredits: BASE_CREDITS,
    variants: [
      {
        name: "default",
        fields: {
          client_wait: common.client_wait,
          async_only: common.async_only,
          processing_lane: common.processing_lane,
          text: { type: "string", required: true },
          voice: { type: "string", required: true },
          language: { type: "string", required: false, noDefault: true },
          output_format: { type: "string", required: false, values: ["mp3", "wav", "ogg"], default: "mp3" },
          // "In this pipeline priority takes these words, not a number".
          priority: { type: "string", required: false, values: ["queue", "stream"], default: "queue" },
          return_url: { type: "boolean", required: false, default: false },
          gpu: { required: false, values: [0, 1], noDefault: true },
          speed: { type: "number", required: false, default: 1.0 },
          temperature: { type: "number", required: false, minimum: 0.1, maximum: 1.0, default: 0.95 },
          top_p: { type: "number", required: false, minimum: 0.1, maximum: 1.0, default: 0.85 },
          repetition_penalty: { type: "number", required: false, minimum: 0.9, maximum: 1.99, default: 1.0 },
          reference_voice: { type: "string", required: false },
          voice_type: { type: "string", required: false, values: ["base", "standard", "premium"], default: "base" },
          gender: { type: "string", required: false, values: ["male", "female"] },
          return_base64: { type: "boolean", required: false, default: false },
        },
        exactlyOne: [],
        jsonStrings: [],
      },
    ],
  },
  {
    slug: "service_dataripper___redact_image",
    payloadAfterPolling: "job_result",
    baseCredits: BASE_CREDITS,
    // "its parameters: not shown"
    variants: [{ name: "default", open: true, fields: {}, exactlyOne: [], jsonStrings: [] }],
  },
];

/** Every structured value that travels as a JSON text in a form field. */
export const JSON_STRING_FIELDS = ["idp_fields", "preview_images", "preview_bounding_boxes", "redact_boxes", "partial_regions"] as const;

// ---------------------------------------------------------------- job responses

/** Resources: Job. Every field of the job resource, found across the job submission and polling answers. */
export const JOB_ENVELOPE: Fields = {
  job_id: str,
  job_status: str,
  result: { type: "object" },
  job_result: { type: "object" },
  poll_url: { type: "string", pattern: { accepts: ["/job/get/abc123"], rejects: [] } },
  client_wait: bool,
  max_wait_seconds: int,
  message: str,
  async: bool,
};

/** Response of job submission, by case. */
export const JOB_ADD_FINISHED_REQUIRED = ["status", "job_id", "result", "processing_time"] as const;
export const JOB_ADD_HOLD_EXCEEDED_REQUIRED = [
  "status",
  "job_id",
  "poll_url",
  "max_wait_seconds",
  "client_wait",
  "message",
  "processing_time",
] as const;
export const JOB_ADD_IMMEDIATE_REQUIRED = ["job_id", "poll_url"] as const;

/** Voice result (inside `result`): every field. */
export const VOICE_RESULT: Shape = {
  exact: true,
  fields: {
    status: { values_of: ["completed"] },
    audio_base64: str,
    output_files: { type: "array", items: str },
    duration_ms: str,
    audio_duration_seconds: num,
    text_length: int,
    message: str,
    processing_time_seconds: num,
    processing_ratio: { type: "string", pattern: { accepts: ["1:12.5", "1:3"], rejects: ["12.5"] } },
    real_time_factor: num,
  },
};
/** "The envelope around it: job_id, message, operation, pipeline, processing_time, result, status." (plus the optional _billing of rule 5) */
export const VOICE_ENVELOPE_FIELDS = ["job_id", "message", "operation", "pipeline", "processing_time", "result", "status"] as const;
/** "Queue mode answers job_id, message, status=queued". */
export const VOICE_QUEUED_FIELDS = ["job_id", "message", "status"] as const;

// ---------------------------------------------------------------- billing

const window: Shape = { exact: true, fields: { second: int, minute: int, hour: int, day: int } };

/** The complete `_billing` object ("All are integers unless named as text"). */
export const BILLING: Shape = {
  type: "object",
  exact: true,
  fields: {
    credits: {
      exact: true,
      fields: {
        total_monthly: int,
        remaining_monthly: int,
        credit_source: any,
        api_handler: any,
        tier_info: {
          exact: true,
          fields: { tier: any, name: any, initial_credits: int, price_monthly: int, price_overage_per_credit: int },
        },
        notice: any,
        renewal_days: int,
        subscription_status: any,
      },
    },
    job: {
      exact: true,
      fields: {
        api_job_name: any,
        app: any,
        action: any,
        default_credits: int,
        token: any,
        credits_billed: int,
        pricing: { exact: true, fields: { credits_per_unit: int, unit: any, unit_count: int, addons: any } },
      },
    },
    requests: {
      exact: true,
      fields: { limits: window, current: window, remaining: window, next_possible_request_seconds: int },
    },
    remaining_credits: int,
    total_monthly: int,
    account_id: int,
    plan: { exact: true, fields: { tier: any, name: any } },
    credits_billed: int,
  },
};

// ---------------------------------------------------------------- errors

/** Errors: every code with its HTTP status. */
export const ERROR_CODES: Readonly<Record<string, number>> = {
  INVALID_REQUEST: 400,
  JOB_CONFIG_INVALID: 400,
  INVALID_CURRENCY_CODE: 400,
  CURRENCY_NOT_AVAILABLE: 400,
  INVALID_COORDINATES: 400,
  AUTH_REQUIRED: 401,
  INVALID_TOKEN: 401,
  BEARERTOKEN_EXPIRED: 401,
  INSUFFICIENT_CREDITS: 402,
  BUDGET_EXHAUSTED: 402,
  FORBIDDEN: 403,
  TIER_RESTRICTED: 403,
  JOB_REQUIRES_PAID_TIER: 403,
  NOT_FOUND: 404,
  RATE_LIMIT_EXCEEDED: 429,
  QUEUE_LIMIT_REACHED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};
/** Error body: status=error, code, message, processing_time. */
export const ERROR_BODY_FIELDS = ["status", "code", "message", "processing_time"] as const;
/** The voice pipeline error body: status, message, pipeline, processing_time, no code. */
export const VOICE_ERROR_FIELDS = ["status", "message", "pipeline", "processing_time"] as const;
/** Codes job submission answers at 400: missing or invalid parameters, and dot notation in the slug. */
export const JOB_ADD_400_CODES = ["INVALID_REQUEST", "JOB_CONFIG_INVALID"] as const;
/** Authentication 5: free tier on a paid-only job. */
export const JOB_ADD_403_CODES_INCLUDE = ["JOB_REQUIRES_PAID_TIER"] as const;
export const RETRY_AFTER = "Retry-After";

// ---------------------------------------------------------------- analytics

export const PERIODS = ["7d", "30d", "90d", "365d", "all"] as const;
export const SEVERITIES = ["low", "medium", "high", "critical"] as const;

/** Fields every analytics response contains (workspace_id only where scoped). */
export const ANALYTICS_COMMON: Shape = {
  required: ["status", "processing_time", "_billing", "date_basis", "metric_basis", "scope_contract", "workspace_scope"],
  fields: {
    status: any,
    processing_time: any,
    _billing: any,
    date_basis: any,
    metric_basis: any,
    scope_contract: any,
    workspace_scope: any,
    workspace_id: str,
  },
};

export interface AnalyticsRead {
  readonly path: string;
  readonly query: Readonly<Record<string, Field>>;
  /** Response fields beyond the common ones; absent when the body shape is not shown. */
  readonly response?: Shape;
}

const limit = (dflt: number): Field => ({ type: "number", default: dflt, minimum: 1, maximum: 500 });
const year: Field = { type: "number", noDefault: true }; // default: the current year
const period: Field = { type: "string", values: PERIODS, default: "30d" };
const metaEntry: Shape = {
  fields: {
    configured: any,
    ready: { fields: { amounts: any, partners: any, due_dates: any, document_types: any, location: any } },
    feature_ready: any,
    reason: any,
  },
};
const metaMapping: Shape = { fields: { contacts: metaEntry, location: metaEntry, amounts: metaEntry } };

export const ANALYTICS: readonly AnalyticsRead[] = [
  {
    path: "/analytics/activity-document",
    query: { pofid: { type: "string", required: false }, documents_id: { type: ["string", "number"], required: false } },
  },
  {
    path: "/analytics/activity-heatmap",
    query: { year, workspace_id: { type: "number" } },
    response: {
      required: ["year", "period", "daily_counts", "stats"],
      fields: {
        year: any,
        period: any,
        daily_counts: { type: "object", values: int },
        stats: { fields: { total_documents: any, max_per_day: any, active_days: any, avg_per_day: any } },
      },
    },
  },
  {
    path: "/analytics/activity-users",
    query: { period, workspace_id: { type: "number" } },
    response: { required: ["period", "user_count", "users"], fields: { period: any, user_count: any, users: arr } },
  },
  {
    path: "/analytics/audit-center",
    query: {
      limit: limit(100),
      offset: { type: "number", default: 0 },
      severity: { type: "string", values: SEVERITIES },
      require_review: { type: "boolean" },
      workspace_id: { type: "number" },
    },
    response: {
      required: ["findings", "audit_timeline", "limit", "offset", "total", "period", "stats"],
      fields: {
        findings: arr,
        audit_timeline: arr,
        limit: any,
        offset: any,
        total: any,
        period: any,
        stats: {
          fields: {
            audited_total: any,
            with_findings_count: any,
            protected_count: any,
            severity_breakdown: { fields: { critical: any, high: any, medium: any, low: any } },
            require_human_review: any,
          },
        },
      },
    },
  },
  {
    path: "/analytics/calendar-due-dates",
    query: { year, show_overdue: { type: "boolean", default: true } },
    response: { required: ["events", "event_count", "overdue_count"], fields: { events: arr, event_count: any, overdue_count: any } },
  },
  {
    path: "/analytics/contact-stats",
    query: { limit: limit(50), period, include_addresses: { type: "boolean" } },
    response: {
      required: ["contacts", "total_contacts", "financial_endpoint", "has_custom_meta_keys", "meta_mapping"],
      fields: { contacts: arr, total_contacts: any, financial_endpoint: str, has_custom_meta_keys: bool, meta_mapping: metaMapping },
    },
  },
  {
    path: "/analytics/contact-stats-financial",
    query: { limit: limit(50) },
    response: {
      required: ["contacts", "has_custom_meta_keys", "meta_mapping"],
      fields: {
        contacts: { type: "array", items: { fields: { total_amount: any, invoice_count: any, amounts_available: any } } },
        has_custom_meta_keys: any,
        meta_mapping: metaMapping,
      },
    },
  },
];

// ---------------------------------------------------------------- webhooks

export const RETRY_POLICIES = ["exponential", "linear", "none"] as const;

/** POST /webhooks/subscribe: JSON body. */
export const SUBSCRIBE_BODY: Readonly<Record<string, Field>> = {
  name: { type: "string", required: true },
  url: { type: "string", required: true },
  events: { type: "array", required: true },
  secret: { type: "string", required: false },
  retry_policy: { type: "string", required: false, values: RETRY_POLICIES, default: "exponential" },
  max_retries: { type: "integer", required: false, minimum: 0, maximum: 10, default: 5 },
  timeout_ms: { type: "integer", required: false, minimum: 1000, maximum: 30000, default: 10000 },
};
/** "http and https accepted". */
export const WEBHOOK_URLS_ACCEPTED = ["http://hooks.example.com/in", "https://hooks.example.com/in"] as const;
/** Events: "the wildcard * subscribes to all". */
export const EVENT_WILDCARD = "*";
/** Webhook management calls whose body shape is not shown: their bodies stay open. */
export const NOT_SHOWN_BODIES = ["/webhooks/update", "/webhooks/delete", "/webhooks/test"] as const;

/** The 22 event types. */
export const EVENTS = [
  "document.uploaded",
  "document.created",
  "document.processed",
  "document.edited",
  "document.deleted",
  "document.restored",
  "document.moved",
  "document.version_created",
  "document.lifecycle_changed",
  "document.comment_added",
  "document.note_added",
  "document.tag_added",
  "document.legal_hold_placed",
  "document.legal_hold_released",
  "job.completed",
  "job.failed",
  "job.progress",
  "workspace.shared",
  "workspace.unshared",
  "task.created",
  "task.completed",
  "task.overdue",
] as const;

const HEX32 = "0123456789abcdef0123456789abcdef";
const HEX64 = `${HEX32}${HEX32}`;

/** Delivery request body. */
export const DELIVERY_BODY: Shape = {
  required: ["event_type", "event_id", "timestamp", "subscription_id", "data"],
  fields: {
    event_type: { type: "string" },
    event_id: { type: "string", pattern: { accepts: [HEX32], rejects: [HEX32.slice(1), `${HEX32}0`, `${HEX32.slice(1)}g`] } },
    timestamp: { type: "string", format: "date-time" },
    subscription_id: int,
    data: { type: "object" },
  },
};
/** Data of document.processed. */
export const DOCUMENT_PROCESSED_DATA: Shape = {
  exact: true,
  fields: {
    pofid: str,
    workspace_id: int,
    filename: str,
    mime_type: str,
    size_bytes: int,
    processing_result: { exact: true, fields: { ocr_done: bool, classification: str, confidence: num } },
  },
};
/** document.deleted: delete_mode is trash or instant. */
export const DELETE_MODES = ["trash", "instant"] as const;

export interface DeliveryHeader {
  readonly name: string;
  readonly const?: string;
  readonly values?: readonly string[];
  readonly pattern?: { readonly accepts: readonly string[]; readonly rejects: readonly string[] };
}
/** Delivery headers (Content-Type application/json is the body's media type). */
export const DELIVERY_HEADERS: readonly DeliveryHeader[] = [
  { name: "User-Agent", const: "Service-Webhook/1.0" },
  { name: "X-Service-Event", values: EVENTS },
  { name: "X-Service-Event-ID", pattern: { accepts: [HEX32], rejects: [HEX32.slice(2)] } },
  { name: "X-Service-Subscription-ID" },
  { name: "X-Service-Signature", pattern: { accepts: [`sha256=${HEX64}`], rejects: [HEX64, `sha1=${HEX64}`, "sha256="] } },
];
export const DELIVERY_MEDIA_TYPE = "application/json";
/** Delivery rules 1 and 5: 2xx is success; a receiver answers 401 on a signature mismatch. */
export const DELIVERY_RESPONSES = ["2xx", "401"] as const;
