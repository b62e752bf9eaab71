// The User-Agent of a client: the description's title and release, as HTTP token text (ASCII letters, digits and
// a few symbols), so that no title can make a header fetch refuses.
import type { ServiceModel } from "./model.js";

/**
 * `Café Orders API` -> `cafe-orders-api`: accents dropped, each run of dashes and other text outside a token becomes
 * one dash.
 */
export function userAgentToken(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9!#$%&'*+.^_`|~]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** Printable ASCII only (what a header value may hold everywhere); the rest becomes `?`, controls are dropped. */
export function asciiHeaderText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\p{Cc}/gu, "")
    .replace(/[^\u0020-\u007e]/g, "?")
    .trim();
}

export function userAgentOf(model: ServiceModel, suffix: string | undefined): string {
  const product = userAgentToken(model.title ?? "").toLowerCase() || "api";
  const version = userAgentToken(model.release) || "0";
  const extra = suffix === undefined ? "" : asciiHeaderText(suffix);
  return `${product}-sdk-typescript/${version}${extra === "" ? "" : ` ${extra}`}`;
}
