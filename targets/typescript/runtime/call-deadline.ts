// The deadline and the caller's signal of one call, applied to its requests in flight. In Node 20 a signal handed
// to fetch costs about 10 µs a request (creating it, and undici tying it to its own with a WeakRef and a
// FinalizationRegistry entry; measured with scripts/bench), some 4% of a loopback GET. So a call gets a signal of
// its own (AbortSignal.timeout, joined with the caller's by AbortSignal.any) only when its deadline is short enough to
// cut a request short. Either way the call ends at its deadline
// and on abort, and nothing is sent after either: checkBudget runs before every request, and no sleep outlasts the
// deadline.
import { DeadlineExceededError } from "./errors.js";
import { DEFAULTS } from "./options.js";
import { type Budget, jobOption } from "./timing.js";

/**
 * Deadlines shorter than this abort the request in flight. Longer ones (the generic 600 s of a call, 1 h of a wait)
 * end the call on time and let a request still in flight finish on its own: the transport's own timeouts (Node's
 * fetch gives up on a silent server after 300 s; a hold dispatcher waits out the description's longest hold) end it.
 */
export const ABORT_IN_FLIGHT_BELOW_MS = DEFAULTS.deadlineMs;

/** setTimeout's largest delay; it fires at once beyond it. A longer deadline (Infinity included) cannot pass during a call. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export interface CallDeadline {
  /** The signal fetch gets: our controller's, else the caller's as it is, else none. */
  readonly signal: AbortSignal | undefined;
  /** The request, or DeadlineExceededError at the deadline when nothing aborts the request itself. */
  settle<T extends { response: Response }>(request: Promise<T>): Promise<T>;
}

export function callDeadline(b: Budget): CallDeadline {
  // No controller: the caller's signal goes to fetch unchanged, and the deadline settles the call without aborting.
  // Methods, not arrow functions: a method keeps its name without a defineProperty per call where names are kept
  // (tsx, esbuild's keepNames).
  if (b.deadlineMs >= ABORT_IN_FLIGHT_BELOW_MS) {
    return {
      signal: b.signal,
      settle<T extends { response: Response }>(request: Promise<T>) {
        return settleWithin(b, request);
      },
    };
  }
  // The deadline (AbortSignal.timeout) and the caller's signal, combined with AbortSignal.any, abort the request in
  // flight; the transport tells them apart by whether the caller's signal fired. A streamed body stays tied to both,
  // as the download's own guard is (download.ts).
  const timeout = AbortSignal.timeout(Math.max(0, b.deadlineAt - Date.now()));
  return {
    signal: b.signal === undefined ? timeout : AbortSignal.any([b.signal, timeout]),
    settle(request) {
      return request;
    },
  };
}

// One promise and one timer per request, both gone when it settles: cheaper than racing a deadline promise.
function settleWithin<T extends { response: Response }>(b: Budget, request: Promise<T>): Promise<T> {
  const ms = b.deadlineAt - Date.now();
  if (ms > MAX_TIMER_MS) return request;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new DeadlineExceededError(b.deadlineMs, jobOption(b)));
      // A request that answers after the deadline: release a body nobody will read.
      request.then(discardBody, ignore);
    }, ms);
    request.then(
      (outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function discardBody(late: { response: Response }): void {
  if (!late.response.bodyUsed) late.response.body?.cancel().catch(ignore);
}

function ignore(): void {}
