import type { IncomingMessage, ServerResponse } from "node:http";
import type { WebhookSigningModel } from "../model.js";
import type { HmacChoice } from "./crypto.js";
import { type DedupeStore, MemoryDedupeStore } from "./dedupe.js";
import { SdkError } from "../errors.js";
import { RawBodyRequiredError, WebhookVerificationError } from "./errors.js";
import {
  checkSecrets,
  type DeliveryInfo,
  replayWindow,
  type HeadersInput,
  type UnknownWebhookEvent,
  type VerifiedEvent,
  verify,
} from "./verify.js";

/** The event type names of `E`: the string values of its field `T`, the description's event type field. */
export type EventTypeOf<E, T extends string> = E extends { readonly [P in T]: infer V } ? (V extends string ? V : never) : never;

/**
 * One optional callback per event type, each receiving the event narrowed to its type. `T` is the field that holds
 * the event type, as the description names it (the generated client's `WebhookEventCallbacks` sets it).
 */
export type WebhookEventCallbacks<E extends object, T extends string> = {
  [K in EventTypeOf<E, T>]?: (event: Extract<E, { readonly [P in T]: K }>, delivery: DeliveryInfo) => void | Promise<void>;
};

export type WebhookErrorStage = "request" | "verify" | "store" | "callback";

export interface WebhookErrorContext {
  stage: WebhookErrorStage;
  /** Status answered to the service. */
  status: number;
  /** Present once the delivery is verified. */
  delivery?: DeliveryInfo;
}

export interface WebhookHandlerOptions<E extends object, T extends string> {
  /** The subscription secret, or several during a rotation (each is tried in turn). */
  secret: string | readonly string[];
  /** The event names of the description (supplied by the generated client). */
  knownEventTypes: readonly string[];
  /** The description's signature header and prefix, delivery headers and body fields (supplied by the generated client). */
  signing: WebhookSigningModel;
  /** Callbacks per event type. A known event without a callback is acknowledged and ignored. */
  on: WebhookEventCallbacks<E, T>;
  /** Called for an event type the client does not know yet; without it such events are acknowledged and ignored. */
  onUnknown?: (event: UnknownWebhookEvent) => void | Promise<void>;
  /** Told about every refused or failed delivery (bad signature, invalid body, callback failure). Must not throw. */
  onError?: (error: unknown, context: WebhookErrorContext) => void;
  /** Deduplication store; default a `MemoryDedupeStore` per handler; `false` turns deduplication off. */
  store?: DedupeStore | false;
  /**
   * Longest a callback may run, in milliseconds (default 8 s, below the 10 s the service waits for an answer by
   * default). When it passes, the claim is released and the delivery answered 503, so the service's retry is
   * processed; a callback that never settles does not hold the event id.
   */
  callbackTimeoutMs?: number;
  /**
   * The replay window: refuse deliveries whose signed timestamp lies further than this many milliseconds from the
   * clock (400 `stale_delivery`), so that a recorded delivery cannot be replayed once its id has left the
   * deduplication store. Default 300 s (`DEFAULT_MAX_AGE_MS`) when the signing model names a timestamp field;
   * `false` turns it off. Keep the store's time to live above it.
   */
  maxAgeMs?: number | false;
  /** Clock of the replay window, for tests. Default `Date.now`. */
  now?: () => number;
  /** HMAC implementation, default `"auto"`. */
  crypto?: HmacChoice;
  /** Largest accepted body in bytes, default 1 MiB; larger bodies get 413 before any verification. */
  maxBodyBytes?: number;
}

export type WebhookOutcomeBody = { status: "processed" | "duplicate" | "ignored" } | { error: string };

/** Default `callbackTimeoutMs`. */
export const DEFAULT_CALLBACK_TIMEOUT_MS = 8_000;

