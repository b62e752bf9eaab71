// The soak: many jobs per language client through the mock with a share of every fault kind it has, in compressed
// time (the mock's holds, job durations and slow answers scaled down by its own options). This module holds the
// driver protocol and the judge, which cross-checks what the driver reported with the mock's request log; nothing
// here knows a language.
//
// Protocol: a driver reads one SoakConfig as JSON on stdin, runs `jobs` jobs with at most `concurrency` in flight
// through one client, and writes one SoakJob as a line of JSON per job on stdout. Job i runs in the mode
// modeOf(config, i) and sends the body soakBody(soakRef(config, i), mode): the reference in `pofid` is what ties the
// mock's log to the driver's report. "submit" submits and waits in one call (the runtime picks client_wait=false
// and polls, as the deadline is shorter than a hold); "held" does the same with client_wait=true in the body, so
// the mock holds the request and answers the payload or a 202; "start" starts the job, then waits for it (two calls).
import type { LoggedRequest } from "../../mock/index.js";

export interface SoakConfig {
  baseUrl: string;
  token: string;
  /** Prefix of the jobs' references (soakRef). */
  prefix: string;
  jobs: number;
  concurrency: number;
  /** Deadlines of the jobs' calls, in turn: job i's calls each get deadlinesMs[i % deadlinesMs.length]. */
  deadlinesMs: number[];
  pollMs: [number, number];
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxRetryAfterMs: number;
  pipeline: string;
  /** The modes of the jobs, in turn: job i runs modes[i % modes.length]. */
  modes: SoakMode[];
  /** Python only: the sync client on threads or the async client on one event loop. */
  mode?: "sync" | "async";
  /** Python only: the generated package's module. */
  module?: string;
}

export type SoakMode = "submit" | "held" | "start";

export interface SoakCall {
  op: "submit" | "start" | "wait";
  deadlineMs: number;
  /** Wall clock (ms since the epoch) when the call began. */
  startedAt: number;
  elapsedMs: number;
}

export interface SoakJob {
  ref: string;
  mode: SoakMode;
  ok: boolean;
  /** The error's kind, in the behaviour suite's terms plus "may-have-been-processed". */
  kind?: string;
  /** The job id of the result, or the one the error carries (null: none). */
  jobId?: string | null;
  /** Whether the result carried a payload. */
  hasData?: boolean;
  message?: string;
  calls: SoakCall[];
}

export function soakRef(config: Pick<SoakConfig, "prefix">, index: number): string {
  return `${config.prefix}-${String(index).padStart(5, "0")}`;
}

export function soakBody(ref: string, mode: SoakMode): Record<string, string | boolean> {
  return { template: "pdf_ai_split", pofid: ref, locale: "en_US", ...(mode === "held" && { client_wait: true }) };
}

export function deadlineOf(config: Pick<SoakConfig, "deadlinesMs">, index: number): number {
  return config.deadlinesMs[index % config.deadlinesMs.length] ?? 4_000;
}

export function modeOf(config: Pick<SoakConfig, "modes">, index: number): SoakMode {
  return config.modes[index % config.modes.length] ?? "submit";
}

/** How far past its deadline a call may end. */
export const WAIT_SLACK_MS = 1_000;
/**
 * Each driver also watches its own process: a timer every STALL_TICK_MS that fires STALL_MIN_MS or more late is a
 * stall (the event loop or the machine held every call back that long), reported in the last line as
 * `{"stalls": [[wall clock at its end, length in ms], ...]}`. The stalls overlapping a call extend its slack, so a
 * loaded machine does not fail a client that is not at fault.
 */
export const STALL_TICK_MS = 20;
export const STALL_MIN_MS = 50;
/** How much earlier than its Retry-After a request may follow the answer that carried it (timer granularity). */
export const RETRY_AFTER_SLACK_MS = 50;
/** Statuses that say a submission was refused without being processed: the only ones it may be sent again after. */
const REFUSED = new Set([429, 503]);
/** Kinds of error that say the job may exist without knowing its id. */
const MAY_EXIST = new Set(["job-may-exist", "may-have-been-processed"]);

