// The service's answer shapes: the error envelope, the `_billing` object, and what a handler hands back to the
// HTTP layer.
import type { Account } from "./ledger.js";
import type { RequestWindows } from "./rate-limit.js";

export interface Reply {
  status: number;
  /** A JSON body. */
  json?: Record<string, unknown>;
  /** A binary body. */
  file?: { name: string; contentType: string; content: Uint8Array };
  /** A non-JSON text body (a proxy's error page). */
  text?: { body: string; contentType: string };
  headers?: Record<string, string>;
}

export function elapsed(startedAt: number): string {
  return `${Math.max(0, Date.now() - startedAt)}ms`;
}

export function errorReply(status: number, code: string, message: string, startedAt: number, headers?: Record<string, string>): Reply {
  return { status, json: { status: "error", code, message, processing_time: elapsed(startedAt) }, ...(headers && { headers }) };
}

export interface JobCharge {
  pipeline: string;
  baseCredits: number;
  credits: number;
  lane: string;
  multiplier: number;
}

/** `_billing` of an answer: the token's balance, the request windows and, for a job, what it cost. */
export function billingOf(account: Account | undefined, windows: RequestWindows | undefined, charge?: JobCharge): Record<string, unknown> {
  return {
    ...(account && {
      credits: {
        total_monthly: account.totalMonthly,
        remaining_monthly: account.remaining,
        credit_source: "monthly",
        api_handler: "mock",
        renewal_days: 30,
        subscription_status: "active",
      },
      remaining_credits: account.remaining,
      total_monthly: account.totalMonthly,
      plan: { tier: "mock", name: "Mock" },
    }),
    ...(charge && {
      job: {
        api_job_name: charge.pipeline,
        default_credits: charge.baseCredits,
        credits_billed: charge.credits,
        pricing: { credits_per_unit: charge.baseCredits, unit: `job (${charge.lane} x${charge.multiplier})`, unit_count: 1 },
      },
    }),
    ...(windows && { requests: windows }),
    credits_billed: charge?.credits ?? 0,
  };
}