export interface WebhookOutcome {
  status: number;
  body: WebhookOutcomeBody;
  /** The verified delivery, when verification succeeded. */
  delivery?: VerifiedEvent<unknown>;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * The framework-neutral core of the receiver helpers: takes the raw body and the headers, answers with a status.
 * 401 when the signature is missing, malformed or wrong (the body is not parsed); 400 when a signed body is not a
 * valid event or lies outside the replay window (`maxAgeMs`); 200 for a processed or ignored event, and "duplicate" for a copy of one
 * processed successfully; 409 for a copy that arrives while the first is still being processed (so that the service
 * retries it later instead of holding it delivered); 500 when the store or a callback fails and 503 when a callback
 * outlasts `callbackTimeoutMs`, both after releasing the claim so that the service's retry is processed. The secret
 * and the options are checked here, when the processor is created.
 */
export function createWebhookProcessor<E extends object, T extends string>(
  options: WebhookHandlerOptions<E, T>,
): (rawBody: string | Uint8Array, headers: HeadersInput) => Promise<WebhookOutcome> {
  checkSecrets(options.secret);
  const callbackTimeoutMs = options.callbackTimeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS;
  if (!(callbackTimeoutMs > 0)) throw new RangeError("callbackTimeoutMs must be a positive number of milliseconds");
  replayWindow(options.maxAgeMs, options.signing.body.timestamp);
  const store = options.store === false ? undefined : (options.store ?? new MemoryDedupeStore());
  const callbacks = options.on as Readonly<Record<string, ((event: unknown, delivery: DeliveryInfo) => void | Promise<void>) | undefined>>;
  const report = (error: unknown, context: WebhookErrorContext) => reportError(options.onError, error, context);

  return async (rawBody, headers) => {
    let delivery: VerifiedEvent<E>;
    try {
      delivery = await verify<E>(rawBody, headers, options.secret, {
        knownEventTypes: options.knownEventTypes,
        signing: options.signing,
        ...(options.crypto === undefined ? {} : { crypto: options.crypto }),
        ...(options.maxAgeMs === undefined ? {} : { maxAgeMs: options.maxAgeMs }),
        ...(options.now === undefined ? {} : { now: options.now }),
      });
    } catch (error) {
      const status = error instanceof WebhookVerificationError ? error.status : 500;
      report(error, { stage: "verify", status });
      return { status, body: { error: error instanceof WebhookVerificationError ? error.code : "internal_error" } };
    }
    const info = deliveryInfo(delivery);

    if (store) {
      let claim: string;
      try {
        // The lease outlives the callback's timeout a little, so that only a dead process leaves it to expire.
        claim = await store.claim(delivery.eventId, callbackTimeoutMs + LEASE_MARGIN_MS);
      } catch (error) {
        report(error, { stage: "store", status: 500, delivery: info });
        return { status: 500, body: { error: "store_error" }, delivery };
      }
      if (claim === "done") return { status: 200, body: { status: "duplicate" }, delivery };
      if (claim !== "claimed") return { status: 409, body: { error: "in_progress" }, delivery };
    }
    const release = async () => {
      try {
        await store?.release(delivery.eventId);
      } catch (releaseError) {
        report(releaseError, { stage: "store", status: 500, delivery: info });
      }
    };

    const callback = delivery.known
      ? Object.hasOwn(callbacks, delivery.eventType)
        ? callbacks[delivery.eventType]
        : undefined
      : options.onUnknown && ((event: unknown) => options.onUnknown?.(event as UnknownWebhookEvent));
    const complete = async () => {
      try {
        await store?.complete(delivery.eventId);
      } catch (error) {
        // Handled, but a later copy may be handled again: still a success for the service.
        report(error, { stage: "store", status: 200, delivery: info });
      }
    };
    if (!callback) {
      await complete();
      return { status: 200, body: { status: "ignored" }, delivery };
    }

    try {
      await withTimeout(
        Promise.resolve().then(() => (delivery.known ? callback(delivery.event, info) : callback(delivery, info))),
        callbackTimeoutMs,
      );
    } catch (error) {
      await release();
      const timedOut = error instanceof CallbackTimeoutError;
      report(error, { stage: "callback", status: timedOut ? 503 : 500, delivery: info });
      return timedOut
        ? { status: 503, body: { error: "callback_timeout" }, delivery }
        : { status: 500, body: { error: "callback_failed" }, delivery };
    }
    await complete();
    return { status: 200, body: { status: "processed" }, delivery };
  };
}

/** Web-standard receiver (`fetch` handlers of Deno, Bun, Cloudflare Workers, Next.js route handlers, Hono...). */
export function createWebhookHandler<E extends object, T extends string>(
  options: WebhookHandlerOptions<E, T>,
): (request: Request) => Promise<Response> {
  const processDelivery = createWebhookProcessor(options);
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return async (request) => {
    if (request.method !== "POST") return jsonResponse(405, { error: "method_not_allowed" }, { allow: "POST" });
    let body: Uint8Array | typeof TOO_LARGE;
    try {
      body = declaredTooLarge(request.headers.get("content-length"), limit) ? TOO_LARGE : await readWebBody(request, limit);
    } catch (error) {
      reportError(options.onError, error, { stage: "request", status: 400 });
      return jsonResponse(400, { error: "unreadable_body" });
    }
    if (body === TOO_LARGE) {
      reportError(options.onError, new Error(`body larger than ${limit} bytes`), { stage: "request", status: 413 });
      return jsonResponse(413, { error: "body_too_large" });
    }
    const outcome = await processDelivery(body, request.headers);
    return jsonResponse(outcome.status, outcome.body);
  };
}

/**
 * node:http receiver, also usable as an Express/Connect handler when mounted before any body parser (or after
 * `express.raw()`, whose Buffer `req.body` is used as is). Reads the raw body itself and never parses it before
 * verification. The returned promise never rejects.
 */
export function createNodeWebhookHandler<E extends object, T extends string>(
  options: WebhookHandlerOptions<E, T>,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const processDelivery = createWebhookProcessor(options);
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return async (req, res) => {
    try {
      if (req.method !== "POST") return sendNode(res, 405, { error: "method_not_allowed" }, { allow: "POST" });
      const preRead = (req as { body?: unknown }).body;
      let body: Uint8Array | typeof TOO_LARGE;
      if (preRead instanceof Uint8Array) {
        body = preRead.byteLength > limit ? TOO_LARGE : preRead;
      } else if (preRead !== undefined || req.readableEnded) {
        // A body parser ran first: the raw bytes the signature covers are gone.
        const error = new RawBodyRequiredError(
          preRead === undefined ? "the request stream was already read" : `req.body is ${describe(preRead)}`,
        );
        reportError(options.onError, error, { stage: "request", status: error.status });
        return sendNode(res, error.status, { error: error.code });
      } else {
        const contentLength = req.headers["content-length"];
        body = declaredTooLarge(contentLength ?? null, limit) ? TOO_LARGE : await readNodeBody(req, limit);
      }
      if (body === TOO_LARGE) {
        reportError(options.onError, new Error(`body larger than ${limit} bytes`), { stage: "request", status: 413 });
        return sendNode(res, 413, { error: "body_too_large" }, { connection: "close" }, () => req.destroy());
      }
      const outcome = await processDelivery(body, req.headers);
      sendNode(res, outcome.status, outcome.body);
    } catch (error) {
      reportError(options.onError, error, { stage: "request", status: 500 });
      if (!res.headersSent) sendNode(res, 500, { error: "internal_error" });
      else res.destroy();
    }
  };
}

// ---------------------------------------------------------------------------------------------------- helpers

const TOO_LARGE = Symbol("too large");
const LEASE_MARGIN_MS = 1_000;

/** A callback ran past `callbackTimeoutMs`; it is left running, but its event is no longer claimed. */
export class CallbackTimeoutError extends SdkError {
  override readonly name = "CallbackTimeoutError";
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`the webhook callback did not settle within ${timeoutMs} ms; the claim was released for the service's retry`);
    this.timeoutMs = timeoutMs;
  }
}

