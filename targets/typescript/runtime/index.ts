// Public surface of the runtime. The generated client imports from here only.
export {
  type BasicCredentials,
  type Credential,
  isBrowser,
  MissingCredentialsError,
  type TokenKind,
  type TokenProvider,
  tokenKind,
} from "./auth.js";
export {
  apiKeyScheme,
  basicScheme,
  httpScheme,
  mutualTLSScheme,
  type SchemeKind,
  type SchemeKinds,
} from "./auth-schemes.js";
export { callJsonOperation, callOperation, callOperationWithBody, callSubmission } from "./call.js";
export { atOperationServer } from "./operation-server.js";
export { bindDownloadFile, type Download, type DownloadFile, downloadFile, fileNameFromDisposition } from "./download.js";
export {
  AbortedError,
  AuthenticationError,
  BadRequestError,
  BrowserTokenError,
  ConflictError,
  ConnectionError,
  DeadlineExceededError,
  errorClassTable,
  InternalServerError,
  JobFailedError,
  JobMayExistError,
  MalformedResponseError,
  MayHaveBeenProcessedError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestEncodingError,
  ResponseBodyError,
  SdkError,
  type SdkErrorOptions,
  ServiceError,
  type ServiceErrorClass,
  type ServiceErrorInit,
  statusErrorClass,
  UnprocessableEntityError,
} from "./errors.js";
export type { FileData, FileDataRef, FileInput, FilePathRef, NodeReadableLike } from "./files.js";
export {
  isFailureStatus,
  isValidPipelineSlug,
  type JobHandle,
  type JobOptions,
  type JobProgress,
  type JobResult,
  priceJob,
  startJob,
  submitJob,
  type WaitOptions,
  waitJob,
} from "./jobs.js";
export type {
  ApiResult,
  BillingData,
  CallInput,
  ConventionsModel,
  EnvelopeModel,
  JobModel,
  JobsModel,
  OperationServerOptions,
  OperationSpec,
  PaginationModel,
  PipelineModel,
  VariantFields,
  PricingModel,
  RequestMediaType,
  RequestOptions,
  ResponseMeta,
  SecuritySchemeModel,
  ServerModel,
  ServiceModel,
  SubscriptionFieldsModel,
  TokenKindsModel,
  WebhookSigningModel,
} from "./model.js";
export type { ClientOptions, FetchLike, LogFn, Logger, LogLevel, PollInterval, RetryOptions } from "./options.js";
export {
  type Page,
  type PageFetcher,
  type PageRequest,
  type PaginateOptions,
  type Paginator,
  type PagingOptions,
  paginateOperation,
  paginator,
} from "./paginate.js";
export {
  followLink,
  type NextPage,
  type NextPageFetcher,
  type NextPageModel,
  nextLink,
  nextPaginator,
} from "./paginate-next.js";
export { parameterHeaders } from "./parameter-text.js";
export { jobPrice } from "./pricing.js";
export type { Middleware } from "openapi-fetch";
export { Runtime } from "./runtime.js";
// The subscription operations of the generated client check their body before sending it and throw
// SubscriptionCheckError, so those stay here. Everything else about webhooks (verification, receivers, deduplication,
// URL checks) is server-side only and lives behind the `./webhooks` subpath, which keeps it out of the bundles and
// type-checks of clients that only call the API.
export {
  checkSubscription,
  SubscriptionCheckError,
  type SubscriptionCheckOptions,
  type SubscriptionProblem,
  type SubscriptionProblemCode,
  type SubscriptionRules,
} from "./webhooks/subscription.js";
