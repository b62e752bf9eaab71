// Deadlines, abortable sleeps and jitter shared by retries, pacing and polling.
import { AbortedError, DeadlineExceededError } from "./errors.js";

/** One overall deadline and the caller's signal, carried through every request and sleep of a call or a wait. */
export interface Budget {
  /** Absolute time (Date.now() based) after which nothing is sent. */
  deadlineAt: number;
  /** The deadline length, for messages. */
  deadlineMs: number;
  signal: AbortSignal | undefined;
  jobId?: string;
}

export function budget(deadlineMs: number, signal: AbortSignal | undefined): Budget {
  return { deadlineAt: Date.now() + deadlineMs, deadlineMs, signal };
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