export interface SoakReport {
  jobs: number;
  reported: number;
  ok: number;
  errors: Record<string, number>;
  /** Jobs the mock created, by submission. */
  created: number;
  requests: number;
  faults: Record<string, number>;
  faulted: number;
  /**
   * References the mock created more than one job for, and submissions sent again after an answer (or a dropped
   * connection) that does not say the first was refused unprocessed: a duplicate the service could have billed.
   */
  duplicates: string[];
  /** Jobs created whose outcome is an error that neither carries the job id nor says the job may exist. */
  lost: string[];
  /** Calls that ended later than their deadline plus WAIT_SLACK_MS, and requests sent after it. */
  overruns: string[];
  /** The largest amount by which a call ended past its deadline (negative: every call ended before it). */
  maxOverrunMs: number;
  /** The longest the driver's process stalled during a call that ended more than WAIT_SLACK_MS late. */
  maxStallMs: number;
  /** Requests sent again sooner than the Retry-After of the answer before them (same job, same operation). */
  earlyRetries: string[];
  /** Submissions the mock read for one job at most (retries of refused ones included). */
  maxSubmissionsPerJob: number;
  /**
   * Anything else wrong: unreported jobs, results without the created job's id or payload, unknown errors, the
   * token in an error's message.
   */
  wrong: string[];
}

/** A stall of a driver's process: [wall clock (ms since the epoch) at its end, its length in ms]. */
export type Stall = [number, number];

/** The total length of the stalls that overlap [from, to]. */
function stalledWithin(stalls: readonly Stall[], from: number, to: number): number {
  let total = 0;
  for (const [end, length] of stalls) if (end >= from && end - length <= to) total += length;
  return total;
}

