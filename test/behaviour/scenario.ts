// The shape of scenarios.json, the driver protocol, and loading. Scenarios are data so that every language's driver
// is judged by the same file; nothing here knows a language.
import { readFileSync } from "node:fs";

/** What the scenario server does with one request. */
export interface Step {
  /** HTTP status (default 200). */
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as it is; any other JSON value as JSON. `{token}`, `{secret}`, `{jobId}` are replaced in strings (header values too). */
  body?: unknown;
  /** Wait before the status line. */
  delayMs?: number;
  /** Read the request, then reset the connection without answering. */
  reset?: boolean;
  /** Send the headers, then the body one chunk of `bytes` every `everyMs`. */
  trickle?: { bytes: number; everyMs: number };
  /** 302 to this path, on the other origin ("foreign") or this one ("same"). */
  redirect?: { to: "foreign" | "same"; path: string };
  /** Play this step for this many requests (default 1); the last step of a list repeats for ever. */
  times?: number;
}

export interface ClientSettings {
  pollMs?: [number, number];
  maxRetries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  maxRetryAfterMs?: number;
  /** Extra secrets the client is told to redact (besides its token). */
  secrets?: string[];
}

/** Options of the one call a scenario makes, besides its deadline (read and write actions). */
export interface CallSettings {
  /** Headers added to this call's requests. */
  headers?: Record<string, string>;
  /** Query parameters added to this call's requests. */
  query?: Record<string, string>;
  /** Members added to this call's JSON body. */
  body?: Record<string, string>;
  /** Retries after the first attempt, for this call instead of the client's. */
  maxRetries?: number;
}

/** The call goes through a copy of the client made with these other defaults. */
export interface CopySettings {
  /** Headers the copy adds to every request. */
  headers: Record<string, string>;
}

export type Action =
  | { kind: "submit"; deadlineMs: number }
  | { kind: "start"; deadlineMs: number }
  | { kind: "wait"; jobId: string; deadlineMs: number }
  | { kind: "read"; jobId: string; deadlineMs: number }
  /** A JSON POST that is neither idempotent nor a job submission (the webhook test operation), sent once. */
  | { kind: "write"; deadlineMs: number }
  | { kind: "download"; target: "token" | "base-url" | "foreign-url"; path: string; deadlineMs: number; toFile?: boolean }
  /**
   * The paged read (the operation the description states pagination for), through the generated auto-paging
   * function with this page size, its deadline for the whole iteration; over its items, or over its pages.
   */
  | { kind: "list"; pageSize: number; deadlineMs: number; by: "items" | "pages" };

/**
 * Error kinds every driver maps its classes to. "invalid-argument" is a call refused before sending for its own
 * arguments: the SDK's root error class itself in TypeScript and Python (not a subclass), ConfigError in Go.
 * "may-have-been-processed" is a write that may not be sent twice and failed after sending (no job submission).
 */
export type ErrorKind =
  | "service"
  | "connection"
  | "deadline"
  | "job-may-exist"
  | "may-have-been-processed"
  | "job-failed"
  | "malformed"
  | "invalid-argument";

/**
 * What an error is caught as, in every language: "service" by the service base (instanceof ServiceError, except
 * ServiceError, errors.As with a *ServiceError); a status class by that class (Go: errors.Is with its sentinel);
 * "code" by the generated class of its code (Go: errors.Is with the code's constant); "may-have-been-processed" and
 * "job-may-exist" by those classes.
 */
export const CATCHES = [
  "service",
  "bad-request",
  "authentication",
  "permission-denied",
  "not-found",
  "conflict",
  "unprocessable-entity",
  "rate-limit",
  "internal-server",
  "code",
  "may-have-been-processed",
  "job-may-exist",
] as const;
export type Catch = (typeof CATCHES)[number];

export interface Expectation {
  outcome: "ok" | ErrorKind;
  status?: number;
  code?: string;
  /** A string: the error or result carries this job id. null: it carries none. */
  jobId?: string | null;
  /** Requests the main origin received. */
  requests?: number;
  /** Requests the other origin received. */
  foreignRequests?: number;
  minMs?: number;
  maxMs?: number;
  /** The error carries the Retry-After it was given, in ms. */
  retryAfterMs?: number;
  /** Bytes of a download. */
  bytes?: number;
  /** Whether the other origin saw an Authorization header. */
  foreignAuthorization?: boolean;
  /** Whether every request to the main origin carried Authorization. */
  authorization?: boolean;
  /** Form fields the first request's multipart body holds (name -> value). */
  sentFields?: Record<string, string>;
  /** Every way the error is caught (CATCHES), exactly: the driver reports no other. */
  caughtAs?: Catch[];
  /** Header values (names in lower case) every request to the main origin carried. */
  receivedHeaders?: Record<string, string>;
  /** Query parameters every request to the main origin carried. */
  receivedQuery?: Record<string, string>;
  /** Members the first request's JSON body holds. */
  sentJson?: Record<string, unknown>;
  /** The request id the result's (or the error's) metadata reads back. */
  requestId?: string;
  /** For each list, some log line holds all its words (ignoring case). */
  logged?: string[][];
  /** Words no log line holds (ignoring case). */
  notLogged?: string[];
  /** The client logged no line at all. */
  silent?: boolean;
  /** The items a paged read yielded, in order, exactly (before its error, when it fails). */
  items?: unknown[];
  /** How many pages a read over pages yielded. */
  pages?: number;
  /** Query parameters each request to the main origin carried, request by request (others may be there too). */
  queries?: Record<string, string>[];
  /** Words an error text the driver reports holds, each of them (a field's name, the operation's id...). */
  mentions?: string[];
}

