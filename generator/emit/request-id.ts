// The response header a generated client reads the request id from, the same in every language.
import type { IR } from "../ir/types.js";

/** A response header the description declares under the name X-Request-Id (in its spelling), else `X-Request-Id`. */
export function requestIdHeader(ir: IR): string {
  return (
    ir.operations.flatMap((o) => o.responses.flatMap((r) => r.headers.map((h) => h.name))).find((h) => /^x-request-id$/i.test(h)) ??
    "X-Request-Id"
  );
}
