// The TypeScript driver: runs one case through the generated client (generated/index.ts) and reports the outcome
// in the suite's neutral terms. A case with a log setting runs alone: its client is made with the log variable set in
// process.env, and what the client logs to its default logger, console, is captured until the case ends.
import { createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { formatWithOptions, inspect } from "node:util";
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  createClient,
  DeadlineExceededError,
  type Download,
  downloadFile,
  downloadJobFile,
  errorClasses,
  getJob,
  InternalServerError,
  JobFailedError,
  JobMayExistError,
  MalformedResponseError,
  MayHaveBeenProcessedError,
  NotFoundError,
  paginateGetAuditCenter,
  PermissionDeniedError,
  RateLimitError,
  type RequestOptions,
  SdkError,
  ServiceError,
  startJob,
  submitJob,
  testWebhook,
  UnprocessableEntityError,
  waitJob,
} from "../../../generated/index.js";
import type { Catch, DriverCase, DriverResult } from "../scenario.js";

/** The classes each way of catching an error (CATCHES) names; "code" is the class errorClasses gives its code. */
const CATCH_CLASSES: readonly [Exclude<Catch, "code">, abstract new (...args: never[]) => unknown][] = [
  ["service", ServiceError],
  ["bad-request", BadRequestError],
  ["authentication", AuthenticationError],
  ["permission-denied", PermissionDeniedError],
  ["not-found", NotFoundError],
  ["conflict", ConflictError],
  ["unprocessable-entity", UnprocessableEntityError],
  ["rate-limit", RateLimitError],
  ["internal-server", InternalServerError],
  ["may-have-been-processed", MayHaveBeenProcessedError],
  ["job-may-exist", JobMayExistError],
];

function caughtAs(error: unknown): Catch[] {
  const caught: Catch[] = CATCH_CLASSES.filter(([, c]) => error instanceof c).map(([name]) => name);
  const code = error instanceof ServiceError ? error.code : undefined;
  const ofCode = code === undefined ? undefined : (errorClasses as Readonly<Record<string, unknown>>)[code];
  if (typeof ofCode === "function" && error instanceof ofCode) caught.push("code");
  return caught;
}

type Outcome = Pick<DriverResult, "jobId" | "bytes" | "status" | "requestId">;
/** What a paged read yielded so far: reported with its error too. */
type Progress = Pick<DriverResult, "items" | "pages">;

/** Cases with a log setting, one after the other: the environment and console are the process's. */
let logged: Promise<unknown> = Promise.resolve();

export function runCase(c: DriverCase): Promise<DriverResult> {
  if (c.log === undefined) return runWith(c, clientOf(c));
  const run = logged.then(() => runLogged(c, c.log as NonNullable<DriverCase["log"]>));
  logged = run.catch(() => undefined);
  return run;
}

const CONSOLE_METHODS = ["debug", "info", "warn", "error", "log"] as const;

async function runLogged(c: DriverCase, log: NonNullable<DriverCase["log"]>): Promise<DriverResult> {
  const lines: string[] = [];
  const saved = CONSOLE_METHODS.map((name) => [name, console[name]] as const);
  for (const name of CONSOLE_METHODS) {
    console[name] = (...args: unknown[]) => {
      lines.push(formatWithOptions({ breakLength: Number.POSITIVE_INFINITY, depth: 6 }, ...args));
    };
  }
  try {
    const before = process.env[log.variable];
    setVariable(log.variable, log.value);
    let client: ReturnType<typeof createClient>;
    try {
      client = clientOf(c);
    } finally {
      setVariable(log.variable, before ?? null);
    }
    return { ...(await runWith(c, client)), logs: lines };
  } finally {
    for (const [name, fn] of saved) console[name] = fn;
  }
}

function setVariable(name: string, value: string | null): void {
  if (value === null) delete process.env[name];
  else process.env[name] = value;
}

function clientOf(c: DriverCase): ReturnType<typeof createClient> {
  const made = createClient({
    baseUrl: c.baseUrl,
    token: c.token,
    secrets: c.client.secrets,
    pollIntervalMs: { min: c.client.pollMs[0], max: c.client.pollMs[1] },
    retry: {
      maxRetries: c.client.maxRetries,
      baseDelayMs: c.client.baseDelayMs,
      maxDelayMs: c.client.maxDelayMs,
      maxRetryAfterMs: c.client.maxRetryAfterMs,
    },
  });
  // A scenario of client copies calls through a copy made with other default headers.
  return c.copy === undefined ? made : made.withOptions({ headers: c.copy.headers });
}

