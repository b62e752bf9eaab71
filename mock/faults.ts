// Fault injection, per request (header `x-mock-fault: <kind>`, optionally `x-mock-fault-times: n` to fail only the
// first n attempts of the same idempotency key or request signature, `x-mock-fault-delay-ms` for slow headers)
// or per run (rules in the options or set later with setFaults).
export const FAULT_KINDS = [
  "500",
  "502",
  "503",
  "reset-before-body",
  "reset-after-body",
  "slow-headers",
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
  /** Delay of slow-headers in ms (default: the mock's slowHeadersMs). */
  delayMs?: number;
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

  constructor(rules: readonly FaultRule[] = []) {
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
    for (const entry of this.#rules) {
      const { rule } = entry;
      if (rule.operations && !rule.operations.includes(operationId)) continue;
      if (rule.times !== undefined && entry.used >= rule.times) continue;
      entry.used++;
      return { kind: rule.kind, ...(rule.delayMs !== undefined && { delayMs: rule.delayMs }) };
    }
    return undefined;
  }
}
