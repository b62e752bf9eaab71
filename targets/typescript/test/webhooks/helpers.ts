import { readFileSync } from "node:fs";
import { seededRandom } from "../../../../generator/emit/fixtures/sample.js";
import { webhookEventTypes, webhookSigning } from "../../../../generated/model.js";
import { sign } from "../../runtime/webhooks/index.js";

/** The event names of the description's `webhooks`, as the generated client supplies them. */
export const KNOWN_EVENT_TYPES = webhookEventTypes;

/** The description's signature header, delivery headers and body fields, as the generated client supplies them. */
export const SIGNING = webhookSigning;

interface EventBase {
  event_id: string;
  timestamp: string;
  subscription_id: number;
}

/** A hand-written stand-in for the generated union (a few members are enough to exercise the typing). */
export type DocumentProcessedEvent = EventBase & {
  event_type: "document.processed";
  data: {
    pofid: string;
    workspace_id: number;
    filename: string;
    mime_type: string;
    size_bytes: number;
    processing_result: { ocr_done: boolean; classification: string; confidence: number };
  };
};
export type DocumentDeletedEvent = EventBase & {
  event_type: "document.deleted";
  data: { delete_mode?: "trash" | "instant"; [k: string]: unknown };
};
export type OpenEvent = EventBase & {
  event_type: Exclude<(typeof KNOWN_EVENT_TYPES)[number], "document.processed" | "document.deleted">;
  data: Record<string, unknown>;
};
export type TestEvent = DocumentProcessedEvent | DocumentDeletedEvent | OpenEvent;

export interface SignatureFixture {
  description: string;
  body: string;
  secret: string;
  signature: string;
}

export const fixtures: SignatureFixture[] = (
  JSON.parse(readFileSync(new URL("./fixtures/webhook-signatures.json", import.meta.url), "utf8")) as { cases: SignatureFixture[] }
).cases;

export function fixture(description: string): SignatureFixture {
  const found = fixtures.find((f) => f.description === description);
  if (!found) throw new Error(`no fixture ${description}`);
  return found;
}

/** A clock at the time a body was signed (its `timestamp`), inside the receivers' replay window. */
export function signedAt(body: string): () => number {
  const stamp = (JSON.parse(body) as { timestamp?: unknown }).timestamp;
  if (typeof stamp !== "string") throw new Error("the body has no timestamp");
  return () => Date.parse(stamp);
}

export const SECRET = "whsec_test_primary_2026";
export const OLD_SECRET = "whsec_test_rotated_2026";

export function eventBody(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    event_type: "document.processed",
    event_id: "9f86d081884c7d659a2feaa0c55ad015",
    // Signed now: the receivers' replay window (300 s by default) refuses older deliveries.
    timestamp: new Date().toISOString(),
    subscription_id: 42,
    data: {
      pofid: "POF-1",
      workspace_id: 7,
      filename: "invoice.pdf",
      mime_type: "application/pdf",
      size_bytes: 1024,
      processing_result: { ocr_done: true, classification: "invoice", confidence: 0.97 },
    },
    ...overrides,
  });
}

/** The headers the service sends with a body (signed with `secret`). */
export async function deliveryHeaders(body: string | Uint8Array, secret = SECRET): Promise<Record<string, string>> {
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON: only the signature is meaningful.
  }
  const headers: Record<string, string> = {
    "User-Agent": "Service-Webhook/1.0",
    [SIGNING.signature.header]: await sign(body, secret, SIGNING),
  };
  const { eventType, eventId, subscriptionId } = SIGNING.body;
  if (typeof parsed[eventType] === "string") headers[SIGNING.headers.eventType] = parsed[eventType];
  if (typeof parsed[eventId] === "string") headers[SIGNING.headers.eventId] = parsed[eventId];
  if (typeof parsed[subscriptionId] === "number") headers[SIGNING.headers.subscriptionId] = String(parsed[subscriptionId]);
  return headers;
}

/** Deterministic PRNG, the fixtures' own. */
export function prng(seed: number): () => number {
  return seededRandom(String(seed));
}
