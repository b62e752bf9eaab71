// When to send a request again, and after how long. A billable submission is sent again only when the service
// provably did not take it; everything else is decided here from the status or the network error code.
import type { RetryOptions } from "./options.js";

/** What to do after a failed attempt. */
export type RetryVerdict = "retry" | "fail" | "may-exist";

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
 * 429 and 503 mean the service did not take the request: always retried. Other 5xx are retried for reads; for a
 * billable submission they mean the job may exist. 4xx are the caller's to fix and never retried.
 */
export function verdictForStatus(status: number, billable: boolean): RetryVerdict {
  if (status === 429 || status === 503) return "retry";
  if (status >= 500) return billable ? "may-exist" : "retry";
  return "fail";
}

export function verdictForNetwork(causeCode: string | undefined, billable: boolean): RetryVerdict {
  if (wasNotSent(causeCode)) return "retry";
  return billable ? "may-exist" : "retry";
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