function withTimeout(work: Promise<unknown>, ms: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new CallbackTimeoutError(ms)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return `an already parsed ${Array.isArray(value) ? "array" : "object"}`;
  return `a ${typeof value}`;
}

function deliveryInfo(delivery: VerifiedEvent<unknown>): DeliveryInfo {
  return {
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    subscriptionId: delivery.subscriptionId,
    secretIndex: delivery.secretIndex,
  };
}

function reportError(onError: WebhookHandlerOptions<never, never>["onError"], error: unknown, context: WebhookErrorContext): void {
  if (!onError) return;
  try {
    onError(error, context);
  } catch {
    // A failing error reporter must not change the answer to the service.
  }
}

function declaredTooLarge(contentLength: string | null, limit: number): boolean {
  if (contentLength === null || !/^\d+$/.test(contentLength)) return false;
  return Number(contentLength) > limit;
}

async function readWebBody(request: Request, limit: number): Promise<Uint8Array | typeof TOO_LARGE> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return TOO_LARGE;
    }
    chunks.push(value);
  }
  return concat(chunks, size);
}

function readNodeBody(req: IncomingMessage, limit: number): Promise<Uint8Array | typeof TOO_LARGE> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onFail);
      req.off("aborted", onAborted);
    };
    const onData = (chunk: Uint8Array | string) => {
      const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
      size += bytes.byteLength;
      if (size > limit) {
        cleanup();
        req.pause();
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = () => {
      cleanup();
      resolve(concat(chunks, size));
    };
    const onFail = (error: unknown) => {
      cleanup();
      reject(error);
    };
    const onAborted = () => onFail(new Error("request aborted"));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onFail);
    req.on("aborted", onAborted);
  });
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function jsonResponse(status: number, body: WebhookOutcomeBody | { error: string }, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

function sendNode(
  res: ServerResponse,
  status: number,
  body: WebhookOutcomeBody,
  headers: Record<string, string> = {},
  afterEnd?: () => void,
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(new TextEncoder().encode(text).byteLength),
    ...headers,
  });
  res.end(text, afterEnd);
}
