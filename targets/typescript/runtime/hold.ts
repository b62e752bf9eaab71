// How long a job submission may be held before the service answers, as the description states it
// (`jobs.submit.maxHoldSeconds`), so that the transport's timeouts and the default deadline sit above it. A
// description that states no hold gets generic values, named as such.
import type { ServiceModel } from "./model.js";

/** Generic transport timeout where the description states no hold: a little above Node's own 300 s, which it replaces. */
export const DEFAULT_HOLD_TIMEOUT_MS = 330_000;

/** Added to the description's longest hold, for the answer to travel back once the hold ends. */
export const HOLD_MARGIN_MS = 35_000;

/** The longest hold the description states, in milliseconds, or undefined. */
export function maxHoldMs(model: ServiceModel | undefined): number | undefined {
  const seconds = model?.jobs?.submit.maxHoldSeconds ?? model?.maxHoldSeconds;
  return seconds === undefined ? undefined : seconds * 1000;
}

/** How long a transport should wait for an answer: the description's longest hold plus a margin, else the generic value. */
export function holdTimeoutMs(model: ServiceModel | undefined): number {
  const hold = maxHoldMs(model);
  return hold === undefined ? DEFAULT_HOLD_TIMEOUT_MS : hold + HOLD_MARGIN_MS;
}