export function judgeSoak(
  config: SoakConfig,
  jobs: readonly SoakJob[],
  log: readonly LoggedRequest[],
  stalls: readonly Stall[] = [],
): SoakReport {
  const refs = new Set(Array.from({ length: config.jobs }, (_, i) => soakRef(config, i)));
  const createdByRef = new Map<string, string[]>();
  const refOfJob = new Map<string, string>();
  const submissions = new Map<string, LoggedRequest[]>();
  const faults: Record<string, number> = {};
  let faulted = 0;
  const wrong: string[] = [];
  for (const entry of log) {
    if (entry.fault !== undefined) {
      faults[entry.fault] = (faults[entry.fault] ?? 0) + 1;
      faulted++;
    }
    if (entry.operationId === "addJob" && entry.fields?.pofid !== undefined) {
      submissions.set(entry.fields.pofid, [...(submissions.get(entry.fields.pofid) ?? []), entry]);
    }
    if (entry.operationId !== "addJob" || !entry.created || entry.jobId === undefined) continue;
    const ref = entry.fields?.pofid ?? "";
    if (!refs.has(ref)) wrong.push(`the mock created ${entry.jobId} for an unknown reference ${JSON.stringify(ref)}`);
    createdByRef.set(ref, [...(createdByRef.get(ref) ?? []), entry.jobId]);
    refOfJob.set(entry.jobId, ref);
  }
  const duplicates = [...createdByRef].filter(([, ids]) => ids.length > 1).map(([ref, ids]) => `${ref}: ${ids.join(", ")}`);
  for (const [ref, sent] of submissions) {
    const inOrder = [...sent].sort((a, b) => a.at - b.at);
    for (const first of inOrder.slice(0, -1)) {
      if (first.status !== undefined && REFUSED.has(first.status)) continue;
      const answer = first.status === undefined ? "a dropped connection" : `a ${first.status} answer`;
      duplicates.push(`${ref}: submitted again after ${answer}${first.fault === undefined ? "" : ` (fault ${first.fault})`}`);
    }
  }

  const lost: string[] = [];
  const overruns: string[] = [];
  const errors: Record<string, number> = {};
  let ok = 0;
  let maxOverrunMs = Number.NEGATIVE_INFINITY;
  let maxStallMs = 0;
  const lastAllowed = new Map<string, number>();
  const seen = new Set<string>();
  for (const job of jobs) {
    if (!refs.has(job.ref) || seen.has(job.ref)) {
      wrong.push(`${job.ref}: reported ${seen.has(job.ref) ? "twice" : "but never run"}`);
      continue;
    }
    seen.add(job.ref);
    const created = createdByRef.get(job.ref) ?? [];
    for (const call of job.calls) {
      const overrun = call.elapsedMs - call.deadlineMs;
      maxOverrunMs = Math.max(maxOverrunMs, overrun);
      const stalled = overrun > WAIT_SLACK_MS ? stalledWithin(stalls, call.startedAt, call.startedAt + call.elapsedMs) : 0;
      maxStallMs = Math.max(maxStallMs, stalled);
      if (overrun > WAIT_SLACK_MS + stalled) {
        overruns.push(
          `${job.ref}: ${call.op} took ${call.elapsedMs} ms of a ${call.deadlineMs} ms deadline` +
            (stalled > 0 ? ` (the driver's process stalled ${stalled} ms meanwhile)` : ""),
        );
      }
    }
    const last = job.calls.at(-1);
    if (last !== undefined) lastAllowed.set(job.ref, last.startedAt + last.deadlineMs + WAIT_SLACK_MS);
    if (job.ok) {
      ok++;
      if (created.length === 0) wrong.push(`${job.ref}: a result (${job.jobId}) for a job the mock never created`);
      else if (!created.includes(job.jobId ?? "")) wrong.push(`${job.ref}: result of ${job.jobId}, the mock created ${created.join(", ")}`);
      if (!job.hasData) wrong.push(`${job.ref}: a result without a payload`);
      continue;
    }
    if (job.message?.includes(config.token)) wrong.push(`${job.ref}: the error's message shows the token`);
    const kind = job.kind ?? "unknown";
    errors[kind] = (errors[kind] ?? 0) + 1;
    if (!/^(service|connection|deadline|malformed|job-may-exist|may-have-been-processed)$/.test(kind)) {
      wrong.push(`${job.ref}: an error of kind ${kind}: ${job.message ?? ""}`);
    }
    if (job.jobId != null && !created.includes(job.jobId)) {
      wrong.push(`${job.ref}: the error names ${job.jobId}, the mock created ${created.join(", ") || "none"}`);
    }
    if (job.jobId == null && !MAY_EXIST.has(kind)) {
      // Lost: the job exists, or the last submission the mock read got an answer (or none) that does not say it was
      // refused, so the caller cannot know that no job exists, and the error does not say so.
      const last = submissions.get(job.ref)?.at(-1);
      const answered = last === undefined ? "" : last.status === undefined ? "a dropped connection" : `a ${last.status} answer`;
      if (created.length > 0) {
        lost.push(
          `${job.ref}: job ${created.join(", ")} was created, the ${kind} error neither carries it nor says it may exist (${job.message ?? ""})`,
        );
      } else if (last !== undefined && !(last.status !== undefined && REFUSED.has(last.status))) {
        lost.push(
          `${job.ref}: its submission got ${answered}, the ${kind} error neither carries a job id nor says it may exist (${job.message ?? ""})`,
        );
      }
    }
  }
  for (const ref of refs) if (!seen.has(ref)) wrong.push(`${ref}: no outcome reported`);
  // No request of a job reached the mock after its last call's deadline (plus the slack), and none followed an
  // answer with Retry-After sooner than it asked.
  const earlyRetries: string[] = [];
  const previous = new Map<string, LoggedRequest>();
  for (const entry of [...log].sort((a, b) => a.at - b.at)) {
    const jobId = entry.params.job_id ?? entry.jobId;
    const ref = entry.fields?.pofid ?? (jobId === undefined ? undefined : refOfJob.get(jobId));
    if (ref === undefined) continue;
    const limit = lastAllowed.get(ref);
    if (limit !== undefined && entry.at > limit) {
      overruns.push(
        `${ref}: ${entry.method} ${entry.path} arrived ${entry.at - limit} ms after the last call's deadline plus ${WAIT_SLACK_MS} ms`,
      );
    }
    const key = `${ref} ${entry.operationId}`;
    const before = previous.get(key);
    const asked = Number(before?.retryAfter ?? Number.NaN) * 1000;
    if (before !== undefined && Number.isFinite(asked)) {
      const gap = entry.at - (before.endedAt ?? before.at);
      if (gap < asked - RETRY_AFTER_SLACK_MS) {
        earlyRetries.push(`${ref}: ${entry.method} ${entry.path} sent ${gap} ms after an answer with Retry-After ${before.retryAfter}`);
      }
    }
    previous.set(key, entry);
  }
  return {
    jobs: config.jobs,
    reported: seen.size,
    ok,
    errors,
    created: [...createdByRef.values()].reduce((n, ids) => n + ids.length, 0),
    requests: log.length,
    faults,
    faulted,
    duplicates,
    lost,
    overruns,
    earlyRetries,
    maxSubmissionsPerJob: Math.max(0, ...[...submissions.values()].map((sent) => sent.length)),
    maxOverrunMs: Number.isFinite(maxOverrunMs) ? maxOverrunMs : 0,
    maxStallMs,
    wrong,
  };
}
