// Turning an error answer into the typed error of its code. The generated client passes one class per code of
// the error table; unknown codes, code-less bodies (the voice pipeline) and non-JSON bodies keep ServiceError.
import type { Auth } from "./auth.js";
import { ServiceError, type ServiceErrorClass, type ServiceErrorInit } from "./errors.js";
import { asRecord, requestIdOf } from "./meta.js";
import type { ServiceModel } from "./model.js";
import { parseRetryAfter } from "./retry.js";

export interface ErrorContext {
  model: ServiceModel;
  classes: Readonly<Record<string, ServiceErrorClass>>;
  auth: Auth;
}

const TEXT_SNIPPET = 200;

/** ServiceErrorInit from an error body, with every string redacted. */
function errorInit(ctx: ErrorContext, status: number, rawBody: unknown, headers?: Headers): ServiceErrorInit {
  const body = ctx.auth.redactValue(rawBody);
  const record = asRecord(body);
  const code = typeof record?.code === "string" ? record.code : undefined;
  const text = typeof record?.message === "string" ? record.message : undefined;
  const fallback =
    typeof body === "string" && body.trim() !== ""
      ? `HTTP ${status}: ${body.trim().slice(0, TEXT_SNIPPET)}`
      : ((code === undefined ? undefined : ctx.model.errors[code]?.description) ?? `HTTP ${status}`);
  const init: ServiceErrorInit = { status, message: code === undefined ? (text ?? fallback) : `${code}: ${text ?? fallback}`, body };
  if (code !== undefined) init.code = code;
  if (typeof record?.processing_time === "string") init.processingTime = record.processing_time;
  const requestId = headers === undefined ? undefined : requestIdOf(headers);
  if (requestId !== undefined) init.requestId = requestId;
  const retryAfterMs = headers === undefined ? undefined : parseRetryAfter(headers.get("retry-after"));
  if (retryAfterMs !== undefined) init.retryAfterMs = retryAfterMs;
  return init;
}

export function errorFromBody(ctx: ErrorContext, status: number, rawBody: unknown, headers?: Headers): ServiceError {
  const init = errorInit(ctx, status, rawBody, headers);
  const ErrorClass = init.code === undefined ? ServiceError : (ctx.classes[init.code] ?? ServiceError);
  return new ErrorClass(init);
}

/** True for a JSON body of the form `{ status: "error", ... }`, which is an error whatever the HTTP status. */
export function isErrorBody(body: unknown): boolean {
  return asRecord(body)?.status === "error";
}
