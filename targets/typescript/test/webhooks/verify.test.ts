import { describe, expect, expectTypeOf, it } from "vitest";
import {
  HeaderMismatchError,
  InvalidPayloadError,
  MalformedHeaderError,
  MissingHeaderError,
  SignatureMismatchError,
  sign,
  type VerifiedEvent,
  verify,
  WebhookVerificationError,
} from "../../runtime/webhooks/index.js";
import {
  deliveryHeaders,
  eventBody,
  fixture,
  KNOWN_EVENT_TYPES,
  OLD_SECRET,
  SECRET,
  type TestEvent,
  SIGNING,
  signedAt,
} from "./helpers.js";

const options = { knownEventTypes: KNOWN_EVENT_TYPES, signing: SIGNING };

async function rejection(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return error as WebhookVerificationError;
  }
  throw new Error("expected verification to fail");
}

describe("verify", () => {
  it("returns a known event typed as E", async () => {
    const body = eventBody();
    const result = await verify<TestEvent, "event_type" | "event_id">(body, await deliveryHeaders(body), SECRET, options);
    expectTypeOf(result).toEqualTypeOf<VerifiedEvent<TestEvent, "event_type" | "event_id">>();
    expect(result.known).toBe(true);
    if (!result.known) return;
    expect(result).toMatchObject({
      eventId: "9f86d081884c7d659a2feaa0c55ad015",
      eventType: "document.processed",
      subscriptionId: "42",
      secretIndex: 0,
    });
    if (result.event.event_type === "document.processed") {
      expectTypeOf(result.event.data.processing_result.confidence).toEqualTypeOf<number>();
      expect(result.event.data.processing_result.confidence).toBe(0.97);
    } else {
      throw new Error("narrowing failed");
    }
  });

  it("returns an unknown future event type instead of throwing it away", async () => {
    const f = fixture("event type not in the description (future event)");
    const result = await verify<TestEvent, "event_type" | "event_id">(
      f.body,
      { "X-Service-Signature": f.signature, "X-Service-Event-ID": "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb" },
      f.secret,
      { ...options, now: signedAt(f.body) },
    );
    expect(result.known).toBe(false);
    if (result.known) return;
    expectTypeOf(result.event.event_type).toEqualTypeOf<string>();
    expect(result.event).toEqual(JSON.parse(f.body));
    expect(result.eventType).toBe("document.archived_forever");
  });

  it("rejects a tampered body", async () => {
    const body = eventBody();
    const headers = await deliveryHeaders(body);
    const tampered = body.replace('"confidence":0.97', '"confidence":0.99');
    expect(tampered).not.toBe(body);
    const error = await rejection(verify(tampered, headers, SECRET, options));
    expect(error).toBeInstanceOf(SignatureMismatchError);
    expect(error.status).toBe(401);
  });

  it("rejects a body that was parsed and serialised again", async () => {
    for (const description of ["pretty-printed document.deleted delivery with trailing newline", "non-ASCII UTF-8 body"]) {
      const f = fixture(description);
      const original = JSON.parse(f.body) as { event_id: string };
      const reserialised = description.startsWith("non-ASCII") ? JSON.stringify(original, null, 1) : JSON.stringify(original);
      expect(reserialised).not.toBe(f.body);
      const headers = { "X-Service-Signature": f.signature, "X-Service-Event-ID": original.event_id };
      const atSigning = { ...options, now: signedAt(f.body) };
      await expect(verify(f.body, headers, f.secret, atSigning)).resolves.toMatchObject({ known: true });
      expect(await rejection(verify(reserialised, headers, f.secret, atSigning))).toBeInstanceOf(SignatureMismatchError);
    }
    // Escaped and literal non-ASCII characters are the same JSON value but different bytes.
    const escaped = eventBody({ data: { name: "B\\u00fcro" } }).replace("B\\\\u00fcro", "B\\u00fcro");
    expect(escaped).toContain("B\\u00fcro");
    const headers = await deliveryHeaders(escaped);
    await expect(verify(escaped, headers, SECRET, options)).resolves.toMatchObject({ known: true });
    const literal = JSON.stringify(JSON.parse(escaped));
    expect(literal).toContain("Büro");
    expect(await rejection(verify(literal, headers, SECRET, options))).toBeInstanceOf(SignatureMismatchError);
  });

  it("rejects a wrong secret and accepts the second secret during a rotation", async () => {
    const body = eventBody();
    const headers = await deliveryHeaders(body, OLD_SECRET);
    expect(await rejection(verify(body, headers, SECRET, options))).toBeInstanceOf(SignatureMismatchError);
    const rotated = await verify(body, headers, [SECRET, OLD_SECRET], options);
    expect(rotated.secretIndex).toBe(1);
    const f = fixture("rotated secret");
    const atSigning = { ...options, now: signedAt(f.body) };
    await expect(verify(f.body, { ...headers, "X-Service-Signature": f.signature }, [SECRET, f.secret], atSigning)).resolves.toMatchObject({
      secretIndex: 1,
    });
    expect(await rejection(verify(body, headers, ["a", "b", "c"], options))).toBeInstanceOf(SignatureMismatchError);
  });

  it("reports a missing signature header (401) and a missing event id header (400)", async () => {
    const body = eventBody();
    const { "X-Service-Signature": _signature, ...withoutSignature } = await deliveryHeaders(body);
    const missing = await rejection(verify(body, withoutSignature, SECRET, options));
    expect(missing).toBeInstanceOf(MissingHeaderError);
    expect(missing).toMatchObject({ code: "missing_header", header: "X-Service-Signature", status: 401 });
    expect(await rejection(verify(body, { ...withoutSignature, "X-Service-Signature": "" }, SECRET, options))).toBeInstanceOf(
      MissingHeaderError,
    );

    const { "X-Service-Event-ID": _id, ...withoutId } = await deliveryHeaders(body);
    expect(await rejection(verify(body, withoutId, SECRET, options))).toMatchObject({
      code: "missing_header",
      header: "X-Service-Event-ID",
      status: 400,
    });
  });

  it("reports malformed and truncated signature headers", async () => {
    const body = eventBody();
    const headers = await deliveryHeaders(body);
    const signature = headers["X-Service-Signature"]!;
    const hex = signature.slice(7);
    const variants = [
      signature.slice(0, -1), // truncated
      signature.slice(0, 7 + 32),
      "sha256=",
      `${signature}0`,
      hex, // no prefix
      `SHA256=${hex}`,
      `sha256=${hex.toUpperCase()}`, // uppercase hex is refused (the description's pattern is lowercase)
      `sha1=${hex}`,
      ` ${signature}`,
      `${signature} `,
      `sha256= ${hex}`,
      `sha256=${hex.slice(0, -1)}g`,
      `${signature},${signature}`,
    ];
    for (const value of variants) {
      const error = await rejection(verify(body, { ...headers, "X-Service-Signature": value }, SECRET, options));
      expect(error, value).toBeInstanceOf(MalformedHeaderError);
      expect(error.status).toBe(401);
    }
    expect(await rejection(verify(body, { ...headers, "X-Service-Signature": [signature, signature] }, SECRET, options))).toBeInstanceOf(
      MalformedHeaderError,
    );
    expect(
      await rejection(verify(body, { ...headers, "x-service-signature": signature, "X-SERVICE-SIGNATURE": signature }, SECRET, options)),
    ).toBeInstanceOf(MalformedHeaderError);
  });

  it("rejects a tampered signature header of the right form", async () => {
    const body = eventBody();
    const headers = await deliveryHeaders(body);
    const signature = headers["X-Service-Signature"]!;
    const last = signature.at(-1) === "0" ? "1" : "0";
    const error = await rejection(verify(body, { ...headers, "X-Service-Signature": signature.slice(0, -1) + last }, SECRET, options));
    expect(error).toBeInstanceOf(SignatureMismatchError);
  });

  it("matches header names case-insensitively, in records, arrays and Headers", async () => {
    const body = eventBody();
    const headers = await deliveryHeaders(body);
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), [v]]));
    for (const variant of [headers, lower, upper, new Headers(headers)]) {
      await expect(verify(body, variant, SECRET, options)).resolves.toMatchObject({ eventId: "9f86d081884c7d659a2feaa0c55ad015" });
    }
  });

  it("rejects signed bodies that are not JSON objects with event_type and event_id (400)", async () => {
    const cases: [string, RegExp][] = [
      ["not json", /not JSON/],
      ["", /not JSON/],
      ["[1,2]", /not a JSON object/],
      ["null", /not a JSON object/],
      ['"text"', /not a JSON object/],
      ['{"event_id":"9f86d081884c7d659a2feaa0c55ad015"}', /event_type/],
      ['{"event_type":42,"event_id":"9f86d081884c7d659a2feaa0c55ad015"}', /event_type/],
      ['{"event_type":"job.failed"}', /event_id/],
    ];
    for (const [body, message] of cases) {
      const headers = {
        "X-Service-Signature": await sign(body, SECRET, SIGNING),
        "X-Service-Event-ID": "9f86d081884c7d659a2feaa0c55ad015",
      };
      const error = await rejection(verify(body, headers, SECRET, options));
      expect(error, body).toBeInstanceOf(InvalidPayloadError);
      expect(error.message).toMatch(message);
      expect(error.status).toBe(400);
    }
    const invalidUtf8 = new Uint8Array([0x7b, 0xff, 0x7d]);
    const headers = { "X-Service-Signature": await sign(invalidUtf8, SECRET, SIGNING), "X-Service-Event-ID": "x" };
    expect((await rejection(verify(invalidUtf8, headers, SECRET, options))).message).toMatch(/UTF-8/);
  });

  it("rejects headers that disagree with the signed body", async () => {
    const body = eventBody();
    const headers = await deliveryHeaders(body);
    const id = await rejection(verify(body, { ...headers, "X-Service-Event-ID": "00000000000000000000000000000000" }, SECRET, options));
    expect(id).toBeInstanceOf(HeaderMismatchError);
    expect(id).toMatchObject({ code: "header_mismatch", header: "X-Service-Event-ID", field: "event_id", status: 400 });
    expect(await rejection(verify(body, { ...headers, "X-Service-Event": "job.failed" }, SECRET, options))).toMatchObject({
      header: "X-Service-Event",
    });
    expect(await rejection(verify(body, { ...headers, "X-Service-Subscription-ID": "43" }, SECRET, options))).toMatchObject({
      header: "X-Service-Subscription-ID",
    });
  });

  it("checks the signature before looking at the body", async () => {
    // Garbage that is not JSON, with a wrong signature, is a signature error, not a payload error.
    const error = await rejection(verify("{not json", { "X-Service-Signature": `sha256=${"a".repeat(64)}` }, SECRET, options));
    expect(error).toBeInstanceOf(SignatureMismatchError);
  });
});
