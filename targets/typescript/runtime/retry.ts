// When to send a request again, and after how long. A request that is not resendable (a POST or PATCH not marked
// idempotent, a job submission) is sent again only when the server provably did not take it; everything else is
// decided here from the status or the network error code.
import type { RetryOptions } from "./options.js";

/** What to do after a failed attempt. */
export type RetryVerdict = "retry" | "fail" | "may-have-been-processed";

/**
 * Network error codes raised before a single byte of the request left this machine: the connection was refused,
 * the name did not resolve or the host was unreachable. Everything else (reset, closed socket, timeouts) may
 * happen after the service has read the body.
 */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

export function wasNotSent(causeCode: string | undefined): boolean {
  return causeCode !== undefined && NOT_SENT_CODES.has(causeCode);
}

/**
 * 429 and 503 mean the server did not take the request: always retried. Other 5xx are retried for resendable
 * requests; for the others they mean the request may have been processed. 4xx are the caller's to fix and never retried.
 */
export function verdictForStatus(status: number, resendable: boolean): RetryVerdict {
  if (status === 429 || status === 503) return "retry";
  if (status >= 500) return resendable ? "retry" : "may-have-been-processed";
  return "fail";
}

export function verdictForNetwork(causeCode: string | undefined, resendable: boolean): RetryVerdict {
  if (wasNotSent(causeCode)) return "retry";
  return resendable ? "retry" : "may-have-been-processed";
}

/** Methods HTTP defines as idempotent: sending one twice has the effect of sending it once. */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"]);

/**
 * Whether an operation may be sent again after a failure that may have reached the server: always when it takes an
 * idempotency key (every attempt of a call carries the same one, so the server carries it out once, billed or not),
 * else as the description marks it (`idempotent`), else by its method; never a job submission.
 */
export function isResendable(op: {
  method: string;
  idempotent?: boolean | undefined;
  idempotencyKey?: string | undefined;
  job?: string | undefined;
}): boolean {
  if (op.job === "submit") return false;
  return op.idempotencyKey !== undefined || (op.idempotent ?? IDEMPOTENT_METHODS.has(op.method.toUpperCase()));
}

/** Exponential backoff with full jitter: uniform in [0, min(maxDelay, base * 2^retry)]. */
export function backoffDelay(retry: number, options: Required<RetryOptions>, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/** Milliseconds from a Retry-After header (seconds or an HTTP date), or undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The wait before the next attempt: Retry-After when the service sent one (capped), else backoff. */
export function retryDelay(retry: number, retryAfter: string | null, options: Required<RetryOptions>): number {
  const fromHeader = parseRetryAfter(retryAfter);
  return fromHeader === undefined ? backoffDelay(retry, options) : Math.min(fromHeader, options.maxRetryAfterMs);
}
