// Deadlines, abortable sleeps and jitter shared by retries, pacing and polling.
import { AbortedError, DeadlineExceededError, SdkError } from "./errors.js";

/** One overall deadline and the caller's signal, carried through every request and sleep of a call or a wait. */
export interface Budget {
  /** Absolute time (Date.now() based) after which nothing is sent. */
  deadlineAt: number;
  /** The deadline length, for messages. */
  deadlineMs: number;
  signal: AbortSignal | undefined;
  jobId?: string;
  /** Retries after the first attempt of each request, instead of the client's (a per-call option). */
  maxRetries?: number;
}

export function budget(deadlineMs: number, signal: AbortSignal | undefined): Budget {
  return { deadlineAt: Date.now() + deadlineMs, deadlineMs, signal };
}

/** The per-call options a budget is made of; `timeout` is another name for deadlineMs (deadlineMs wins). */
export interface CallLimits {
  signal?: AbortSignal | undefined;
  deadlineMs?: number | undefined;
  timeout?: number | undefined;
  maxRetries?: number | undefined;
}

/** The budget of one call from its options, with the client's deadline as the default. */
export function budgetFor(options: CallLimits, defaultDeadlineMs: number): Budget {
  const deadlineMs = options.deadlineMs ?? options.timeout;
  if (deadlineMs !== undefined && !(deadlineMs > 0)) {
    throw new SdkError(`${options.deadlineMs === undefined ? "timeout" : "deadlineMs"} must be a positive number of milliseconds`);
  }
  const b = budget(deadlineMs ?? defaultDeadlineMs, options.signal);
  if (options.maxRetries !== undefined) {
    if (!(Number.isInteger(options.maxRetries) && options.maxRetries >= 0))
      throw new SdkError("maxRetries must be a whole number, 0 or more");
    b.maxRetries = options.maxRetries;
  }
  return b;
}

/** Throws when the budget is spent; call it before sending anything. */
export function checkBudget(b: Budget): void {
  if (b.signal?.aborted) throw new AbortedError(jobOption(b));
  if (Date.now() >= b.deadlineAt) throw new DeadlineExceededError(b.deadlineMs, jobOption(b));
}

/**
 * Sleeps `ms`, or throws at once when the sleep would end after the deadline (the request after it could not be
 * sent anyway), or throws AbortedError as soon as the signal fires.
 */
export function sleepWithin(b: Budget, ms: number): Promise<void> {
  checkBudget(b);
  if (Date.now() + ms >= b.deadlineAt) return Promise.reject(new DeadlineExceededError(b.deadlineMs, jobOption(b)));
  return sleepFor(b, ms);
}

/** At most this long before the deadline, a wait whose next regular poll would come too late sends its last one. */
export const LAST_POLL_BEFORE_DEADLINE_MS = 1_000;

/**
 * The sleep before a poll. When the regular poll would fall after the deadline, one last poll is sent shortly
 * before it (unless that would follow the previous poll by less than half an interval), and the wait then ends at the
 * deadline itself with DeadlineExceededError: it never gives up a whole interval early.
 */
export async function sleepBeforePoll(b: Budget, ms: number): Promise<void> {
  checkBudget(b);
  const left = b.deadlineAt - Date.now();
  const reserve = Math.min(LAST_POLL_BEFORE_DEADLINE_MS, ms / 4);
  if (ms < left - reserve) return sleepFor(b, ms);
  if (left - reserve >= ms / 2) return sleepFor(b, left - reserve);
  await sleepFor(b, left);
  throw new DeadlineExceededError(b.deadlineMs, jobOption(b));
}

/** Sleeps `ms`; throws AbortedError as soon as the signal fires. */
function sleepFor(b: Budget, ms: number): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const signal = b.signal;
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError(jobOption(b)));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A value drawn uniformly from [min, max]. */
export function jitter(range: { min: number; max: number }, random: () => number = Math.random): number {
  return range.min + random() * (range.max - range.min);
}

export function jobOption(b: Budget): { jobId?: string } {
  return b.jobId === undefined ? {} : { jobId: b.jobId };
}
