import { type HmacChoice, fromHex, resolveHmac, secretBytes, toBytes, toHex } from "./crypto.js";
import {
  HeaderMismatchError,
  InvalidPayloadError,
  MalformedHeaderError,
  MissingHeaderError,
  RawBodyRequiredError,
  SignatureMismatchError,
  StaleDeliveryError,
} from "./errors.js";

/** Delivery header names as the description writes them; they are matched case-insensitively. */
export const WEBHOOK_HEADERS = {
  signature: "X-Service-Signature",
  eventId: "X-Service-Event-ID",
  eventType: "X-Service-Event",
  subscriptionId: "X-Service-Subscription-ID",
} as const;

/**
 * The signature header form: `sha256=` followed by exactly 64 lowercase hex digits, nothing before or after.
 * Uppercase hex is refused: the description's pattern is `^sha256=[0-9a-f]{64}$` and the service sends lowercase,
 * so a single spelling is accepted. Surrounding whitespace is not trimmed here (HTTP parsers and `Headers` already
 * strip it), so a record with padded values is refused too.
 */
export const SIGNATURE_PATTERN = /^sha256=[0-9a-f]{64}$/;

/** A `Headers` object (or anything with a `get(name)` method) or a plain record such as node's `req.headers`. */
export type HeadersInput =
  | Headers
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** Body of an event whose `event_type` is not among the known names (a type added to the service later). */
export interface UnknownEventBody {
  event_type: string;
  event_id: string;
  [field: string]: unknown;
}

/** Facts about a verified delivery. */
export interface DeliveryInfo {
  /** `event_id` of the signed body (equal to X-Service-Event-ID); the deduplication key. */
  eventId: string;
  eventType: string;
  /** X-Service-Subscription-ID when present. */
  subscriptionId: string | undefined;
  /** Index, in the list given to `verify`, of the secret that matched (watch it during rotation). */
  secretIndex: number;
}

export interface KnownWebhookEvent<E> extends DeliveryInfo {
  known: true;
  event: E;
}

export interface UnknownWebhookEvent extends DeliveryInfo {
  known: false;
  event: UnknownEventBody;
}

/** Discriminated on `known`: a known event typed as `E`, or an event type this client does not know yet. */
export type VerifiedEvent<E> = KnownWebhookEvent<E> | UnknownWebhookEvent;

export interface VerifyOptions {
  /** The event names of the description; any other `event_type` yields an `UnknownWebhookEvent`. */
  knownEventTypes: readonly string[];
  /** HMAC implementation: `"auto"` (default), `"node"`, `"webcrypto"` or an implementation object. */
  crypto?: HmacChoice;
  /** Refuse a delivery whose signed `timestamp` is older than this (StaleDeliveryError); off when absent. */
  maxAgeMs?: number;
  /** Clock for the age check, for tests. Default `Date.now`. */
  now?: () => number;
}

export interface SignOptions {
  crypto?: HmacChoice;
}

/** `sha256=<hex>`: HMAC-SHA256 of the raw body bytes (UTF-8 of a string body) under the secret's UTF-8 bytes. */
export async function sign(body: string | Uint8Array, secret: string, options: SignOptions = {}): Promise<string> {
  const key = secretBytes(secret);
  const mac = await resolveHmac(options.crypto).sign(key, toBytes(body));
  return `sha256=${toHex(mac)}`;
}

/**
 * Verifies a delivery and returns its event.
 *
 * Order: the signature header is checked and the HMAC of the unmodified raw body compared (constant time, each
 * secret in turn) before the body is decoded or parsed; only then is it parsed as JSON and cross-checked with the
 * unsigned headers (X-Service-Event-ID must equal `event_id`; X-Service-Event and X-Service-Subscription-ID, when
 * present, must equal `event_type` and `subscription_id`). Pass the body exactly as received: a body that was
 * parsed and serialised again does not verify, and a body that is not a string or bytes gets RawBodyRequiredError.
 * Throws a `WebhookVerificationError` subclass on any failure and a `TypeError` when no usable secret is configured.
 *
 * The event's fields beyond `event_type` and `event_id` are not validated: they are signed by the service.
 */
