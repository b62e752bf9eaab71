// The credit ledger: a balance per token, charged base credits x lane multiplier (at least the minimum charge)
// for each accepted job, as the IR's pricing says.
import { jobPrice } from "@paperoffice/sdk-runtime";
import type { Pipeline, Pricing } from "../generator/ir/index.js";

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

/**
 * The charge of a job, by the runtime's one price formula (jobPrice): the pipeline's base credits (the minimum
 * charge where the description states none) times the lane's multiplier, at least the minimum charge. A lane the
 * request does not name is the price list's default lane; the request check has already refused unknown lanes.
 */
export function priceOf(
  pipeline: Pipeline,
  pricing: Pricing | undefined,
  lane: unknown,
): { credits: number; lane: string; multiplier: number } {
  const base = pipeline.baseCredits ?? pricing?.minimumCharge ?? 0;
  if (pricing === undefined) return { credits: base, lane: "", multiplier: 1 };
  const chosen = typeof lane === "string" ? lane : pricing.defaultLane;
  return { credits: jobPrice(pricing, base, chosen), lane: chosen, multiplier: pricing.laneMultipliers[chosen] ?? 1 };
}
