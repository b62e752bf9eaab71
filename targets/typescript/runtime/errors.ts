// Error classes. Everything the runtime throws extends SdkError (the webhook helpers' errors too: one root); answers
// of the service extend ServiceError, through the class of their HTTP status where it has one (BadRequestError,
// AuthenticationError, ... InternalServerError for every 5xx), as openai-node's do. A generated class per error code
// extends the status class of its code.
// Properties are only set when known so that JSON.stringify(error) stays small and never holds request data.

export interface SdkErrorOptions {
  cause?: unknown;
  jobId?: string;
}

/** Base of every error the runtime throws. `jobId` is set whenever a job is concerned, so nothing is lost. */
export class SdkError extends Error {
  jobId?: string;

  constructor(message: string, options: SdkErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    if (options.jobId !== undefined) this.jobId = options.jobId;
  }
}

export interface ServiceErrorInit {
  status: number;
  code?: string;
  message: string;
  processingTime?: string;
  /** The raw error body: parsed JSON, or the text when it was not JSON. */
  body: unknown;
  jobId?: string;
  requestId?: string;
  /** Milliseconds the service asked to wait (Retry-After), when it sent the header. */
  retryAfterMs?: number;
}

/** An error answer of the service. Generated subclasses are keyed by `code`; unknown codes keep this class. */
export class ServiceError extends SdkError {
  status: number;
  code?: string;
  processingTime?: string;
  body: unknown;
  requestId?: string;
  /** From the Retry-After header of the answer (seconds or an HTTP date), for example on RATE_LIMIT_EXCEEDED. */
  retryAfterMs?: number;

  constructor(init: ServiceErrorInit) {
    super(init.message, init.jobId === undefined ? {} : { jobId: init.jobId });
    this.status = init.status;
    if (init.code !== undefined) this.code = init.code;
    if (init.processingTime !== undefined) this.processingTime = init.processingTime;
    this.body = init.body;
    if (init.requestId !== undefined) this.requestId = init.requestId;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
  }
}

/** An answer with HTTP status 400. */
export class BadRequestError extends ServiceError {}

/** An answer with HTTP status 401: the credentials were missing, invalid or expired. */
export class AuthenticationError extends ServiceError {}

/** An answer with HTTP status 403: the credentials may not do this. */
export class PermissionDeniedError extends ServiceError {}

/** An answer with HTTP status 404. */
export class NotFoundError extends ServiceError {}

/** An answer with HTTP status 409. */
export class ConflictError extends ServiceError {}

/** An answer with HTTP status 422. */
export class UnprocessableEntityError extends ServiceError {}

/** An answer with HTTP status 429; `retryAfterMs` holds the wait the service asked for, when it said one. */
export class RateLimitError extends ServiceError {}

/** An answer with an HTTP status of 500 or above. */
export class InternalServerError extends ServiceError {}

const STATUS_CLASSES: Readonly<Record<number, typeof ServiceError>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** The class of an error answer by its HTTP status; ServiceError itself for a status without one (402, 418, ...). */
export function statusErrorClass(status: number): typeof ServiceError {
  return status >= 500 ? InternalServerError : (STATUS_CLASSES[status] ?? ServiceError);
}

/** An error class of a code: a generated one states its code's HTTP status (`httpStatus`), which a refusal made before sending takes. */
export type ServiceErrorClass = (new (init: ServiceErrorInit) => ServiceError) & { readonly httpStatus?: number };

/**
 * The error classes of a generated client by their codes: each states its code (`code`), so the generated table
 * names each class once.
 */
export function errorClassTable<C extends string>(
  classes: readonly (ServiceErrorClass & { readonly code: C })[],
): Readonly<Record<C, ServiceErrorClass>> {
  return Object.fromEntries(classes.map((c) => [c.code, c])) as unknown as Record<C, ServiceErrorClass>;
}

/** A success status whose body is not the JSON it should be. */
export class MalformedResponseError extends ServiceError {}

/** A job reached a failure status (failed, error, cancelled, ...). */
export class JobFailedError extends ServiceError {
  jobStatus: string;

  constructor(init: ServiceErrorInit & { jobStatus: string }) {
    super(init);
    this.jobStatus = init.jobStatus;
  }
}

/** The request could not be completed on the network. `sent` is false only when it provably never left. */
export class ConnectionError extends SdkError {
  sent: boolean;
  /** System or undici error code, for example ECONNREFUSED, ECONNRESET, UND_ERR_HEADERS_TIMEOUT. */
  causeCode?: string;

  constructor(message: string, init: { sent: boolean; causeCode?: string; cause?: unknown; jobId?: string }) {
    super(message, init);
    this.sent = init.sent;
    if (init.causeCode !== undefined) this.causeCode = init.causeCode;
  }
}

