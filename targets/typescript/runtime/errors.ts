// Error classes. Everything the runtime throws extends SdkError (the webhook helpers' errors too: one root); answers
// of the service extend ServiceError.
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
 */
export class MayHaveBeenProcessedError extends SdkError {
  status?: number;

  constructor(detail: string, options: SdkErrorOptions & { status?: number; message?: string } = {}) {
    super(options.message ?? `the request may have been processed (${detail}); it was not sent again`, options);
    if (options.status !== undefined) this.status = options.status;
  }
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
}

/** The body of a successful answer (a download) broke off or could not be read. `cause` holds the platform's error. */
export class ResponseBodyError extends SdkError {}

/** A secret or user token was given to a client running in a browser without the explicit opt-in. */
export class BrowserTokenError extends SdkError {}

/** The request body cannot be encoded as asked (for example a file in a urlencoded body). */
export class RequestEncodingError extends SdkError {}
