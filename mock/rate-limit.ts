// Request windows per token (fixed windows of a second, a minute, an hour and a day): a request over any limit is
// refused with 429 RATE_LIMIT_EXCEEDED and Retry-After; every answer reports the windows in _billing.requests.
export type WindowName = "second" | "minute" | "hour" | "day";
export type RateLimits = Partial<Record<WindowName, number>>;

export const WINDOWS: Readonly<Record<WindowName, number>> = { second: 1_000, minute: 60_000, hour: 3_600_000, day: 86_400_000 };
export const DEFAULT_RATE_LIMITS: Readonly<Record<WindowName, number>> = { second: 50, minute: 1_000, hour: 20_000, day: 200_000 };

export interface RequestWindows {
  limits: Record<WindowName, number>;
  current: Record<WindowName, number>;
  remaining: Record<WindowName, number>;
  next_possible_request_seconds: number;
}

interface Counter {
  start: number;
  count: number;
}

const NAMES = Object.keys(WINDOWS) as WindowName[];

export class RateLimiter {
  readonly #limits: Record<WindowName, number>;
  readonly #counters = new Map<string, Record<WindowName, Counter>>();
  readonly #now: () => number;

  constructor(limits: RateLimits = {}, now: () => number = Date.now) {
    this.#limits = { ...DEFAULT_RATE_LIMITS, ...limits };
    this.#now = now;
  }

  #countersOf(key: string): Record<WindowName, Counter> {
    const now = this.#now();
    let counters = this.#counters.get(key);
    if (!counters) {
      counters = Object.fromEntries(NAMES.map((n) => [n, { start: now, count: 0 }])) as Record<WindowName, Counter>;
      this.#counters.set(key, counters);
    }
    for (const name of NAMES) {
      const c = counters[name];
      if (now - c.start >= WINDOWS[name]) {
        c.start = now;
        c.count = 0;
      }
    }
    return counters;
  }

  /** Counts a request; returns the windows and, when refused, the seconds to wait. */
  hit(key: string): { allowed: boolean; retryAfterSeconds: number; windows: RequestWindows } {
    const counters = this.#countersOf(key);
    const now = this.#now();
    const full = NAMES.filter((n) => counters[n].count >= this.#limits[n]);
    if (full.length > 0) {
      const waitMs = Math.max(...full.map((n) => counters[n].start + WINDOWS[n] - now));
      const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
      return { allowed: false, retryAfterSeconds, windows: this.#windows(counters, retryAfterSeconds) };
    }
    for (const name of NAMES) counters[name].count++;
    return { allowed: true, retryAfterSeconds: 0, windows: this.#windows(counters, 0) };
  }

  #windows(counters: Record<WindowName, Counter>, next: number): RequestWindows {
    const current = Object.fromEntries(NAMES.map((n) => [n, counters[n].count])) as Record<WindowName, number>;
    const remaining = Object.fromEntries(NAMES.map((n) => [n, Math.max(0, this.#limits[n] - counters[n].count)])) as Record<
      WindowName,
      number
    >;
    return { limits: { ...this.#limits }, current, remaining, next_possible_request_seconds: next };
  }
}
