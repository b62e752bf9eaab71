import * as nodeCrypto from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import {
  createNodeHmac,
  createWebCryptoHmac,
  detectHmac,
  type HmacChoice,
  resolveHmac,
  SignatureMismatchError,
  sign,
  verify,
} from "../../runtime/webhooks/index.js";
import { fixtures, KNOWN_EVENT_TYPES, SIGNING, signedAt } from "./helpers.js";

const implementations: readonly ("node" | "webcrypto")[] = ["node", "webcrypto"];

describe("sign matches signatures computed independently with openssl", () => {
  it("has fixtures", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(5);
  });

  for (const crypto of implementations) {
    for (const f of fixtures) {
      it(`${crypto}: ${f.description}`, async () => {
        expect(await sign(f.body, f.secret, SIGNING, { crypto })).toBe(f.signature);
        expect(await sign(new TextEncoder().encode(f.body), f.secret, SIGNING, { crypto })).toBe(f.signature);
      });
    }
  }
});

describe("verify accepts the openssl signatures", () => {
  for (const crypto of implementations) {
    for (const f of fixtures) {
      it(`${crypto}: ${f.description}`, async () => {
        const body = JSON.parse(f.body) as { event_id: string; event_type: string };
        const headers = { "x-service-signature": f.signature, "x-service-event-id": body.event_id };
        const asString = await verify(f.body, headers, f.secret, {
          knownEventTypes: KNOWN_EVENT_TYPES,
          signing: SIGNING,
          crypto,
          now: signedAt(f.body),
        });
        const asBytes = await verify(new TextEncoder().encode(f.body), new Headers(headers), [f.secret], {
          knownEventTypes: KNOWN_EVENT_TYPES,
          signing: SIGNING,
          crypto,
          now: signedAt(f.body),
        });
        expect(asString.eventId).toBe(body.event_id);
        expect(asBytes.eventType).toBe(body.event_type);
        await expect(
          verify(f.body, headers, `${f.secret}x`, { knownEventTypes: KNOWN_EVENT_TYPES, signing: SIGNING, crypto, now: signedAt(f.body) }),
        ).rejects.toBeInstanceOf(SignatureMismatchError);
      });
    }
  }
});

describe("implementation selection", () => {
  it("auto picks node:crypto under Node", () => {
    expect(resolveHmac("auto").name).toBe("node");
    expect(detectHmac().name).toBe("node");
  });

  it("picks Web Crypto when node:crypto is not available", () => {
    expect(detectHmac({ crypto: globalThis.crypto }).name).toBe("webcrypto");
    expect(detectHmac({ process: {}, crypto: globalThis.crypto }).name).toBe("webcrypto");
    expect(detectHmac({ process: { getBuiltinModule: () => undefined }, crypto: globalThis.crypto }).name).toBe("webcrypto");
  });

  it("fails clearly when neither is available", () => {
    expect(() => detectHmac({})).toThrow(/neither node:crypto nor Web Crypto/);
  });

  it("lets the caller force either implementation", () => {
    expect(resolveHmac("node").name).toBe("node");
    expect(resolveHmac("webcrypto").name).toBe("webcrypto");
    expect(() => resolveHmac("md5" as HmacChoice)).toThrow(TypeError);
  });

  it("the forced Web Crypto path compares with crypto.subtle.verify", async () => {
    const subtle = globalThis.crypto.subtle;
    const spy = {
      importKey: vi.fn(subtle.importKey.bind(subtle)),
      sign: vi.fn(subtle.sign.bind(subtle)),
      verify: vi.fn(subtle.verify.bind(subtle)),
    };
    const webcrypto = createWebCryptoHmac(spy as unknown as SubtleCrypto);
    const f = fixtures[0]!;
    const eventId = (JSON.parse(f.body) as { event_id: string }).event_id;
    const headers = { "X-Service-Signature": f.signature, "X-Service-Event-ID": eventId };
    await verify(f.body, headers, f.secret, {
      knownEventTypes: KNOWN_EVENT_TYPES,
      signing: SIGNING,
      crypto: webcrypto,
      now: signedAt(f.body),
    });
    expect(spy.verify).toHaveBeenCalledTimes(1);
    expect(spy.verify.mock.calls[0]![0]).toBe("HMAC");
    expect(spy.sign).not.toHaveBeenCalled();
    await expect(
      verify(f.body, headers, "another secret", {
        knownEventTypes: KNOWN_EVENT_TYPES,
        signing: SIGNING,
        crypto: webcrypto,
        now: signedAt(f.body),
      }),
    ).rejects.toBeInstanceOf(SignatureMismatchError);
    expect(spy.verify).toHaveBeenCalledTimes(2);
  });

  it("the node path compares with timingSafeEqual", async () => {
    const timingSafeEqual = vi.fn(nodeCrypto.timingSafeEqual);
    const node = createNodeHmac({ ...nodeCrypto, timingSafeEqual });
    const f = fixtures[0]!;
    const eventId = (JSON.parse(f.body) as { event_id: string }).event_id;
    await verify(f.body, { "x-service-signature": f.signature, "x-service-event-id": eventId }, f.secret, {
      knownEventTypes: KNOWN_EVENT_TYPES,
      signing: SIGNING,
      crypto: node,
      now: signedAt(f.body),
    });
    expect(timingSafeEqual).toHaveBeenCalledTimes(1);
  });

  it("refuses an empty secret", async () => {
    await expect(sign("{}", "", SIGNING)).rejects.toThrow(TypeError);
    await expect(
      verify("{}", { "x-service-signature": `sha256=${"0".repeat(64)}` }, [], { knownEventTypes: [], signing: SIGNING }),
    ).rejects.toThrow(TypeError);
  });
});
