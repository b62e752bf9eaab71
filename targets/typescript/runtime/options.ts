// Client options, their defaults, and the checks that run once when a client is created.
import type { Credential, TokenProvider } from "./auth.js";
import { resolveBaseUrl } from "./base-url.js";
import { SdkError } from "./errors.js";
import { HOLD_MARGIN_MS, maxHoldMs } from "./hold.js";
import { type Logger, type LogLevel, resolveLogger } from "./log.js";
import type { ServiceModel } from "./model.js";

export type { LogFn, Logger, LogLevel } from "./log.js";

export interface RetryOptions {
  /** Retries after the first attempt (default 3). 0 disables retries. */
  maxRetries?: number;
  /** First backoff step; each retry doubles it, with full jitter (default 500 ms). */
  baseDelayMs?: number;
  /** Largest backoff step (default 20 s). */
  maxDelayMs?: number;
  /** Largest wait honoured from a Retry-After header (default 60 s). */
  maxRetryAfterMs?: number;
}

/** A fixed interval or a range to draw a jittered interval from. */
export type PollInterval = number | { min: number; max: number };

/**
 * A fetch implementation, called as fetch does: `fetch(request, init)` with the Request openapi-fetch built (full URL,
 * method, headers, body, signal) and, in Node when a dispatcher is set, `init` holding `{ dispatcher }`. So
 * `globalThis.fetch` fits as it is.
 */
export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

export interface ClientOptions {
  /**
   * Service address. Default: the environment variable the generated README names (Node only), else the
   * description's first server with its variables (see serverVariables). Where the description states a base-path
   * rule, the address must follow it. Given here or by that variable, it applies to every operation, those with
   * servers of their own included (so that a mock or proxy sees every call); otherwise such an operation goes to its
   * first server.
   */
  baseUrl?: string;
  /** Values of the first server's variables, instead of their defaults (only when baseUrl is not given). */
  serverVariables?: Readonly<Record<string, string>>;
  /**
   * A bearer token (http bearer, oauth2 and openIdConnect schemes), or a function returning the current one (for
   * rotation). Also the API key when apiKey is not given. Default: the environment variable the generated README
   * names (Node only). Needed only by operations whose security asks for it.
   */
  token?: string | TokenProvider;
  /** The key of the description's apiKey schemes (header, query or cookie). */
  apiKey?: string | TokenProvider;
  /** User name of an HTTP basic scheme. */
  username?: string;
  /** Password of an HTTP basic scheme. */
  password?: string;
  /** Credentials by security scheme name, for descriptions with several schemes of a type; they win over the above. */
  credentials?: Readonly<Record<string, Credential>>;
  /** Further strings to keep out of every error's message, body and cause, like the credentials always are. */
  secrets?: readonly string[];
  /** Brand part of token prefixes, as in `svc_sk_...` (default: the description's, when it states token kinds). */
  tokenBrand?: string;
  /** Allows secret and user tokens in a browser. Only for code that never reaches end users. */
  allowSecretTokenInBrowser?: boolean;
  /** fetch implementation (default globalThis.fetch). */
  fetch?: FetchLike;
  /**
   * undici dispatcher handed to fetch as `init.dispatcher` (Node only). Node's built-in fetch stops waiting for
   * response headers after 300 s; pass `await createHoldDispatcher({ model })` (from `<package>/node`) to wait longer
   * than the description's longest hold.
   */
  dispatcher?: unknown;
  /**
   * Overall deadline of one call, retries included (default 600 s, a generic value; longer when the description's
   * longest hold and its margin exceed it). Nothing is sent after it. Under 600 s it also aborts the request in flight; from 600 s up it ends the call and leaves a request
   * still in flight to finish on its own.
   */
  deadlineMs?: number;
  /** Overall deadline of submit-and-wait and of waitJob (default 1 h); in flight, it acts like deadlineMs. */
  jobDeadlineMs?: number;
  retry?: RetryOptions;
  /** Gap between polls (default 5 to 10 s, jittered). */
  pollIntervalMs?: PollInterval;
  /**
   * Where log entries go: any object with some of console's debug, info, warn and error (default `console`). Entries
   * are requests (debug, with their headers), answers (info: status, request id, duration), retries with their reason
   * and delay (warn) and job polls (info); credentials and `secrets` are shown as `[redacted]`.
   */
  logger?: Logger;
  /**
   * Headers sent with every request of this client (a copy made with withOptions merges its own over them). A call's
   * headers, header parameters and the runtime's own (Content-Type, credentials) win over them.
   */
  headers?: Readonly<Record<string, string>>;
  /**
   * Entries of this level and above are logged. Default: the environment variable the generated README names (Node
   * only), else `debug` when a logger is given (its own level decides), else `off`.
   */
  logLevel?: LogLevel;
  /** Appended to the User-Agent header (Node only; browsers do not let scripts set it). */
  userAgentSuffix?: string;
  /** Wait out `_billing.requests.next_possible_request_seconds` before the next request instead of meeting a 429. */
  pacing?: boolean;
}