/** The overall deadline of a call or a wait passed. No request is sent after it. */
export class DeadlineExceededError extends SdkError {
  deadlineMs: number;

  constructor(deadlineMs: number, options: SdkErrorOptions = {}) {
    super(`deadline of ${deadlineMs} ms exceeded`, options);
    this.deadlineMs = deadlineMs;
  }
}

/** The caller's AbortSignal fired. No request is sent after it. */
export class AbortedError extends SdkError {
  constructor(options: SdkErrorOptions = {}) {
    super("aborted by the caller", options);
  }
}

/**
 * A write that may not be sent twice failed after its body may have reached the server (500, 502, 504, timeout,
 * reset, an unreadable success answer, or the deadline or the caller's abort while it was in flight). The server
 * may have carried it out; the runtime did not send it again. `cause` holds the underlying error.
 *
 * When the server answered (a 5xx), the error thrown is also a ServiceError and an InternalServerError with the
 * answer's status, code and body (`answered`), and `instanceof MayHaveBeenProcessedError` is true for it all the same.
 */
export class MayHaveBeenProcessedError extends SdkError {
  status?: number;

  constructor(detail: string, options: SdkErrorOptions & { status?: number; message?: string } = {}) {
    super(options.message ?? `the request may have been processed (${detail}); it was not sent again`, options);
    if (options.status !== undefined) this.status = options.status;
  }

  /** The error of a 5xx answer: a ServiceError (an InternalServerError) with the answer's fields, and one of these. */
  static answered(answer: ServiceError, detail: string): ServiceError {
    return new AnsweredError(answer, new MayHaveBeenProcessedError(detail).message, MayHaveBeenProcessedError);
  }

  /** True for this class's own errors and for the answered errors that stand for this class or a subclass of it. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: instanceof asks the class it names, which may be a subclass
    return isOrStandsFor(this, value);
  }
}

/** Whether `value` is an instance of `asked`, or an answered error that stands for it or a subclass of it. */
function isOrStandsFor(asked: new (...args: never[]) => object, value: unknown): boolean {
  if (Function.prototype[Symbol.hasInstance].call(asked, value)) return true;
  if (!(value instanceof AnsweredError)) return false;
  return value.standsFor === asked || Function.prototype[Symbol.hasInstance].call(asked, value.standsFor.prototype);
}

/**
 * A job submission failed after its body may have reached the service: the job may exist and may be billed. The
 * runtime does not resubmit; submitting again may run, and bill, a second job.
 */
export class JobMayExistError extends MayHaveBeenProcessedError {
  constructor(detail: string, options: SdkErrorOptions & { status?: number } = {}) {
    super(detail, {
      ...options,
      message: `the job may exist and may be billed (${detail}); it was not resubmitted, and submitting it again may run and bill a second job`,
    });
  }

  /** The error of a 5xx answer to a job submission: the answer's ServiceError, and a JobMayExistError. */
  static override answered(answer: ServiceError, detail: string): ServiceError {
    return new AnsweredError(answer, new JobMayExistError(detail).message, JobMayExistError);
  }
}

/**
 * The answered form of MayHaveBeenProcessedError (or JobMayExistError, `standsFor`): a 5xx answer to a write that may
 * not be sent twice. It carries the answer's fields, `cause` is the error of the answer (the class of its code), and it
 * is named as the class it stands for, which instanceof matches.
 */
class AnsweredError extends InternalServerError {
  declare readonly standsFor: typeof MayHaveBeenProcessedError;

  constructor(answer: ServiceError, message: string, standsFor: typeof MayHaveBeenProcessedError) {
    const init: ServiceErrorInit = { status: answer.status, message, body: answer.body };
    if (answer.code !== undefined) init.code = answer.code;
    if (answer.processingTime !== undefined) init.processingTime = answer.processingTime;
    if (answer.jobId !== undefined) init.jobId = answer.jobId;
    if (answer.requestId !== undefined) init.requestId = answer.requestId;
    if (answer.retryAfterMs !== undefined) init.retryAfterMs = answer.retryAfterMs;
    super(init);
    this.name = standsFor.name;
    Object.defineProperty(this, "standsFor", { value: standsFor });
    Object.defineProperty(this, "cause", { value: answer, writable: true, configurable: true });
  }
}

/** The body of a successful answer (a download) broke off or could not be read. `cause` holds the platform's error. */
export class ResponseBodyError extends SdkError {}

/** A secret or user token was given to a client running in a browser without the explicit opt-in. */
export class BrowserTokenError extends SdkError {}

/** The request body cannot be encoded as asked (for example a file in a urlencoded body). */
export class RequestEncodingError extends SdkError {}
