// A request to a path below the base address that the description does not list, with the client's auth, retries
// and error mapping.
import { encodingFor, prepareBody, serialiseBody } from "./encode.js";
import { SdkError } from "./errors.js";
import type { ApiResult, BillingData, RequestMediaType, RequestOptions } from "./model.js";
import { isResendable } from "./retry.js";
import { internals, type Runtime } from "./runtime.js";
import { budgetFor } from "./timing.js";

export interface RawInit extends Omit<RequestOptions, "mediaType"> {
  query?: Record<string, unknown>;
  /** A form body is an object of fields; a JSON body may be any JSON value. */
  body?: unknown;
  /** Body encoding (default multipart/form-data, the service's default). */
  mediaType?: RequestMediaType;
  jsonStrings?: readonly string[];
  /**
   * May be sent again after a failure that may have reached the server. Default: true for GET, HEAD, PUT, DELETE,
   * OPTIONS and TRACE, so that an unknown POST or PATCH is never sent twice by mistake.
   */
  idempotent?: boolean;
  response?: "json" | "binary";
}

/** A request to a path below the base address that the description does not list; same auth, retries and errors. */
export async function rawRequest<T = unknown, B extends BillingData = BillingData>(
  client: Runtime<B, object>,
  method: string,
  path: string,
  init: RawInit = {},
): Promise<ApiResult<T, B>> {
  if (!path.startsWith("/")) throw new SdkError("raw paths start with / and are relative to the base address");
  const { transport, options, model } = client[internals];
  const upper = method.toUpperCase();
  const arrays = model.conventions?.form?.arrays;
  const result = await transport.send({
    method: upper,
    path,
    query: init.query,
    ...(init.body !== undefined &&
      serialiseBody(await prepareBody(init.body, init.jsonStrings, arrays), encodingFor(undefined, init.mediaType))),
    response: init.response ?? "json",
    resendable: isResendable({ method: upper, idempotent: init.idempotent }),
    budget: budgetFor(init, options.deadlineMs),
    headers: init.headers,
    label: `${upper} ${path}`,
  });
  return result as ApiResult<T, B>;
}
