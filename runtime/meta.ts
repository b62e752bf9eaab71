// Reading the common parts of every answer: processing_time, _billing, status, request id.
import type { Billing, ResponseMeta } from "./model.js";

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function requestIdOf(headers: Headers): string | undefined {
  return headers.get("x-request-id") ?? undefined;
}

export function buildMeta(response: Response, body: unknown, requestCount: number): ResponseMeta {
  const meta: ResponseMeta = { status: response.status, headers: response.headers, requestCount };
  const record = asRecord(body);
  if (record !== undefined) {
    if (typeof record.processing_time === "string") meta.processingTime = record.processing_time;
    const billing = asRecord(record._billing);
    if (billing !== undefined) meta.billing = billing as Billing;
  }
  const requestId = requestIdOf(response.headers);
  if (requestId !== undefined) meta.requestId = requestId;
  return meta;
}

/** Seconds the service asks to wait before the next request, from `_billing.requests.next_possible_request_seconds`. */
export function nextPossibleRequestSeconds(body: unknown): number | undefined {
  const seconds = asRecord(asRecord(asRecord(body)?._billing)?.requests)?.next_possible_request_seconds;
  return typeof seconds === "number" && seconds > 0 ? seconds : undefined;
}
