// The price of a job from the description's price list: base credits x lane multiplier, at least minimumCharge.
import { SdkError } from "./errors.js";
import type { ServiceModel } from "./model.js";

/** Credits a job of `pipeline` costs in `lane` (default: the price list's default lane). Not rounded. */
export function priceJob(model: ServiceModel, pipeline: string, lane?: string): number {
  const pricing = model.pricing;
  if (pricing === undefined) throw new SdkError(`release ${model.release} has no price list`);
  const base = model.pipelines[pipeline]?.baseCredits;
  if (base === undefined) throw new SdkError(`no base price for pipeline ${JSON.stringify(pipeline)} in release ${model.release}`);
  const chosen = lane ?? pricing.defaultLane;
  const multiplier = pricing.laneMultipliers[chosen];
  if (multiplier === undefined) {
    throw new SdkError(`unknown processing lane ${JSON.stringify(chosen)}; known: ${Object.keys(pricing.laneMultipliers).join(", ")}`);
  }
  return Math.max(base * multiplier, pricing.minimumCharge ?? 0);
}