export async function verify<E extends { event_type: string }>(
  rawBody: string | Uint8Array,
  headers: HeadersInput,
  secret: string | readonly string[],
  options: VerifyOptions,
): Promise<VerifiedEvent<E>> {
  const keys = checkSecrets(secret);
  const hmac = resolveHmac(options.crypto);
  if (typeof rawBody !== "string" && !(rawBody instanceof Uint8Array)) {
    throw new RawBodyRequiredError(`the body passed is ${rawBody === null ? "null" : `a ${typeof rawBody}`}`);
  }

  const signature = readHeader(headers, WEBHOOK_HEADERS.signature);
  if (signature === undefined) throw new MissingHeaderError(WEBHOOK_HEADERS.signature);
  if (!SIGNATURE_PATTERN.test(signature)) {
    throw new MalformedHeaderError(WEBHOOK_HEADERS.signature, "expected sha256= followed by 64 lowercase hex digits");
  }
  const mac = fromHex(signature.slice("sha256=".length));
  const bytes = toBytes(rawBody);

  let secretIndex = -1;
  for (const [index, key] of keys.entries()) {
    if (await hmac.verify(key, bytes, mac)) {
      secretIndex = index;
      break;
    }
  }
  if (secretIndex < 0) throw new SignatureMismatchError();

  // From here on the body is authentic.
  const eventIdHeader = readHeader(headers, WEBHOOK_HEADERS.eventId);
  if (eventIdHeader === undefined) throw new MissingHeaderError(WEBHOOK_HEADERS.eventId);

  const body = parseBody(rawBody);
  if (body.event_id !== eventIdHeader) throw new HeaderMismatchError(WEBHOOK_HEADERS.eventId, "event_id");

  const eventTypeHeader = readHeader(headers, WEBHOOK_HEADERS.eventType);
  if (eventTypeHeader !== undefined && eventTypeHeader !== body.event_type) {
    throw new HeaderMismatchError(WEBHOOK_HEADERS.eventType, "event_type");
  }
  const subscriptionId = readHeader(headers, WEBHOOK_HEADERS.subscriptionId);
  const bodySubscription = body.subscription_id;
  if (
    subscriptionId !== undefined &&
    (typeof bodySubscription === "number" || typeof bodySubscription === "string") &&
    String(bodySubscription) !== subscriptionId
  ) {
    throw new HeaderMismatchError(WEBHOOK_HEADERS.subscriptionId, "subscription_id");
  }

  if (options.maxAgeMs !== undefined) {
    const sentAt = typeof body.timestamp === "string" ? Date.parse(body.timestamp) : Number.NaN;
    const ageMs = Number.isNaN(sentAt) ? undefined : (options.now ?? Date.now)() - sentAt;
    if (ageMs === undefined || ageMs > options.maxAgeMs) throw new StaleDeliveryError(ageMs, options.maxAgeMs);
  }

  const info: DeliveryInfo = { eventId: body.event_id, eventType: body.event_type, subscriptionId, secretIndex };
  return options.knownEventTypes.includes(body.event_type)
    ? { known: true, ...info, event: body as unknown as E }
    : { known: false, ...info, event: body };
}

/** The secrets' bytes; throws a TypeError naming the problem when none is given or one is empty or not a string. */
export function checkSecrets(secret: string | readonly string[]): Uint8Array[] {
  const list = typeof secret === "string" ? [secret] : secret;
  if (!Array.isArray(list) || list.length === 0) throw new TypeError("at least one webhook secret is required");
  return list.map((one, index) => {
    if (typeof one !== "string" || one === "") {
      throw new TypeError(`webhook secret${list.length > 1 ? ` ${index}` : ""} must be a non-empty string`);
    }
    return secretBytes(one);
  });
}

const decoder = new TextDecoder("utf-8", { fatal: true });

function parseBody(rawBody: string | Uint8Array): UnknownEventBody {
  let text: string;
  try {
    text = typeof rawBody === "string" ? rawBody : decoder.decode(rawBody);
  } catch (cause) {
    throw new InvalidPayloadError("body is not UTF-8", { cause });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new InvalidPayloadError("body is not JSON", { cause });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new InvalidPayloadError("body is not a JSON object");
  const record = value as Record<string, unknown>;
  if (typeof record.event_type !== "string" || record.event_type === "") {
    throw new InvalidPayloadError("event_type is missing or not a string");
  }
  if (typeof record.event_id !== "string" || record.event_id === "") throw new InvalidPayloadError("event_id is missing or not a string");
  return record as UnknownEventBody;
}

/**
 * The single value of a header, or undefined when absent or empty. Names are compared case-insensitively; several
 * values (repeated header, array value, keys differing only in case) make the header malformed.
 */
export function readHeader(headers: HeadersInput, name: string): string | undefined {
  const lower = name.toLowerCase();
  if (typeof (headers as { get?: unknown }).get === "function") {
    const value = (headers as { get(name: string): string | null }).get(name);
    return value === null || value === "" ? undefined : value;
  }
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() !== lower || value === undefined) continue;
    if (typeof value === "string") values.push(value);
    else if (Array.isArray(value) && value.every((v) => typeof v === "string")) values.push(...(value as string[]));
    else throw new MalformedHeaderError(name, "value is not a string");
  }
  if (values.length > 1) throw new MalformedHeaderError(name, "more than one value");
  const [value] = values;
  return value === undefined || value === "" ? undefined : value;
}
