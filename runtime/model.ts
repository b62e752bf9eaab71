// The plain data the generated client hands to the runtime, and the shapes every call returns.
// Nothing here is generated: the generator fills these interfaces from the description.

/** What the runtime needs to know about one release of the description. */
export interface ServiceModel {
  /** Release identifier, for example "R20261120.0900". */
  release: string;
  /** sha256 hex of the description the client was generated from. */
  descriptionHash: string;
  /** The error table: stable code -> HTTP status. */
  errors: Readonly<Record<string, { status: number; description?: string }>>;
  /** Pipelines of `POST /job/add/{pipeline}` by slug. */
  pipelines: Readonly<Record<string, PipelineModel>>;
  /** Price list of job submission: base credits x lane multiplier, at least minimumCharge. */
  pricing?: PricingModel;
}

export interface PipelineModel {
  /** Where the finished payload sits after polling; on hold it is always `result`. */
  payloadAfterPolling: "result" | "job_result";
  baseCredits?: number;
  /** Body fields of this pipeline that travel as JSON text; merged with the jsonStrings of a submission. */
  jsonStrings?: readonly string[];
}

export interface PricingModel {
  laneMultipliers: Readonly<Record<string, number>>;
  defaultLane: string;
  minimumCharge?: number;
}

export type RequestMediaType = "application/json" | "multipart/form-data" | "application/x-www-form-urlencoded";

/** One operation of the description, as the generated client describes it to the runtime. */
export interface OperationSpec {
  operationId: string;
  method: "GET" | "PUT" | "POST" | "DELETE" | "OPTIONS" | "HEAD" | "PATCH" | "TRACE";
  /** Path template below the base address, for example "/job/get/{job_id}". */
  path: string;
  requestMediaType?: RequestMediaType;
  response: "json" | "binary";
  /** True for job submission: never resubmitted unless the service provably did not receive it. */
  billable: boolean;
}

export interface CallInput {
  path?: Record<string, string | number>;
  query?: Record<string, unknown>;
  /** Header parameters, sent as request headers (the options' extra headers win over them). */
  header?: Record<string, unknown>;
  /** Cookie parameters, sent in one Cookie header. */
  cookie?: Record<string, unknown>;
  /** A form body is an object of fields; a JSON body may be any JSON value. */
  body?: unknown;
  /** Body fields that travel as JSON text (the structured value, serialised with JSON.stringify; a string becomes a JSON string). */
  jsonStrings?: readonly string[];
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Overall deadline of the call, retries included. */
  deadlineMs?: number;
  /** Body encoding for operations that accept a form; JSON-only operations always send JSON. */
  mediaType?: "multipart/form-data" | "application/x-www-form-urlencoded";
  /** Extra request headers. Authorization is always set by the runtime. */
  headers?: Record<string, string>;
}

/** One rate-limit window value per period. */
export interface RequestWindow {
  second?: number;
  minute?: number;
  hour?: number;
  day?: number;
}

/** The optional `_billing` object of responses. Every member is optional: the service sends what applies. */
export interface Billing {
  credits?: {
    total_monthly?: number;
    remaining_monthly?: number;
    credit_source?: string;
    api_handler?: string;
    tier_info?: {
      tier?: number | string;
      name?: string;
      initial_credits?: number;
      price_monthly?: number;
      price_overage_per_credit?: number;
    };
    notice?: string;
    renewal_days?: number;
    subscription_status?: string;
  };
  job?: {
    api_job_name?: string;
    app?: string;
    action?: string;
    default_credits?: number;
    token?: string;
    credits_billed?: number;
    pricing?: { credits_per_unit?: number; unit?: string; unit_count?: number; addons?: unknown };
  };
  requests?: {
    limits?: RequestWindow;
    current?: RequestWindow;
    remaining?: RequestWindow;
    next_possible_request_seconds?: number;
  };
  remaining_credits?: number;
  total_monthly?: number;
  account_id?: number;
  plan?: { tier?: number | string; name?: string };
  credits_billed?: number;
}

export interface ResponseMeta {
  /** HTTP status of the answer that produced the data. */
  status: number;
  /** `processing_time` of the body, a number with a unit. */
  processingTime?: string;
  billing?: Billing;
  /** Response headers of the answer that produced the data. */
  headers: Headers;
  /** HTTP requests sent for this call, retries included. */
  requestCount: number;
  requestId?: string;
}

export interface ApiResult<T> {
  data: T;
  meta: ResponseMeta;
}
