// Fault injection, per request (header `x-mock-fault: <kind>`, optionally `x-mock-fault-times: n` to fail only the
// first n attempts of the same idempotency key or request signature, `x-mock-fault-delay-ms` for slow headers)
// or per run (rules in the options or set later with setFaults; a rule with a rate hits that share of the requests
// it matches, drawn from the mock's random source).
export const FAULT_KINDS = [
  "429",
  "500",
  "502",
  "503",
  "reset-before-body",
  "reset-after-body",
  "slow-headers",
  "trickle",
  "malformed-json",
  "never-finishes",
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  kind: FaultKind;
  /** Only these operations (operationId); all when absent. */
  operations?: readonly string[];
  /** Only the first n matching requests; every matching request when absent. */
  times?: number;
  /** Delay of slow-headers, or the time trickle spreads the body over, in ms (default: the mock's slowHeadersMs). */
  delayMs?: number;
  /**
   * The share (0..1) of the matching requests this rule hits, drawn at random: one draw per request, which falls
   * into at most one rule's share, so the rates of a run's rules add up. Every matching request when absent.
   */
  rate?: number;
}

export interface ChosenFault {
  kind: FaultKind;
  delayMs?: number;
}

export function isFaultKind(value: string): value is FaultKind {
  return (FAULT_KINDS as readonly string[]).includes(value);
}

export class Faults {
  #rules: { rule: FaultRule; used: number }[] = [];
  readonly #attempts = new Map<string, number>();
  readonly #random: () => number;

  /** `random` gives numbers in [0, 1) for the rules with a rate (default Math.random). */
  constructor(rules: readonly FaultRule[] = [], random: () => number = Math.random) {
    this.#random = random;
    this.set(rules);
  }

  set(rules: readonly FaultRule[]): void {
    this.#rules = rules.map((rule) => ({ rule, used: 0 }));
  }

  /**
   * The fault for a request: its header first, then the run's rules. `signature` identifies repeated attempts of
   * the same request (its idempotency key, else method, path and token).
   */
  choose(operationId: string, headers: Headers, signature: string): ChosenFault | undefined {
    const wanted = headers.get("x-mock-fault")?.trim();
    if (wanted !== undefined && wanted !== "") {
      if (!isFaultKind(wanted)) return undefined;
      const times = Number(headers.get("x-mock-fault-times") ?? "");
      if (Number.isFinite(times) && times > 0) {
        const key = `${wanted}|${signature}`;
        const seen = this.#attempts.get(key) ?? 0;
        this.#attempts.set(key, seen + 1);
        if (seen >= times) return undefined;
      }
      const delay = Number(headers.get("x-mock-fault-delay-ms") ?? "");
      return { kind: wanted, ...(Number.isFinite(delay) && delay > 0 && { delayMs: delay }) };
    }
    let draw: number | undefined;
    let share = 0;
    for (const entry of this.#rules) {
      const { rule } = entry;
      if (rule.operations && !rule.operations.includes(operationId)) continue;
      if (rule.times !== undefined && entry.used >= rule.times) continue;
      if (rule.rate !== undefined) {
        draw ??= this.#random();
        const from = share;
        share += Math.max(0, rule.rate);
        if (draw < from || draw >= share) continue;
      }
      entry.used++;
      return { kind: rule.kind, ...(rule.delayMs !== undefined && { delayMs: rule.delayMs }) };
    }
    return undefined;
  }
}

/** A seeded source of numbers in [0, 1) (mulberry32), so that a run's random faults and durations repeat. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
