/**
 * Errors thrown by `verify` (and mapped to HTTP statuses by the receiver helpers).
 *
 * Every error is a `WebhookVerificationError`; `code` tells the kinds apart without `instanceof` (useful across
 * bundles), `status` is the HTTP status a receiver should answer with: 401 while the signature is not established,
 * 400 for a delivery whose signature is valid but which is not a valid event.
 */

import { SdkError } from "../errors.js";

export type WebhookVerificationErrorCode =
  | "missing_header"
  | "malformed_header"
  | "signature_mismatch"
  | "invalid_payload"
  | "header_mismatch"
  | "stale_delivery"
  | "body_not_raw";

export class WebhookVerificationError extends SdkError {
  override readonly name: string = "WebhookVerificationError";
  readonly code: WebhookVerificationErrorCode;
  /**
   * HTTP status a receiver answers with: 401 (signature not established), 400 (signed, but not a valid or not a
   * recent event) or 500 (the receiver passed a parsed body instead of the raw one).
   */
  readonly status: 400 | 401 | 500;

  constructor(code: WebhookVerificationErrorCode, status: 400 | 401 | 500, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.status = status;
  }
}

/** A required delivery header is absent (or empty): 401 for the signature header, 400 for the others. */
export class MissingHeaderError extends WebhookVerificationError {
  override readonly name = "MissingHeaderError";
  readonly header: string;

  constructor(header: string, isSignature = false) {
    super("missing_header", isSignature ? 401 : 400, `missing ${header} header`);
    this.header = header;
  }
}

/**
 * A delivery header is present but not in the documented form (for the signature: exactly the description's prefix
 * and 64 lowercase hex digits); 401 for the signature header, 400 for the others.
 */
export class MalformedHeaderError extends WebhookVerificationError {
  override readonly name = "MalformedHeaderError";
  readonly header: string;

  constructor(header: string, reason: string, isSignature = false) {
    super("malformed_header", isSignature ? 401 : 400, `malformed ${header} header: ${reason}`);
    this.header = header;
  }
}

/** The signature does not match the raw body under any of the configured secrets. */
export class SignatureMismatchError extends WebhookVerificationError {
  override readonly name = "SignatureMismatchError";

  constructor() {
    super("signature_mismatch", 401, "signature does not match the body under any configured secret");
  }
}

/** The body is correctly signed but is not JSON, not an object, or lacks a string event type or event id. */
export class InvalidPayloadError extends WebhookVerificationError {
  override readonly name = "InvalidPayloadError";

  constructor(reason: string, options?: { cause?: unknown }) {
    super("invalid_payload", 400, `invalid webhook payload: ${reason}`, options);
  }
}

/** An (unsigned) delivery header disagrees with the signed body, e.g. the event id header differs from the body's event id. */
export class HeaderMismatchError extends WebhookVerificationError {
  override readonly name = "HeaderMismatchError";
  readonly header: string;
  readonly field: string;

  constructor(header: string, field: string) {
    super("header_mismatch", 400, `${header} header does not equal the body's ${field}`);
    this.header = header;
    this.field = field;
  }
}

/**
 * The signed timestamp lies outside the replay window (older, or further in the future, than the receiver's
 * `maxAgeMs`), or is missing or not a date: a possible replay.
 */
export class StaleDeliveryError extends WebhookVerificationError {
  override readonly name = "StaleDeliveryError";
  /** Age of the delivery in milliseconds (negative when stamped in the future); undefined when unreadable. */
  readonly ageMs: number | undefined;
  /** The signed body field holding the timestamp. */
  readonly field: string | undefined;

  constructor(ageMs: number | undefined, maxAgeMs: number, field?: string) {
    const named = field === undefined ? "the body's timestamp" : `the body's ${field}`;
    const window = `outside the replay window of ${Math.round(maxAgeMs / 1000)} s`;
    super(
      "stale_delivery",
      400,
      ageMs === undefined
        ? `${named} is missing or not an ISO 8601 time, so the delivery's age cannot be checked`
        : ageMs >= 0
          ? `${named} is ${Math.round(ageMs / 1000)} s old, ${window}`
          : `${named} is ${Math.round(-ageMs / 1000)} s in the future, ${window}`,
    );
    this.ageMs = ageMs;
    this.field = field;
  }
}

/**
 * The body handed over is not the raw body (a string or bytes): typically a body parser ran first and left an
 * object. The signature covers the exact bytes sent, so such a body can never be verified.
 */
export class RawBodyRequiredError extends WebhookVerificationError {
  override readonly name = "RawBodyRequiredError";

  constructor(what: string) {
    super(
      "body_not_raw",
      500,
      `the raw request body is required (a string, Uint8Array or Buffer) but ${what}; mount the webhook handler before any body parser, or use express.raw()`,
    );
  }
}

export function isWebhookVerificationError(error: unknown): error is WebhookVerificationError {
  return error instanceof WebhookVerificationError;
}
