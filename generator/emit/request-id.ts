// The response header a generated client reads the request id from, the same in every language: a request id header
// the description declares on a response (`X-Request-Id` or `Request-Id`, as it spells it), else the conventional
// `X-Request-Id`. A target may carry only the declared name (declaredRequestIdHeader) and let its runtime read the
// conventional one otherwise, an HTTP convention rather than a fact of the service.
import type { IR } from "../ir/types.js";

const REQUEST_ID = /^(x-)?request-id$/i;
export const CONVENTIONAL_REQUEST_ID_HEADER = "X-Request-Id";

export function requestIdHeader(ir: IR): string {
  return declaredRequestIdHeader(ir) ?? CONVENTIONAL_REQUEST_ID_HEADER;
}

/** The request id header a response of the description declares, if any. */
export function declaredRequestIdHeader(ir: IR): string | undefined {
  for (const operation of ir.operations) {
    for (const response of operation.responses) {
      const declared = response.headers.find((h) => REQUEST_ID.test(h.name));
      if (declared !== undefined) return declared.name;
    }
  }
  return undefined;
}
