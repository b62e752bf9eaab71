// The credit ledger: a balance per token, charged base credits x lane multiplier (at least the minimum charge)
// for each accepted job, as the IR's pricing says.
import type { Pipeline, Pricing } from "../generator/ir/types.js";

export interface LedgerOptions {
  /** Monthly credits of every token (default 10000). */
  credits?: number;
  /** Credits of particular tokens. */
  creditsByToken?: Readonly<Record<string, number>>;
}

export interface Account {
  token: string;
  totalMonthly: number;
  remaining: number;
  /** Credits billed so far. */
  billed: number;
}

export class Ledger {
  readonly #accounts = new Map<string, Account>();
  readonly #options: LedgerOptions;

  constructor(options: LedgerOptions = {}) {
    this.#options = options;
  }

  account(token: string): Account {
    let account = this.#accounts.get(token);
    if (!account) {
      const total = this.#options.creditsByToken?.[token] ?? this.#options.credits ?? 10_000;
      account = { token, totalMonthly: total, remaining: total, billed: 0 };
      this.#accounts.set(token, account);
    }
    return account;
  }

  /** Sets the balance of a token (tests). */
  setCredits(token: string, credits: number): void {
    const account = this.account(token);
    account.remaining = credits;
  }

  /** Charges a job; returns the charge, or undefined when the balance does not cover it (nothing is charged). */
  charge(token: string, credits: number): number | undefined {
    const account = this.account(token);
    if (account.remaining < credits) return undefined;
    account.remaining -= credits;
    account.billed += credits;
    return credits;
  }
}

/** Base credits of the pipeline times the lane multiplier, at least the minimum charge, rounded up. */
export function priceOf(
  pipeline: Pipeline,
  pricing: Pricing | undefined,
  lane: unknown,
): { credits: number; lane: string; multiplier: number } {
  const base = pipeline.baseCredits ?? pricing?.minimumCharge ?? 0;
  const chosen = typeof lane === "string" && pricing?.laneMultipliers[lane] !== undefined ? lane : (pricing?.defaultLane ?? "no_sla");
  const multiplier = pricing?.laneMultipliers[chosen] ?? 1;
  return { credits: Math.max(Math.ceil(base * multiplier), pricing?.minimumCharge ?? 0), lane: chosen, multiplier };
}