/** Values of the log environment variable; "unset" leaves it out of the client's environment. */
export type LogSetting = "debug" | "info" | "warn" | "error" | "off" | "unset";

export interface Scenario {
  name: string;
  group:
    | "submission"
    | "polling"
    | "deadline"
    | "retry"
    | "redirect"
    | "redaction"
    | "start"
    | "download"
    | "arguments"
    | "errors"
    | "options"
    | "logging"
    | "pagination"
    | "fields";
  about: string;
  /** The body a submission sends (default: BODY). */
  body?: Record<string, string>;
  client?: ClientSettings;
  call?: CallSettings;
  copy?: CopySettings;
  /** The log environment variable of the client's process; the driver reports what the client logged. */
  log?: LogSetting;
  action: Action;
  steps: Step[];
  foreignSteps?: Step[];
  expect: Expectation;
}

/** One case as a driver receives it (a line of JSON on its stdin). */
export interface DriverCase {
  name: string;
  baseUrl: string;
  foreignUrl: string;
  token: string;
  client: Required<ClientSettings>;
  /** Options of the call itself (read and write actions), when the scenario sets some. */
  call?: CallSettings;
  /** When set, the call goes through a copy of the client made with these defaults. */
  copy?: CopySettings;
  action: Action;
  /** Pipeline slug of submissions and the body sent. */
  pipeline: string;
  body: Record<string, string>;
  /**
   * The client starts with the log environment variable (named from the description, as the generated code reads it)
   * set to `value`, or without it when `value` is null, and the driver reports every entry the client logged (see
   * DriverResult.logs).
   */
  log?: { variable: string; value: string | null };
}

/** What a driver reports for one case. */
export interface DriverResult {
  name: string;
  ok: boolean;
  kind?: string;
  /** HTTP status of the error, or of the answer a successful result came from. */
  status?: number | null;
  code?: string | null;
  jobId?: string | null;
  retryAfterMs?: number | null;
  bytes?: number | null;
  /** The request id of the result's metadata (or the error's); null when it has none. */
  requestId?: string | null;
  /** Every way of CATCHES the error is caught as. */
  caughtAs?: string[];
  /** The items a paged read yielded, in order: all of them, or those before its error. */
  items?: unknown[] | null;
  /** The pages a read over pages yielded. */
  pages?: number | null;
  /** Every text of the error a user could see: message, repr, stack or traceback, causes, bodies. */
  texts: string[];
  /**
   * For a case with `log`: every entry the client logged, as a user would see it: the lines it wrote to stderr, or
   * one text per call of its default logger (console in TypeScript).
   */
  logs?: string[];
  /** Wall clock (ms since the epoch) when the call began, and its length. */
  startedAt: number;
  elapsedMs: number;
}

/**
 * The driver contract, as driver-contract.schema.json states it for drivers in any language: the request a driver
 * reads (its cases; a program also gets `module` and `mode`, see docs/adding-a-language.md) and the results it answers.
 */
export interface DriverContract {
  readonly cases: DriverCase[];
  readonly results: DriverResult[];
}

export const TOKEN = "svc_sk_behaviourTOKEN4f7a";
export const SECRET = "configured-secret-9c2e";
export const PIPELINE = "workflow";
/** The body a submission sends unless its scenario gives another. */
export const BODY: Readonly<Record<string, string>> = { template: "pdf_ai_split", pofid: "POF-1" };
export const DEFAULT_CLIENT: Required<ClientSettings> = {
  pollMs: [20, 40],
  maxRetries: 3,
  baseDelayMs: 20,
  maxDelayMs: 100,
  maxRetryAfterMs: 60_000,
  secrets: [],
};

export function loadScenarios(): Scenario[] {
  const scenarios = JSON.parse(readFileSync(new URL("./scenarios.json", import.meta.url), "utf8")) as Scenario[];
  const names = new Set<string>();
  for (const s of scenarios) {
    if (names.has(s.name)) throw new Error(`scenarios.json: two scenarios named ${s.name}`);
    names.add(s.name);
  }
  return scenarios;
}