async function runWith(c: DriverCase, client: ReturnType<typeof createClient>): Promise<DriverResult> {
  const progress: Progress = {};
  const startedAt = Date.now();
  try {
    const outcome = await act(client, c, progress);
    return { name: c.name, ok: true, ...outcome, ...progress, texts: [], startedAt, elapsedMs: Date.now() - startedAt };
  } catch (error) {
    const elapsedMs = Date.now() - startedAt;
    return { name: c.name, ok: false, ...describe(error), ...progress, startedAt, elapsedMs };
  }
}

async function act(client: ReturnType<typeof createClient>, c: DriverCase, progress: Progress): Promise<Outcome> {
  const a = c.action;
  const deadlineMs = a.deadlineMs;
  switch (a.kind) {
    case "submit": {
      const result = await submitJob(client, c.pipeline, c.body, { deadlineMs });
      return { jobId: result.jobId };
    }
    case "start": {
      const handle = await startJob(client, c.pipeline, c.body, { deadlineMs });
      return { jobId: handle.jobId };
    }
    case "wait": {
      const result = await waitJob(client, a.jobId, { deadlineMs });
      return { jobId: result.jobId };
    }
    case "read": {
      const { meta } = await getJob(client, { job_id: a.jobId }, { deadlineMs, ...callOptions(c) });
      return { status: meta.status, requestId: meta.requestId ?? null };
    }
    case "write": {
      const { meta } = await testWebhook(client, { subscription_id: "sub_1" }, { deadlineMs, ...callOptions(c) });
      return { status: meta.status, requestId: meta.requestId ?? null };
    }
    case "download": {
      const download =
        a.target === "token"
          ? await downloadJobFile(client, { token: a.path }, { deadlineMs })
          : await downloadFile(client, `${a.target === "foreign-url" ? c.foreignUrl : c.baseUrl}${a.path}`, { deadlineMs });
      return { bytes: a.toFile ? await saveToFile(download) : await countBytes(download) };
    }
    case "list": {
      const items: unknown[] = [];
      progress.items = items;
      const paged = paginateGetAuditCenter(client, { limit: a.pageSize }, { deadlineMs });
      if (a.by === "items") {
        for await (const item of paged) items.push(item);
        return {};
      }
      progress.pages = 0;
      for await (const page of paged.pages()) {
        progress.pages++;
        items.push(...page.items);
      }
      return {};
    }
  }
}

/** The scenario's per-call options as RequestOptions. */
function callOptions(c: DriverCase): RequestOptions {
  const call = c.call ?? {};
  return {
    ...(call.headers && { headers: call.headers }),
    ...(call.query && { query: call.query }),
    ...(call.body && { extraBody: call.body }),
    ...(call.maxRetries !== undefined && { maxRetries: call.maxRetries }),
  };
}

async function countBytes(download: Download): Promise<number> {
  let bytes = 0;
  for await (const chunk of Readable.fromWeb(download.stream as WebReadableStream<Uint8Array>)) bytes += (chunk as Uint8Array).length;
  return bytes;
}

async function saveToFile(download: Download): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), "behaviour-"));
  try {
    const file = join(dir, download.fileName ?? "download");
    await pipeline(Readable.fromWeb(download.stream as WebReadableStream<Uint8Array>), createWriteStream(file));
    return (await stat(file)).size;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function kindOf(error: unknown): string {
  if (error instanceof JobMayExistError) return "job-may-exist";
  if (error instanceof MayHaveBeenProcessedError) return "may-have-been-processed";
  if (error instanceof JobFailedError) return "job-failed";
  if (error instanceof MalformedResponseError) return "malformed";
  if (error instanceof DeadlineExceededError) return "deadline";
  if (error instanceof ConnectionError) return "connection";
  if (error instanceof ServiceError) return "service";
  // The root class itself, not a subclass: the runtime's refusal of the call's own arguments.
  if (error instanceof Error && error.constructor === SdkError) return "invalid-argument";
  return `other:${error instanceof Error ? error.name : typeof error}`;
}

function describe(error: unknown): Omit<DriverResult, "name" | "ok" | "startedAt" | "elapsedMs"> {
  const fields = (typeof error === "object" && error !== null ? error : {}) as Record<string, unknown>;
  const texts = [String(error), inspect(error, { depth: 8 })];
  try {
    texts.push(JSON.stringify(error) ?? "");
  } catch {
    // a cyclic value is not something a user would print either
  }
  return {
    kind: kindOf(error),
    status: typeof fields.status === "number" ? fields.status : null,
    code: typeof fields.code === "string" ? fields.code : null,
    jobId: typeof fields.jobId === "string" ? fields.jobId : null,
    retryAfterMs: typeof fields.retryAfterMs === "number" ? fields.retryAfterMs : null,
    requestId: typeof fields.requestId === "string" ? fields.requestId : null,
    caughtAs: caughtAs(error),
    texts,
  };
}
