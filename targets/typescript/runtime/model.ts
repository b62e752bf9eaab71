// The plain data the generated client hands to the runtime, and the shapes every call returns.
// Nothing here is generated: the generator fills these interfaces from the description.
// ConventionsModel, EnvelopeModel, TokenKindsModel, JobsModel, PricingModel and PipelineModel mirror IR types
// (generator/ir/types.ts), which this package cannot import: test/ir/runtime-model.test.ts compares them with the
// TypeScript compiler and fails when their fields drift apart.

/** What the runtime needs to know about one release of the description. */
export interface ServiceModel {
  /** Release identifier, for example "R20261120.0900". */
  release: string;
  /**
   * sha256 hex of the description the client was generated from. The runtime does not read it; a generated client's
   * model leaves it out (its DESCRIPTION_HASH holds it).
   */
  descriptionHash?: string;
  /**
   * The error table: stable code -> HTTP status. A generated client leaves it out: its error classes (createClient's
   * third argument) state each code and status.
   */
  errors?: Readonly<Record<string, { status: number; description?: string }>>;
  /**
   * Pipelines of the job submission operation by slug. With pricing and jobs, the job part of the model: a generated
   * client keeps it apart (its `jobModel`), and its job functions pass it, so that other operations leave it out.
   */
  pipelines?: Readonly<Record<string, PipelineModel>>;
  /** Price list of job submission: base credits x lane multiplier, at least minimumCharge. */
  pricing?: PricingModel;
  /** info.title of the description; with the release it names the client in the User-Agent. */
  title?: string;
  /** The description's servers; the first is the default base address. */
  servers?: readonly ServerModel[];
  /** The description's security schemes by name. */
  securitySchemes?: Readonly<Record<string, SecuritySchemeModel>>;
  /** Environment variables read for a default token, base address and log level (named in the generated README). */
  env?: { readonly token?: string; readonly baseUrl?: string; readonly log?: string };
  /**
   * The response header that carries the request id (ResponseMeta.requestId, ServiceError.requestId), when the
   * description declares one; else the conventional X-Request-Id is read.
   */
  requestIdHeader?: string;
  /** Service-wide conventions the description states; absent for a plain description. */
  conventions?: ConventionsModel;
  /** The operations that submit, poll and download jobs, with the field names they use. */
  jobs?: JobsModel;
  /**
   * The longest hold of a job submission in seconds (`jobs.submit.maxHoldSeconds`), repeated for a model without its
   * job part, since the default deadline follows it.
   */
  maxHoldSeconds?: number;
}

/** The job part of a model: what only the job functions (submit, start, wait, price, download by token) read. */
export type JobModel = Pick<ServiceModel, "pipelines" | "pricing" | "jobs">;

/** The model with a job part given apart (by a generated client's job functions) laid over it. */
export function withJobModel(model: ServiceModel, jobs: JobModel | undefined): ServiceModel {
  return jobs === undefined ? model : { ...model, ...jobs };
}

export interface ServerModel {
  /** URL template, for example "https://{host}/v1". */
  url: string;
  variables?: Readonly<Record<string, { readonly default: string; readonly enum?: readonly string[] }>>;
}

/** A security scheme as the runtime applies it. oauth2 and openIdConnect tokens travel as bearer tokens. */
export type SecuritySchemeModel =
  | { readonly type: "http"; readonly scheme: string }
  | { readonly type: "apiKey"; readonly in: "header" | "query" | "cookie"; readonly name: string }
  | { readonly type: "oauth2" | "openIdConnect" | "mutualTLS" };

export interface ConventionsModel {
  /** The base address must end with this path. */
  basePathSuffix?: string;
  envelope?: EnvelopeModel;
  tokens?: TokenKindsModel;
  webhooks?: WebhookSigningModel;
  /** Field names of a webhook subscription body, by role. */
  webhookSubscription?: SubscriptionFieldsModel;
  /** How form bodies name array items: `brackets` (`files[]`) or `repeat` (the default). */
  form?: { readonly arrays: "brackets" | "repeat" };
}

