// The price of a job from the description's price list: base credits x lane multiplier, at least minimumCharge.
// The one formula: the generated client's priceJob and the mock's ledger both use jobPrice.
import { SdkError } from "./errors.js";
import type { PricingModel, ServiceModel } from "./model.js";

/**
 * Credits of a job whose pipeline costs `baseCredits`, in `lane` (default: the price list's default lane): base x the
 * lane's multiplier, at least the minimum charge. Not rounded: the description states no rounding. An unknown lane
 * is an error that names the known ones.
 */
export function jobPrice(pricing: PricingModel, baseCredits: number, lane?: string): number {
  const chosen = lane ?? pricing.defaultLane;
  const multiplier = Object.hasOwn(pricing.laneMultipliers, chosen) ? pricing.laneMultipliers[chosen] : undefined;
  if (multiplier === undefined) {
    throw new SdkError(`unknown processing lane ${JSON.stringify(chosen)}; known: ${Object.keys(pricing.laneMultipliers).join(", ")}`);
  }
  return Math.max(baseCredits * multiplier, pricing.minimumCharge ?? 0);
}

/** Credits a job of `pipeline` costs in `lane` (default: the price list's default lane). Not rounded. */
export function priceJob(model: ServiceModel, pipeline: string, lane?: string): number {
  const pricing = model.pricing;
  if (pricing === undefined) throw new SdkError(`release ${model.release} has no price list`);
  const base = model.pipelines?.[pipeline]?.baseCredits;
  if (base === undefined) throw new SdkError(`no base price for pipeline ${JSON.stringify(pipeline)} in release ${model.release}`);
  return jobPrice(pricing, base, lane);
}
