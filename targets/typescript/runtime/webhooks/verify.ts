import { type HmacChoice, fromHex, resolveHmac, secretBytes, toBytes, toHex } from "./crypto.js";
import type { WebhookSigningModel } from "../model.js";
import {
  HeaderMismatchError,
  InvalidPayloadError,
  MalformedHeaderError,
  MissingHeaderError,
  RawBodyRequiredError,
  SignatureMismatchError,
  StaleDeliveryError,
} from "./errors.js";

/**
 * The signature header form: the description's prefix followed by exactly 64 lowercase hex digits, nothing before or
 * after. Uppercase hex is refused: the service sends lowercase, so a single spelling is accepted. Surrounding
 * whitespace is not trimmed here (HTTP parsers and `Headers` already strip it), so a record with padded values is
 * refused too.
 */
export function signaturePattern(signing: WebhookSigningModel): RegExp {
  const prefix = signing.signature.prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${prefix}[0-9a-f]{64}$`);
}

/** A `Headers` object (or anything with a `get(name)` method) or a plain record such as node's `req.headers`. */
export type HeadersInput =
  | Headers
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Body of an event whose type is not among the known names (a type added to the service later). `F` names the
 * fields every body carries as strings (the description's event type and id fields; the generated client sets it).
 */
export type UnknownEventBody<F extends string = never> = Readonly<Record<F, string>> & Readonly<Record<string, unknown>>;

/** Facts about a verified delivery. */
export interface DeliveryInfo {
  /** The signed body's event id (equal to the event id header); the deduplication key. */
  eventId: string;
  eventType: string;
  /** The subscription id header when present. */
  subscriptionId: string | undefined;
  /** Index, in the list given to `verify`, of the secret that matched (watch it during rotation). */
  secretIndex: number;
}

export interface KnownWebhookEvent<E> extends DeliveryInfo {
  known: true;
  event: E;
}

export interface UnknownWebhookEvent<F extends string = never> extends DeliveryInfo {
  known: false;
  event: UnknownEventBody<F>;
}

/** Discriminated on `known`: a known event typed as `E`, or an event type this client does not know yet. */
export type VerifiedEvent<E, F extends string = never> = KnownWebhookEvent<E> | UnknownWebhookEvent<F>;

export interface VerifyOptions {
  /** The event names of the description; any other event type yields an `UnknownWebhookEvent`. */
  knownEventTypes: readonly string[];
  /** The description's signature header and prefix, delivery headers and body fields (the generated client's). */
  signing: WebhookSigningModel;
  /** HMAC implementation: `"auto"` (default), `"node"`, `"webcrypto"` or an implementation object. */
  crypto?: HmacChoice;
  /**
   * The replay window: refuse a delivery whose signed timestamp field lies further than this from the clock, in the
   * past or the future, or is missing (StaleDeliveryError). Default `DEFAULT_MAX_AGE_MS` (300 s) when the signing
   * model names a timestamp field; `false` turns the check off.
   */
  maxAgeMs?: number | false;
  /** Clock for the age check, for tests. Default `Date.now`. */
  now?: () => number;
}

export interface SignOptions {
  crypto?: HmacChoice;
}

/** `<prefix><hex>`: HMAC-SHA256 of the raw body bytes (UTF-8 of a string body) under the secret's UTF-8 bytes. */
export async function sign(
  body: string | Uint8Array,
  secret: string,
  signing: WebhookSigningModel,
  options: SignOptions = {},
): Promise<string> {
  const key = secretBytes(secret);
  const mac = await resolveHmac(options.crypto).sign(key, toBytes(body));
  return `${signing.signature.prefix}${toHex(mac)}`;
}

/**
 * Verifies a delivery and returns its event.
 *
 * Order: the signature header is checked and the HMAC of the unmodified raw body compared (constant time, each
 * secret in turn) before the body is decoded or parsed; only then is it parsed as JSON and cross-checked with the
 * unsigned headers (the event id header must equal the body's event id; the event type and subscription id headers,
 * when present, must equal the body's fields). Every name comes from `options.signing`. Pass the body exactly as
 * received: a body that was parsed and serialised again does not verify, and a body that is not a string or bytes
 * gets RawBodyRequiredError. Throws a `WebhookVerificationError` subclass on any failure and a `TypeError` when no
 * usable secret is configured.
 *
 * The event's fields beyond its type and id are not validated: they are signed by the service.
 */
export async function verify<E extends object, F extends string = never>(
  rawBody: string | Uint8Array,
  headers: HeadersInput,
  secret: string | readonly string[],
  options: VerifyOptions,
): Promise<VerifiedEvent<E, F>> {
  const keys = checkSecrets(secret);
  const hmac = resolveHmac(options.crypto);
  const { signature: signed, headers: names, body: fields } = options.signing;
  if (typeof rawBody !== "string" && !(rawBody instanceof Uint8Array)) {
    throw new RawBodyRequiredError(`the body passed is ${rawBody === null ? "null" : `a ${typeof rawBody}`}`);
  }

  const signature = readHeader(headers, signed.header, true);
  if (signature === undefined) throw new MissingHeaderError(signed.header, true);
  if (!signaturePattern(options.signing).test(signature)) {
    throw new MalformedHeaderError(signed.header, `expected ${signed.prefix} followed by 64 lowercase hex digits`, true);
  }
  const mac = fromHex(signature.slice(signed.prefix.length));
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
  const eventIdHeader = readHeader(headers, names.eventId);
  if (eventIdHeader === undefined) throw new MissingHeaderError(names.eventId);

  const body = parseBody(rawBody, fields);
  const eventId = body[fields.eventId] as string;
  const eventType = body[fields.eventType] as string;
  if (eventId !== eventIdHeader) throw new HeaderMismatchError(names.eventId, fields.eventId);

  const eventTypeHeader = names.eventType === undefined ? undefined : readHeader(headers, names.eventType);
  if (names.eventType !== undefined && eventTypeHeader !== undefined && eventTypeHeader !== eventType) {
    throw new HeaderMismatchError(names.eventType, fields.eventType);
  }
  const subscriptionId = names.subscriptionId === undefined ? undefined : readHeader(headers, names.subscriptionId);
  const bodySubscription = fields.subscriptionId === undefined ? undefined : body[fields.subscriptionId];
  if (
    names.subscriptionId !== undefined &&
    fields.subscriptionId !== undefined &&
    subscriptionId !== undefined &&
    (typeof bodySubscription === "number" || typeof bodySubscription === "string") &&
    String(bodySubscription) !== subscriptionId
  ) {
    throw new HeaderMismatchError(names.subscriptionId, fields.subscriptionId);
  }

  const maxAgeMs = replayWindow(options.maxAgeMs, fields.timestamp);
  if (maxAgeMs !== undefined) {
    const stamp = fields.timestamp === undefined ? undefined : body[fields.timestamp];
    const sentAt = typeof stamp === "string" ? Date.parse(stamp) : Number.NaN;
    const ageMs = Number.isNaN(sentAt) ? undefined : (options.now ?? Date.now)() - sentAt;
    if (ageMs === undefined || Math.abs(ageMs) > maxAgeMs) throw new StaleDeliveryError(ageMs, maxAgeMs, fields.timestamp);
  }

  const info: DeliveryInfo = { eventId, eventType, subscriptionId, secretIndex };
  return options.knownEventTypes.includes(eventType)
    ? { known: true, ...info, event: body as unknown as E }
    : { known: false, ...info, event: body as UnknownEventBody<F> };
}

/** Default replay window: a delivery's signed timestamp may lie at most 300 s from the receiver's clock. */
export const DEFAULT_MAX_AGE_MS = 300_000;

/**
 * The replay window in force: the given one, else the default when the body has a timestamp field; undefined when
 * off. Throws a RangeError for a window that is neither `false` nor a positive number of milliseconds.
 */
export function replayWindow(maxAgeMs: number | false | undefined, timestampField: string | undefined): number | undefined {
  if (maxAgeMs === false) return undefined;
  if (maxAgeMs === undefined) return timestampField === undefined ? undefined : DEFAULT_MAX_AGE_MS;
  if (!(maxAgeMs > 0)) throw new RangeError(`maxAgeMs must be a positive number of milliseconds or false, not ${maxAgeMs}`);
  return maxAgeMs;
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

function parseBody(rawBody: string | Uint8Array, fields: WebhookSigningModel["body"]): UnknownEventBody {
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
  for (const field of [fields.eventType, fields.eventId]) {
    const found = record[field];
    if (typeof found !== "string" || found === "") throw new InvalidPayloadError(`${field} is missing or not a string`);
  }
  return record;
}

/**
 * The single value of a header, or undefined when absent or empty. Names are compared case-insensitively; several
 * values (repeated header, array value, keys differing only in case) make the header malformed.
 */
export function readHeader(headers: HeadersInput, name: string, isSignature = false): string | undefined {
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
    else throw new MalformedHeaderError(name, "value is not a string", isSignature);
  }
  if (values.length > 1) throw new MalformedHeaderError(name, "more than one value", isSignature);
  const [value] = values;
  return value === undefined || value === "" ? undefined : value;
}
