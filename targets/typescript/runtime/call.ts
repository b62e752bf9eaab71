// One operation of the description, as a generated function calls it: callOperation for an operation without a
// body (URL, credentials, fetch and error mapping, nothing more), callOperationWithBody for one with a body (which
// also needs the body encoders), callJsonOperation for one whose body can only be JSON (the JSON encoder alone),
// callSubmission for a job submission without a body. Only callOperationWithBody and callSubmission pass
// JobMayExistError, a submission's error, so that the bundles of other operations leave it out.
import { encodingFor, jsonSerializer, prepareBody, prepareRawBody, rawContentType, serialiseBody } from "./encode.js";
import type { ApiResult, BillingData, CallInput, OperationServerOptions, OperationSpec, RequestOptions, SendBody } from "./model.js";
import { checkPipeline } from "./pipeline.js";
import { isResendable } from "./retry.js";
import { internals, type Runtime } from "./runtime.js";
import { JobMayExistError, SdkError } from "./errors.js";
import { type Budget, budgetFor } from "./timing.js";
import type { SendRequest, SendResult } from "./transport.js";

const ACCEPT_JSON: Readonly<Record<string, string>> = Object.freeze({ Accept: "application/json, */*;q=0.8" });

/** What an operation's body adds to its request. */
export interface OperationBody {
  body: SendBody;
  contentType: string | undefined;
  headers: Record<string, string> | undefined;
}

/**
 * Sends one operation (its body, when it has one, already prepared). Not async: a refusal before sending (a bad
 * deadline option, a pipeline the description rejects) comes back as a rejection all the same, without an async
 * frame of its own on every call.
 */
export function sendOperation(
  client: Runtime<BillingData, object>,
  op: OperationSpec,
  input: CallInput,
  options: RequestOptions,
  prepared: OperationBody | undefined,
  submission?: SendRequest["submission"],
  response: SendRequest["response"] = op.response ?? "json",
  budget?: Budget,
): Promise<SendResult> {
  try {
    if (prepared === undefined && options.extraBody) throw new SdkError(`${op.operationId}: extraBody needs a body`);
    const b = budget ?? budgetFor(options, client[internals].options.deadlineMs);
    return client[internals].transport.send(operationRequest(client, op, input, options, prepared, response, b, submission));
  } catch (refused) {
    return Promise.reject(refused);
  }
}

/** What the transport sends for one operation. */
function operationRequest(
  client: Runtime<BillingData, object>,
  op: OperationSpec,
  input: CallInput,
  options: RequestOptions,
  prepared: OperationBody | undefined,
  response: SendRequest["response"],
  budget: Budget,
  submission: SendRequest["submission"],
): SendRequest {
  // A JSON operation asks for JSON first: a server that also offers another representation (GitHub's
  // application/vnd.github.object) then answers with the one the client parses.
  const accept = response === "json" ? ACCEPT_JSON : undefined;
  // The transport copies the headers before it adds to them, so a plain JSON call passes the shared Accept as it is.
  // Spread copies own keys as data (a `__proto__` header name stays a header); the options' headers win.
  const key = op.idempotencyKey;
  // An operation that takes no key refuses one rather than sending a header the server ignores.
  if (key === undefined && options.idempotencyKey !== undefined) throw new SdkError(`${op.operationId} takes no idempotency key`);
  // One key per call, made here once, so that every retry of the call carries the same one (the server dedupes by
  // it); the options' headers still win.
  const headers =
    prepared?.headers === undefined && input.headers === undefined && options.headers === undefined && key === undefined
      ? accept
      : {
          ...prepared?.headers,
          ...accept,
          ...(key !== undefined && { [key]: options.idempotencyKey ?? crypto.randomUUID() }),
          ...input.headers,
          ...options.headers,
        };
  return {
    method: op.method,
    path: op.path,
    pathParams: input.path,
    query: { ...input.query, ...options.query },
    body: prepared?.body,
    contentType: prepared?.contentType,
    headers,
    response,
    resendable: isResendable(op),
    // A job submission's failures after it may have arrived are JobMayExistErrors; its caller brings the class.
    submission: op.job === "submit" ? submission : undefined,
    stillRunningStatus: op.job === "submit" ? client[internals].model.jobs?.submit.stillRunningStatus : undefined,
    budget,
    label: op.operationId,
    security: op.security,
    // Set only by atOperationServer, which checked it.
    baseUrl: (options as OperationServerOptions).baseUrl,
  };
}

