// Reading the common parts of every answer: processing time, billing and pacing (by the envelope's field names
// from the model, when the description states them), status and request id.
import type { EnvelopeModel, ResponseMeta, ServiceModel } from "./model.js";

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The request id of an answer, in the header the model names (else the conventional X-Request-Id). */
export function requestIdOf(headers: Headers, model: ServiceModel): string | undefined {
  return headers.get(model.requestIdHeader ?? "x-request-id") ?? undefined;
}

export function buildMeta(response: Response, body: unknown, requestCount: number, model: ServiceModel): ResponseMeta {
  const envelope = model.conventions?.envelope;
  const meta: ResponseMeta = { status: response.status, headers: response.headers, requestCount };
  const record = asRecord(body);
  if (record !== undefined && envelope !== undefined) {
    const time = envelope.processingTime === undefined ? undefined : record[envelope.processingTime];
    if (typeof time === "string") meta.processingTime = time;
    const billing = envelope.billing === undefined ? undefined : asRecord(record[envelope.billing]);
    if (billing !== undefined) meta.billing = billing;
  }
  const requestId = requestIdOf(response.headers, model);
  if (requestId !== undefined) meta.requestId = requestId;
  return meta;
}

/** Seconds the service asks to wait before the next request, at the envelope's pacing path (when it has one). */
export function nextPossibleRequestSeconds(body: unknown, envelope?: EnvelopeModel): number | undefined {
  const path = envelope?.nextRequestSeconds;
  if (path === undefined || path.length === 0) return undefined;
  let value: unknown = body;
  for (const field of path) value = asRecord(value)?.[field];
  return typeof value === "number" && value > 0 ? value : undefined;
}