export interface ResolvedOptions {
  baseUrl: string;
  fetch: FetchLike;
  dispatcher: unknown;
  deadlineMs: number;
  jobDeadlineMs: number;
  retry: Required<RetryOptions>;
  pollInterval: { min: number; max: number };
  logger: Logger | undefined;
  /** The headers option. */
  headers: Readonly<Record<string, string>> | undefined;
  pacing: boolean;
}

/** Generic defaults, for any description; `resolveOptions` raises the deadline above a longer stated hold. */
export const DEFAULTS = {
  deadlineMs: 600_000,
  jobDeadlineMs: 3_600_000,
  pollIntervalMs: { min: 5_000, max: 10_000 },
  retry: { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 20_000, maxRetryAfterMs: 60_000 },
} as const;

export function resolveOptions(options: ClientOptions, model: ServiceModel): ResolvedOptions {
  const baseUrl = resolveBaseUrl(options, model);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== "function") throw new SdkError("no fetch implementation: pass options.fetch");
  return {
    baseUrl,
    fetch: fetchImpl,
    dispatcher: options.dispatcher,
    deadlineMs: positive("deadlineMs", options.deadlineMs ?? defaultDeadlineMs(model)),
    jobDeadlineMs: positive("jobDeadlineMs", options.jobDeadlineMs ?? DEFAULTS.jobDeadlineMs),
    retry: { ...DEFAULTS.retry, ...options.retry },
    pollInterval: resolvePollInterval(options.pollIntervalMs ?? DEFAULTS.pollIntervalMs),
    logger: resolveLogger(options, model),
    headers: options.headers,
    pacing: options.pacing ?? false,
  };
}

/** The generic deadline, or the description's longest hold and its margin when that is longer. */
export function defaultDeadlineMs(model: ServiceModel): number {
  const hold = maxHoldMs(model);
  return hold === undefined ? DEFAULTS.deadlineMs : Math.max(DEFAULTS.deadlineMs, hold + HOLD_MARGIN_MS);
}

export function resolvePollInterval(interval: PollInterval): { min: number; max: number } {
  const range = typeof interval === "number" ? { min: interval, max: interval } : interval;
  if (!(range.min >= 0 && range.max >= range.min)) throw new SdkError("pollIntervalMs needs 0 <= min <= max");
  return range;
}

function positive(name: string, value: number): number {
  if (!(value > 0)) throw new SdkError(`${name} must be a positive number of milliseconds`);
  return value;
}

/** The basic credentials of the options: both parts, or neither. */
export function basicCredentials(options: ClientOptions): { username: string; password: string } | undefined {
  if (options.username === undefined && options.password === undefined) return undefined;
  if (typeof options.username !== "string" || typeof options.password !== "string") {
    throw new SdkError("options.username and options.password go together: pass both for HTTP basic authentication");
  }
  return { username: options.username, password: options.password };
}
