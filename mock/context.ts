// What every operation handler sees: the shared state of one mock and the decoded request.
import type { Operation } from "../generator/ir/index.js";
import type { FaultKind, FaultRule } from "./faults.js";
import type { JobStore } from "./jobs.js";
import type { Account, Ledger, LedgerOptions } from "./ledger.js";
import type { MockModel } from "./model.js";
import type { RateLimits, RequestWindows } from "./rate-limit.js";
import type { TokenOptions } from "./auth.js";
import type { Validator } from "./validate.js";
import type { WebhookOptions, Webhooks } from "./webhooks.js";

export interface MockOptions extends WebhookOptions, LedgerOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** How long a submission with client_wait=true is held before the 202 (default 2000 ms). */
  holdMs?: number;
  /**
   * Simulated duration of a job (default 500 ms), or a range [min, max] each job draws its duration from; a request
   * can set its own with `x-mock-job-duration-ms`.
   */
  jobDurationMs?: number | readonly [number, number];
  /** Seed of the mock's random source (fault rules with a rate, job durations from a range); random when absent. */
  seed?: number;
  /** Keep a log of every request to the description's operations (requestLog(), GET /latest/_mock/requests). */
  recordRequests?: boolean;
  /** max_wait_seconds of a 202 (default: the description's maxHoldSeconds of the submit operation). */
  maxWaitSeconds?: number;
  tokens?: TokenOptions;
  rateLimits?: RateLimits;
  /** Faults of the whole run (FaultRule.rate for a share of the requests). */
  faults?: readonly FaultRule[];
  /** Delay of the slow-headers fault (default 1500 ms). */
  slowHeadersMs?: number;
  /** Check every JSON answer against the IR before sending it; a mismatch becomes 500 (default true). */
  validateResponses?: boolean;
  /** Largest request body in bytes (default 16 MiB); larger ones get 413 without being held in memory. */
  maxBodyBytes?: number;
  /** A generated/ folder other than the repository's. */
  generatedDir?: string;
  /** Receives one line per request and the startup line (default: silent). */
  log?: (line: string) => void;
}

/** One request to an operation of the description, as the request log keeps it. */
export interface LoggedRequest {
  /** Order of arrival, from 1. */
  seq: number;
  /** Wall clock (ms) when the request arrived, and when its answer was sent or its connection dropped. */
  at: number;
  endedAt?: number;
  method: string;
  path: string;
  operationId: string;
  /** The path parameters, as sent (read before any fault, so a refused request has them too). */
  params: Record<string, string>;
  idempotencyKey?: string;
  fault?: FaultKind;
  /** Status of the answer; absent when the connection was dropped without one. */
  status?: number;
  /** The answer's Retry-After header. */
  retryAfter?: string;
  /** The job the request created (a submission) or named (a poll). */
  jobId?: string;
  /** Whether the request created that job. */
  created?: boolean;
  /** The string fields of a form body, as sent (absent when the connection was dropped before it was read). */
  fields?: Record<string, string>;
  /** The file parts of a multipart body, in order: each field's name as sent, the part's file name, type, size and SHA-256. */
  files?: LoggedFile[];
}

/** A file part as the mock received it; its bytes are not kept, their SHA-256 (hex) is. */
export interface LoggedFile {
  field: string;
  name: string;
  type: string;
  size: number;
  sha256: string;
}

export interface MockStats {
  /** Requests by operationId (`unmatched` for paths the description does not have). */
  requests: Record<string, number>;
  requestsTotal: number;
  /** Job submissions whose body the mock read completely. */
  submissions: number;
  jobsCreated: number;
  faults: Partial<Record<FaultKind, number>>;
  /** Answers by HTTP status (faults that close the connection send none). */
  responses: Record<string, number>;
  /** Error answers by code. */
  errors: Record<string, number>;
  /** Answers the mock produced that did not match the IR (each was replaced by a 500). */
  invalidResponses: string[];
  webhooks: { attempts: number; delivered: number; failed: number; blocked: number };
}

export function emptyStats(webhookCounters: MockStats["webhooks"]): MockStats {
  return {
    requests: {},
    requestsTotal: 0,
    submissions: 0,
    jobsCreated: 0,
    faults: {},
    responses: {},
    errors: {},
    invalidResponses: [],
    webhooks: webhookCounters,
  };
}

export interface MockContext {
  model: MockModel;
  validator: Validator;
  jobs: JobStore;
  ledger: Ledger;
  webhooks: Webhooks;
  options: MockOptions;
  stats: MockStats;
  /** http://127.0.0.1:<port>/latest */
  baseUrl: string;
  /** The mock's random source (seeded by options.seed). */
  random: () => number;
}

export interface Call {
  operation: Operation;
  /** Path and query parameters after validation. */
  params: Record<string, unknown>;
  headers: Headers;
  raw: Uint8Array;
  token: string | undefined;
  account: Account | undefined;
  windows: RequestWindows | undefined;
  startedAt: number;
  neverFinishes: boolean;
  /** The request's entry in the request log, when the mock keeps one. */
  log?: LoggedRequest;
}
