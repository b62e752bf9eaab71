// What a generated client's index re-exports of its runtime: the names a user of the SDK writes (createClient's
// options and result, the errors to catch, the types of answers, files and credentials, and what the description's
// features add, such as the types of the generated auto-paging functions). The runtime's advanced API (sending by
// OperationSpec, the models, pagination by spec, the job functions before the model's job part is bound in) stays in
// the runtime package, so that the SDK's surface is the SDK's and a bundle of the whole client carries only that.

/** A client's features that bring runtime names into its surface. */
export interface SurfaceFeatures {
  /** The description states job operations: the job helpers, their options, results and errors. */
  readonly jobs: boolean;
  /** Some operation checks a webhook subscription before sending it. */
  readonly subscriptions: boolean;
  /** Some operation pages (`x-paperoffice-pagination`): the types its auto-paging function names. */
  readonly pagination: boolean;
  /** Some operation pages by cursor or Link header: the page type its auto-paging function names. */
  readonly nextPagination?: boolean;
}

/** Every client: its class, its options, errors, answers, files and credentials (`type ` marks a type). */
const ALWAYS: readonly string[] = [
  "AbortedError",
  "AuthenticationError",
  "BadRequestError",
  "BrowserTokenError",
  "ConflictError",
  "ConnectionError",
  "DeadlineExceededError",
  "InternalServerError",
  "isBrowser",
  "MalformedResponseError",
  "MayHaveBeenProcessedError",
  "MissingCredentialsError",
  "NotFoundError",
  "PermissionDeniedError",
  "RateLimitError",
  "RequestEncodingError",
  "ResponseBodyError",
  "Runtime",
  "SdkError",
  "ServiceError",
  "UnprocessableEntityError",
  "tokenKind",
  "type ApiResult",
  "type BasicCredentials",
  "type BillingData",
  "type ClientOptions",
  "type Credential",
  "type Download",
  "type FetchLike",
  "type FileData",
  "type FileDataRef",
  "type FileInput",
  "type FilePathRef",
  "type LogFn",
  "type Logger",
  "type LogLevel",
  "type Middleware",
  "type NodeReadableLike",
  "type PollInterval",
  "type RequestOptions",
  "type ResponseMeta",
  "type RetryOptions",
  "type TokenKind",
  "type TokenProvider",
];

const JOBS: readonly string[] = [
  "JobFailedError",
  "JobMayExistError",
  "type JobHandle",
  "type JobOptions",
  "type JobProgress",
  "type JobResult",
  "type WaitOptions",
];

const PAGINATION: readonly string[] = ["type Page", "type Paginator", "type PagingOptions"];

const SUBSCRIPTIONS: readonly string[] = ["SubscriptionCheckError", "type SubscriptionProblem", "type SubscriptionProblemCode"];

/** The runtime's names a client with these features re-exports, as export specifiers (`name` or `type name`). */
export function sdkSurface(features: SurfaceFeatures): readonly string[] {
  return [
    ...ALWAYS,
    ...(features.jobs ? JOBS : []),
    ...(features.subscriptions ? SUBSCRIPTIONS : []),
    ...(features.pagination ? PAGINATION : []),
    ...(features.nextPagination ? ["type NextPage"] : []),
  ];
}
