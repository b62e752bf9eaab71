// Turning an error answer into the typed error of its code. The generated client passes one class per code of
// the error table. The envelope's field names (code, message, processing time, error status) come from the model;
// a description without them gives errors by HTTP status with the parsed body. Unknown codes, code-less bodies and
// non-JSON bodies get the class of their HTTP status (statusErrorClass: ServiceError itself for a status without one).
import type { Auth } from "./auth.js";
import { type ServiceError, type ServiceErrorClass, type ServiceErrorInit, statusErrorClass } from "./errors.js";
import { asRecord, requestIdOf } from "./meta.js";
import type { EnvelopeModel, ServiceModel } from "./model.js";
import { parseRetryAfter } from "./retry.js";

export interface ErrorContext {
  model: ServiceModel;
  classes: Readonly<Record<string, ServiceErrorClass>>;
  auth: Auth;
}

const TEXT_SNIPPET = 200;

/** The envelope's code, message and processing time of a body, when the model names those fields. */
export function envelopeFields(
  envelope: EnvelopeModel | undefined,
  body: unknown,
): { code?: string; message?: string; processingTime?: string } {
  const record = asRecord(body);
  if (envelope === undefined || record === undefined) return {};
  const out: { code?: string; message?: string; processingTime?: string } = {};
  const code = record[envelope.code];
  if (typeof code === "string") out.code = code;
  const message = record[envelope.message];
  if (typeof message === "string") out.message = message;
  const time = envelope.processingTime === undefined ? undefined : record[envelope.processingTime];
  if (typeof time === "string") out.processingTime = time;
  return out;
}

/** ServiceErrorInit from an error body, with every string redacted. */
function errorInit(ctx: ErrorContext, status: number, rawBody: unknown, headers?: Headers): ServiceErrorInit {
  const body = ctx.auth.redactValue(rawBody);
  const { code, message: text, processingTime } = envelopeFields(ctx.model.conventions?.envelope, body);
  const fallback =
    typeof body === "string" && body.trim() !== ""
      ? `HTTP ${status}: ${body.trim().slice(0, TEXT_SNIPPET)}`
      : ((code === undefined ? undefined : ctx.model.errors?.[code]?.description) ?? `HTTP ${status}`);
  const init: ServiceErrorInit = { status, message: code === undefined ? (text ?? fallback) : `${code}: ${text ?? fallback}`, body };
  if (code !== undefined) init.code = code;
  if (processingTime !== undefined) init.processingTime = processingTime;
  const requestId = headers === undefined ? undefined : requestIdOf(headers, ctx.model);
  if (requestId !== undefined) init.requestId = requestId;
  const retryAfterMs = headers === undefined ? undefined : parseRetryAfter(headers.get("retry-after"));
  if (retryAfterMs !== undefined) init.retryAfterMs = retryAfterMs;
  return init;
}

export function errorFromBody(ctx: ErrorContext, status: number, rawBody: unknown, headers?: Headers): ServiceError {
  const init = errorInit(ctx, status, rawBody, headers);
  // The class of the code, else the class of the status.
  const ErrorClass = (init.code === undefined ? undefined : ctx.classes[init.code]) ?? statusErrorClass(status);
  return new ErrorClass(init);
}

/**
 * The error the service would answer for a request refused before it was sent (nothing reached the network): the
 * class of `code`, with an error body in the envelope's form.
 */
export function refusalError(ctx: ErrorContext, code: string, message: string): ServiceError {
  const envelope = ctx.model.conventions?.envelope;
  // The status of the code's class, else the model's error table's.
  const status = ctx.classes[code]?.httpStatus ?? ctx.model.errors?.[code]?.status ?? 400;
  if (envelope !== undefined) {
    return errorFromBody(ctx, status, { [envelope.status]: envelope.error, [envelope.code]: code, [envelope.message]: message });
  }
  const ErrorClass = ctx.classes[code] ?? statusErrorClass(status);
  return new ErrorClass({ status, code, message: `${code}: ${message}`, body: { code, message } });
}

/** True for a JSON body whose envelope status says error (`{ status: "error", ... }`), whatever the HTTP status. */
export function isErrorBody(body: unknown, envelope: EnvelopeModel | undefined): boolean {
  return envelope !== undefined && asRecord(body)?.[envelope.status] === envelope.error;
}