/** How webhook deliveries are signed and named: the webhook helpers read every name from here (the generated client passes it). */
export interface WebhookSigningModel {
  /** Header of the `<prefix><64 lowercase hex>` HMAC-SHA256 of the raw body under the subscription secret. */
  signature: { readonly header: string; readonly prefix: string };
  /** Headers that repeat a body field; the event id one must match it, the others when present. */
  headers: { readonly eventId: string; readonly eventType?: string; readonly subscriptionId?: string };
  /** Field names of every delivery body. */
  body: { readonly eventType: string; readonly eventId: string; readonly subscriptionId?: string; readonly timestamp?: string };
}

export interface SubscriptionFieldsModel {
  readonly name?: string;
  readonly url: string;
  readonly events: string;
  readonly secret?: string;
  readonly retryPolicy?: string;
  readonly maxRetries?: string;
  readonly timeoutMs?: string;
}

/** Field names of the JSON object every answer is wrapped in. */
export interface EnvelopeModel {
  status: string;
  success: string;
  error: string;
  code: string;
  message: string;
  processingTime?: string;
  billing?: string;
  /** Path of fields to the seconds to wait before the next request. */
  nextRequestSeconds?: readonly string[];
}

/** Token kinds of one security scheme, told apart by `<brand><prefix>`. */
export interface TokenKindsModel {
  scheme: string;
  brand: string;
  kinds: readonly { readonly prefix: string; readonly name: string; readonly serverOnly?: boolean }[];
  /** 401 error codes after which a token provider is asked again, once. */
  renewOn: readonly string[];
}

export interface JobsModel {
  submit: {
    operation: OperationSpec;
    /** The path parameter that names the pipeline. */
    pipelineParameter?: string;
    jobId: string;
    pollUrl?: string;
    stillRunningStatus?: number;
    noWait?: { readonly field: string; readonly value: string | number | boolean };
    selectorPattern?: string;
    selectorRefusal?: string;
    /** Longest the service holds a submission before it answers, in seconds. */
    maxHoldSeconds?: number;
  };
  poll: { operation: OperationSpec; jobIdParameter: string; status: string; completed: string; payload: readonly string[] };
  download?: { operation: OperationSpec; tokenParameter: string };
}

export interface PipelineModel {
  /** The payload field that holds the finished payload after polling, as the description states it. */
  payloadAfterPolling: string;
  baseCredits?: number;
  /** Body fields of this pipeline that travel as JSON text; merged with the jsonStrings of a submission. */
  jsonStrings?: readonly string[];
  /**
   * The fields each variant of the pipeline takes, for the check before sending: a body with a field no variant it
   * may be takes is refused. Absent: any field is sent as it is.
   */
  variants?: readonly VariantFields[];
}

/** The body fields of one variant of a pipeline. */
export interface VariantFields {
  /** The body field and value that choose the variant, when the description states them. */
  discriminator?: { property: string; value: string };
  /** Every field the variant takes; absent when its parameters are not shown, and so any field goes. */
  fields?: readonly string[];
}

export interface PricingModel {
  laneMultipliers: Readonly<Record<string, number>>;
  defaultLane: string;
  minimumCharge?: number;
}

/** JSON, a form, or another media type whose body is sent as it is (application/octet-stream, text/plain...). */
export type RequestMediaType = "application/json" | "multipart/form-data" | "application/x-www-form-urlencoded" | (string & {});