/** An operation without a request body that is no job submission (callSubmission sends those). */
export function callOperation<T, B extends BillingData = BillingData>(
  client: Runtime<B, object>,
  op: OperationSpec,
  input: Omit<CallInput, "body" | "jsonStrings">,
  options: RequestOptions = {},
): Promise<ApiResult<T, B>> {
  // Not async itself: sendOperation already turns every failure into a rejection.
  return sendOperation(client, op, input, options, undefined) as Promise<ApiResult<T, B>>;
}

/** A job submission without a request body: a failure after it may have arrived is a JobMayExistError. */
export function callSubmission<T, B extends BillingData = BillingData>(
  client: Runtime<B, object>,
  op: OperationSpec,
  input: Omit<CallInput, "body" | "jsonStrings">,
  options: RequestOptions = {},
): Promise<ApiResult<T, B>> {
  return sendOperation(client, op, input, options, undefined, JobMayExistError) as Promise<ApiResult<T, B>>;
}

/** An operation with a request body (JSON, a form or a raw body, as its spec and the options say). */
export async function callOperationWithBody<T, B extends BillingData = BillingData>(
  client: Runtime<B, object>,
  op: OperationSpec,
  input: CallInput,
  options: RequestOptions = {},
): Promise<ApiResult<T, B>> {
  // A job submission sent as an operation: a pipeline the description's pattern rejects is refused before sending
  // (here, not in sendOperation: operations without a body are no submissions, and their bundles leave it out).
  const { model, errors } = client[internals];
  const selector = op.job === "submit" ? model.jobs?.submit.pipelineParameter : undefined;
  const prepared = await prepareOperationBody(client, op, withExtraBody(op, input, options.extraBody), options);
  if (selector !== undefined && input.path?.[selector] !== undefined) checkPipeline(model, errors, String(input.path[selector]));
  return (await sendOperation(client, op, input, options, prepared, JobMayExistError)) as ApiResult<T, B>;
}

/**
 * An operation whose spec's request media type is JSON and that is no job submission: its body is JSON whatever
 * options.mediaType says (as encodingFor decides), so it is sent as callOperationWithBody sends it, without the form
 * and raw encoders or the pipeline check in its bundle.
 */
export async function callJsonOperation<T, B extends BillingData = BillingData>(
  client: Runtime<B, object>,
  op: OperationSpec,
  input: CallInput,
  options: RequestOptions = {},
): Promise<ApiResult<T, B>> {
  const arrays = client[internals].model.conventions?.form?.arrays;
  const body = withExtraBody(op, input, options.extraBody).body;
  const prepared =
    body === undefined
      ? undefined
      : {
          body: jsonSerializer(await prepareBody(body, input.jsonStrings, arrays)),
          contentType: op.jsonMediaType ?? "application/json",
          headers: undefined,
        };
  return (await sendOperation(client, op, input, options, prepared)) as ApiResult<T, B>;
}

/** An operation's body, its encoding and its headers: a raw body carries its media type as Content-Type. */
export async function prepareOperationBody(
  client: Runtime<BillingData, object>,
  op: OperationSpec,
  input: CallInput,
  options: RequestOptions,
): Promise<OperationBody | undefined> {
  const encoding = encodingFor(op.requestMediaType, options.mediaType, op.urlencoded);
  if (input.body === undefined) return undefined;
  if (encoding !== "raw") {
    const arrays = client[internals].model.conventions?.form?.arrays;
    const serialised = serialiseBody(await prepareBody(input.body, input.jsonStrings, arrays), encoding);
    if (encoding === "json" && op.jsonMediaType !== undefined) serialised.contentType = op.jsonMediaType;
    return { ...serialised, headers: undefined };
  }
  const body = await prepareRawBody(input.body);
  return { ...serialiseBody(body, encoding), headers: { "Content-Type": rawContentType(op.requestMediaType ?? "", body) } };
}

/** The call's input with the options' extraBody laid over its body, which must then be a plain object (or absent). */
function withExtraBody(op: OperationSpec, input: CallInput, extra: Record<string, unknown> | undefined): CallInput {
  if (extra === undefined) return input;
  const body = input.body ?? {};
  if (Object.getPrototypeOf(body) !== Object.prototype) throw new SdkError(`${op.operationId}: extraBody needs a plain object body`);
  return { ...input, body: { ...(body as object), ...extra } };
}