/** One operation of the description, as the generated client describes it to the runtime. */
export interface OperationSpec {
  operationId: string;
  method: "GET" | "PUT" | "POST" | "DELETE" | "OPTIONS" | "HEAD" | "PATCH" | "TRACE";
  /** Path template below the base address, for example "/things/{id}". */
  path: string;
  requestMediaType?: RequestMediaType;
  /**
   * The operation takes only application/x-www-form-urlencoded, so a form body goes urlencoded unless the call asks
   * for multipart. Absent: a form operation sends multipart (clients generated before this member name urlencoded as
   * the media type of operations that take both forms).
   */
  urlencoded?: boolean;
  /** The Content-Type of a JSON body, where the operation declares another JSON type (application/merge-patch+json). */
  jsonMediaType?: string;
  /** How the success answer is read. Absent: JSON. */
  response?: "json" | "binary";
  /**
   * May be sent again after a failure that may have reached the server (`x-idempotent`). Absent: true for GET, HEAD,
   * PUT, DELETE, OPTIONS and TRACE. A job submission is never sent again, whatever this says.
   */
  idempotent?: boolean;
  /**
   * The request header the operation takes an idempotency key in. Each call sends one (RequestOptions'
   * idempotencyKey, else a random UUID v4), the same on every retry, and may then be sent again after any failure.
   */
  idempotencyKey?: string;
  /** Each call is charged. */
  billed?: boolean;
  /** The part the operation plays in jobs. */
  job?: "submit" | "poll" | "download";
  /** The query parameters and answer fields of a limit/offset read (`x-paperoffice-pagination`). */
  pagination?: PaginationModel;
  /** Alternatives of security scheme names, any one of which is enough; an empty alternative means none needed. */
  security?: readonly (readonly string[])[];
  /**
   * The operation's own servers (operation- or path-level). Its generated function sends it to the first through
   * atOperationServer, unless the client's base address was given (which applies to every operation).
   */
  servers?: readonly ServerModel[];
}

/** Names of a limit/offset read: the page size and skip query parameters, the items and total answer fields. */
export interface PaginationModel {
  readonly limit: string;
  readonly offset: string;
  readonly items: string;
  readonly total?: string;
}

/** A request body as fetch sends it. */
export type SendBody = FormData | URLSearchParams | string | Blob;

export interface CallInput {
  path?: Record<string, string | number>;
  query?: Record<string, unknown>;
  /**
   * The header and cookie parameters as request headers, made by parameterHeaders in the generated operation (so that
   * operations without them leave its code out); the options' extra headers win over them.
   */
  headers?: Readonly<Record<string, string>> | undefined;
  /** A form body is an object of fields; a JSON body may be any JSON value. */
  body?: unknown;
  /** Body fields that travel as JSON text (the structured value, serialised with JSON.stringify; a string becomes a JSON string). */
  jsonStrings?: readonly string[];
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Overall deadline of the call, retries included. */
  deadlineMs?: number;
  /** The same as deadlineMs, under the name other clients use (deadlineMs wins when both are given). */
  timeout?: number;
  /** Retries after the first attempt, for this call only (default: the client's retry.maxRetries). */
  maxRetries?: number;
  /** Body encoding for operations sent as a form; an operation whose body offers JSON always sends JSON. */
  mediaType?: "multipart/form-data" | "application/x-www-form-urlencoded";
  /** Extra request headers. Authorization is always set by the runtime. */
  headers?: Record<string, string>;
  /** Extra query parameters, added to the operation's own (a name the operation also has replaces its value). */
  query?: Record<string, unknown>;
  /**
   * Extra members of a JSON body or fields of a form body, laid over the body's own: for fields the description does
   * not show. An operation whose body is not an object (or a raw body) refuses them before sending.
   */
  extraBody?: Record<string, unknown>;
  /**
   * The idempotency key of this call, sent on each of its attempts, for an operation that takes one (default: a new
   * random UUID v4 per call). Reuse it to send a call again without it being carried out twice; an operation that
   * takes no key refuses it before sending.
   */
  idempotencyKey?: string;
}

/** The options of a call of an operation with servers of its own (see atOperationServer). */
export interface OperationServerOptions extends RequestOptions {
  /** Base address of this call only, instead of the operation's server or the client's base address. */
  baseUrl?: string;
}

/**
 * The envelope's billing object as the runtime reads it: any JSON object. The generated client narrows it to the
 * description's own billing schema (ResponseMeta<Billing>), so the runtime holds none of its fields.
 */
export type BillingData = Record<string, unknown>;

export interface ResponseMeta<B extends BillingData = BillingData> {
  /** HTTP status of the answer that produced the data. */
  status: number;
  /** The envelope's processing time field of the body, a number with a unit. */
  processingTime?: string;
  /** The envelope's billing object, when the description names one and the answer carries it. */
  billing?: B;
  /** Response headers of the answer that produced the data. */
  headers: Headers;
  /** HTTP requests sent for this call, retries included. */
  requestCount: number;
  requestId?: string;
}

export interface ApiResult<T, B extends BillingData = BillingData> {
  data: T;
  meta: ResponseMeta<B>;
}
