import { describe, expect, it } from "vitest";
import {
  CallbackTimeoutError,
  type ClaimResult,
  createWebhookProcessor,
  DEFAULT_MAX_AGE_MS,
  type DedupeStore,
  MemoryDedupeStore,
  RawBodyRequiredError,
  StaleDeliveryError,
  verify,
} from "../../runtime/webhooks/index.js";
import { deliveryHeaders, eventBody, KNOWN_EVENT_TYPES, SECRET, type TestEvent, SIGNING } from "./helpers.js";

const LEASE = 60_000;

describe("MemoryDedupeStore", () => {
  it("claims an id once; a copy is processing until completed, then done; a released id is claimable again", async () => {
    const store = new MemoryDedupeStore();
    expect(await store.claim("a", LEASE)).toBe("claimed");
    expect(await store.claim("a", LEASE)).toBe("processing");
    expect(await store.claim("b", LEASE)).toBe("claimed");
    await store.complete("b");
    expect(await store.claim("b", LEASE)).toBe("done");
    await store.release("a");
    expect(await store.claim("a", LEASE)).toBe("claimed");
    expect(await store.claim("a", LEASE)).toBe("processing");
  });

  it("gives one of many concurrent claims for an id", async () => {
    const store = new MemoryDedupeStore();
    const results = await Promise.all(Array.from({ length: 50 }, () => store.claim("same", LEASE)));
    expect(results.filter((r) => r === "claimed")).toHaveLength(1);
    expect(results.filter((r) => r === "processing")).toHaveLength(49);
  });

  it("lets a processing claim expire after its lease, and a done id after the time to live (injected clock)", async () => {
    let now = 1_000;
    const store = new MemoryDedupeStore({ ttlMs: 100, now: () => now });
    expect(await store.claim("a", 10)).toBe("claimed");
    now = 1_009;
    expect(await store.claim("a", 10)).toBe("processing");
    now = 1_010;
    // The process that claimed it is presumed dead: the next copy is processed.
    expect(await store.claim("a", 10)).toBe("claimed");
    await store.complete("a");
    now = 1_109;
    expect(await store.claim("a", 10)).toBe("done");
    now = 1_110;
    expect(await store.claim("a", 10)).toBe("claimed");
  });

  it("is bounded in size, forgetting the oldest claims first", async () => {
    const store = new MemoryDedupeStore({ maxEntries: 3 });
    for (const id of ["a", "b", "c", "d"]) expect(await store.claim(id, LEASE)).toBe("claimed");
    expect(store.size).toBe(3);
    expect(await store.claim("d", LEASE)).toBe("processing");
    expect(await store.claim("c", LEASE)).toBe("processing");
    expect(await store.claim("a", LEASE)).toBe("claimed"); // evicted, so claimable again (this evicts b)
    expect(await store.claim("b", LEASE)).toBe("claimed");
    expect(store.size).toBe(3);
  });

  it("evicts in claim order across releases and re-claims", async () => {
    const store = new MemoryDedupeStore({ maxEntries: 2 });
    await store.claim("a", LEASE);
    await store.claim("b", LEASE);
    await store.release("a");
    await store.claim("a", LEASE); // a is now newer than b
    await store.claim("c", LEASE); // evicts b, not a
    expect(await store.claim("a", LEASE)).toBe("processing");
    expect(await store.claim("b", LEASE)).toBe("claimed");
    expect(store.size).toBe(2);
  });

  it("claims and evicts in constant time once full", async () => {
    // Eviction used to walk the Map from its start past every deleted entry (about 44 µs a claim once full). Compare
    // the cost per claim of a full store of 1 000 and of 100 000 ids: a walk grows with the size, a queue does not.
    const perClaim = async (maxEntries: number) => {
      const store = new MemoryDedupeStore({ maxEntries });
      for (let i = 0; i < maxEntries; i++) await store.claim(`fill-${i}`, LEASE);
      const rounds = 50_000;
      const started = performance.now();
      for (let i = 0; i < rounds; i++) await store.claim(`next-${i}`, LEASE);
      expect(store.size).toBe(maxEntries);
      return (performance.now() - started) / rounds;
    };
    const small = await perClaim(1_000);
    const large = await perClaim(100_000);
    // Generous for a busy machine: a linear walk is about 100x slower on the large store.
    expect(large).toBeLessThan(Math.max(small * 10, 0.02));
  });

  it("validates its options", () => {
    expect(() => new MemoryDedupeStore({ maxEntries: 0 })).toThrow(RangeError);
    expect(() => new MemoryDedupeStore({ ttlMs: 0 })).toThrow(RangeError);
  });
});

/** A store that records every call, over a MemoryDedupeStore. */
function recordingStore(): DedupeStore & { calls: string[] } {
  const inner = new MemoryDedupeStore();
  const calls: string[] = [];
  return {
    calls,
    claim: async (id: string, leaseMs: number): Promise<ClaimResult> => {
      const result = await inner.claim(id, leaseMs);
      calls.push(`claim ${result}`);
      return result;
    },
    complete: async (id: string) => {
      calls.push("complete");
      await inner.complete(id);
    },
    release: async (id: string) => {
      calls.push("release");
      await inner.release(id);
    },
  };
}

describe("deduplication in the processor", () => {
  it("answers 409 to a retry that arrives while the first copy runs; when the first then fails, the next retry is processed", async () => {
    const body = eventBody();
    const headers = await deliveryHeaders(body);
    let calls = 0;
    let fail!: (error: Error) => void;
    const processDelivery = createWebhookProcessor<TestEvent, "event_type">({
      secret: SECRET,
      knownEventTypes: KNOWN_EVENT_TYPES,
      signing: SIGNING,
      on: {
        "document.processed": () => {
          calls++;
          if (calls === 1) return new Promise<void>((_resolve, reject) => (fail = reject));
        },
      },
    });
    const first = processDelivery(body, headers);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const retry = await processDelivery(body, headers);
    expect(retry).toMatchObject({ status: 409, body: { error: "in_progress" } });
    fail(new Error("database down"));
    expect(await first).toMatchObject({ status: 500, body: { error: "callback_failed" } });
    // The service retries: the event is not lost.
    expect(await processDelivery(body, headers)).toMatchObject({ status: 200, body: { status: "processed" } });
    expect(await processDelivery(body, headers)).toMatchObject({ status: 200, body: { status: "duplicate" } });
    expect(calls).toBe(2);
  });

  it("releases the claim of a callback that never settles after callbackTimeoutMs, so the retry is processed", async () => {
    const body = eventBody();
    const headers = await deliveryHeaders(body);
    const store = recordingStore();
    let calls = 0;
    const errors: [string, string, number][] = [];
    const processDelivery = createWebhookProcessor<TestEvent, "event_type">({
      secret: SECRET,
      knownEventTypes: KNOWN_EVENT_TYPES,
      signing: SIGNING,
      store,
      callbackTimeoutMs: 200,
      on: {
        "document.processed": () => {
          calls++;
          // The first call never settles.
          if (calls === 1) return new Promise<void>(() => {});
        },
      },
      onError: (error, context) => errors.push([(error as Error).name, context.stage, context.status]),
    });
    const started = Date.now();
    const first = await processDelivery(body, headers);
    expect(Date.now() - started).toBeGreaterThanOrEqual(195);
    expect(first).toMatchObject({ status: 503, body: { error: "callback_timeout" } });
    expect(errors).toEqual([["CallbackTimeoutError", "callback", 503]]);
    expect(await processDelivery(body, headers)).toMatchObject({ status: 200, body: { status: "processed" } });
    expect(await processDelivery(body, headers)).toMatchObject({ status: 200, body: { status: "duplicate" } });
    expect(calls).toBe(2);
    expect(store.calls).toEqual(["claim claimed", "release", "claim claimed", "complete", "claim done"]);
  });

  it("claims with a lease just above the callback timeout, so only a dead process leaves a claim to expire", async () => {
    const leases: number[] = [];
    const processDelivery = createWebhookProcessor<TestEvent, "event_type">({
      secret: SECRET,
      knownEventTypes: KNOWN_EVENT_TYPES,
      signing: SIGNING,
      callbackTimeoutMs: 5_000,
      store: {
        claim: async (_id, leaseMs) => {
          leases.push(leaseMs);
          return "claimed";
        },
        complete: async () => {},
        release: async () => {},
      },
      on: {},
    });
    const body = eventBody();
    await processDelivery(body, await deliveryHeaders(body));
    expect(leases).toHaveLength(1);
    expect(leases[0]).toBeGreaterThan(5_000);
    expect(leases[0]).toBeLessThan(24 * 3_600_000);
    expect(new CallbackTimeoutError(5).timeoutMs).toBe(5);
  });

  it("releases the claim when the callback fails, so the retry is processed", async () => {
    const body = eventBody();
    const headers = await deliveryHeaders(body);
    const store = new MemoryDedupeStore();
    let attempts = 0;
    const errors: unknown[] = [];
    const processDelivery = createWebhookProcessor<TestEvent, "event_type">({
      secret: SECRET,
      knownEventTypes: KNOWN_EVENT_TYPES,
      signing: SIGNING,
      store,
      on: {
        "document.processed": () => {
          attempts++;
          if (attempts === 1) throw new Error("database down");
        },
      },
      onError: (error, context) => errors.push([error instanceof Error ? error.message : error, context.stage, context.status]),
    });
    expect(await processDelivery(body, headers)).toMatchObject({ status: 500, body: { error: "callback_failed" } });
    expect(errors).toEqual([["database down", "callback", 500]]);
    expect(await processDelivery(body, headers)).toMatchObject({ status: 200, body: { status: "processed" } });
    expect(await processDelivery(body, headers)).toMatchObject({ status: 200, body: { status: "duplicate" } });
    expect(attempts).toBe(2);
  });

  it("uses the signed event_id, not only the header, as the key", async () => {
    const seen: string[] = [];
    const store: DedupeStore = {
      claim: async (id: string) => {
        seen.push(id);
        return "claimed";
      },
      complete: async () => {},
      release: async () => {},
    };
    const processDelivery = createWebhookProcessor<TestEvent, "event_type">({
      secret: SECRET,
      knownEventTypes: KNOWN_EVENT_TYPES,
      signing: SIGNING,
      store,
      on: {},
    });
    const body = eventBody();
    const headers = await deliveryHeaders(body);
    expect(await processDelivery(body, { ...headers, "X-Service-Event-ID": "ffffffffffffffffffffffffffffffff" })).toMatchObject({
      status: 400,
    });
    expect(await processDelivery(body, headers)).toMatchObject({ status: 200, body: { status: "ignored" } });
    expect(seen).toEqual(["9f86d081884c7d659a2feaa0c55ad015"]);
  });

  it("answers 500 when the store fails, without calling the callback", async () => {
    let called = false;
    const processDelivery = createWebhookProcessor<TestEvent, "event_type">({
      secret: SECRET,
      knownEventTypes: KNOWN_EVENT_TYPES,
      signing: SIGNING,
      store: {
        claim: () => Promise.reject(new Error("redis down")),
        complete: async () => {},
        release: async () => {},
      },
      on: {
        "document.processed": () => {
          called = true;
        },
      },
    });
    const body = eventBody();
    expect(await processDelivery(body, await deliveryHeaders(body))).toMatchObject({ status: 500, body: { error: "store_error" } });
    expect(called).toBe(false);
  });

  it("can be turned off", async () => {
    let calls = 0;
    const processDelivery = createWebhookProcessor<TestEvent, "event_type">({
      secret: SECRET,
      knownEventTypes: KNOWN_EVENT_TYPES,
      signing: SIGNING,
      store: false,
      on: { "document.processed": () => void calls++ },
    });
    const body = eventBody();
    const headers = await deliveryHeaders(body);
    await processDelivery(body, headers);
    await processDelivery(body, headers);
    expect(calls).toBe(2);
  });
});

describe("replay window", () => {
  const at = (iso: string) => () => Date.parse(iso);

  it("refuses a signed delivery older than maxAgeMs with 400 stale_delivery, and accepts a recent one", async () => {
    let calls = 0;
    const options = {
      secret: SECRET,
      knownEventTypes: KNOWN_EVENT_TYPES,
      signing: SIGNING,
      maxAgeMs: 3_600_000,
      on: { "document.processed": () => void calls++ },
    };
    const processDelivery = createWebhookProcessor<TestEvent, "event_type">(options);
    const old = eventBody({ timestamp: "2020-01-01T00:00:00Z" });
    expect(await processDelivery(old, await deliveryHeaders(old))).toMatchObject({ status: 400, body: { error: "stale_delivery" } });
    const recent = eventBody({ timestamp: new Date(Date.now() - 60_000).toISOString() });
    expect(await processDelivery(recent, await deliveryHeaders(recent))).toMatchObject({ status: 200, body: { status: "processed" } });
    expect(calls).toBe(1);
  });

  it("checks the signed timestamp in verify, and refuses a missing one when a maximum age is asked", async () => {
    const body = eventBody({ timestamp: "2026-11-20T09:00:00Z" });
    const headers = await deliveryHeaders(body);
    const options = { knownEventTypes: KNOWN_EVENT_TYPES, signing: SIGNING, maxAgeMs: 600_000 };
    await expect(verify(body, headers, SECRET, { ...options, now: at("2026-11-20T09:09:59Z") })).resolves.toMatchObject({ known: true });
    await expect(verify(body, headers, SECRET, { ...options, now: at("2026-11-20T09:10:01Z") })).rejects.toMatchObject({
      code: "stale_delivery",
      status: 400,
    });
    const undated = eventBody({ timestamp: undefined });
    await expect(verify(undated, await deliveryHeaders(undated), SECRET, options)).rejects.toMatchObject({ code: "stale_delivery" });
    // With maxAgeMs false the age is not looked at.
    await expect(
      verify(body, headers, SECRET, {
        knownEventTypes: KNOWN_EVENT_TYPES,
        signing: SIGNING,
        maxAgeMs: false,
        now: at("2030-01-01T00:00:00Z"),
      }),
    ).resolves.toMatchObject({ known: true });
  });

  it("has a default window of 300 s on either side of the clock, and names the field and the age when outside it", async () => {
    const body = eventBody({ timestamp: "2026-11-20T09:00:00Z" });
    const headers = await deliveryHeaders(body);
    const options = { knownEventTypes: KNOWN_EVENT_TYPES, signing: SIGNING };
    expect(DEFAULT_MAX_AGE_MS).toBe(300_000);
    await expect(verify(body, headers, SECRET, { ...options, now: at("2026-11-20T09:04:59Z") })).resolves.toMatchObject({ known: true });
    await expect(verify(body, headers, SECRET, { ...options, now: at("2026-11-20T08:55:01Z") })).resolves.toMatchObject({ known: true });
    const late = verify(body, headers, SECRET, { ...options, now: at("2026-11-20T09:05:01Z") });
    await expect(late).rejects.toBeInstanceOf(StaleDeliveryError);
    await expect(late).rejects.toThrow("the body's timestamp is 301 s old, outside the replay window of 300 s");
    await expect(verify(body, headers, SECRET, { ...options, now: at("2026-11-20T08:53:20Z") })).rejects.toThrow(
      "the body's timestamp is 400 s in the future, outside the replay window of 300 s",
    );
    const undated = eventBody({ timestamp: undefined });
    await expect(verify(undated, await deliveryHeaders(undated), SECRET, options)).rejects.toThrow(
      "the body's timestamp is missing or not an ISO 8601 time",
    );
    // The receivers apply the same default.
    const processDelivery = createWebhookProcessor<TestEvent, "event_type">({ secret: SECRET, ...options, on: {} });
    const old = eventBody({ timestamp: new Date(Date.now() - 301_000).toISOString() });
    expect(await processDelivery(old, await deliveryHeaders(old))).toMatchObject({ status: 400, body: { error: "stale_delivery" } });
  });

  it("refuses a maxAgeMs that is not positive when the handler is created", () => {
    expect(() => createWebhookProcessor({ secret: SECRET, knownEventTypes: [], signing: SIGNING, on: {}, maxAgeMs: 0 })).toThrow(
      RangeError,
    );
    expect(() => createWebhookProcessor({ secret: SECRET, knownEventTypes: [], signing: SIGNING, on: {}, callbackTimeoutMs: -1 })).toThrow(
      RangeError,
    );
  });
});

describe("configuration and body type", () => {
  it("checks the secret when the handler is created, not on every request", () => {
    for (const secret of ["", [], [SECRET, ""], [42 as unknown as string]]) {
      expect(() => createWebhookProcessor({ secret, knownEventTypes: [], signing: SIGNING, on: {} }), JSON.stringify(secret)).toThrow(
        TypeError,
      );
    }
    expect(() => createWebhookProcessor({ secret: [SECRET, "other"], knownEventTypes: [], signing: SIGNING, on: {} })).not.toThrow();
  });

  it("refuses a parsed body with one typed error, whatever the HMAC implementation", async () => {
    const body = eventBody();
    const headers = await deliveryHeaders(body);
    for (const crypto of ["node", "webcrypto"] as const) {
      const error = await verify(JSON.parse(body) as string, headers, SECRET, {
        knownEventTypes: KNOWN_EVENT_TYPES,
        signing: SIGNING,
        crypto,
      }).catch((e: unknown) => e);
      expect(error, crypto).toBeInstanceOf(RawBodyRequiredError);
      expect((error as RawBodyRequiredError).code).toBe("body_not_raw");
      const errors: string[] = [];
      const processDelivery = createWebhookProcessor<TestEvent, "event_type">({
        secret: SECRET,
        knownEventTypes: KNOWN_EVENT_TYPES,
        signing: SIGNING,
        crypto,
        on: {},
        onError: (e) => errors.push((e as Error).name),
      });
      expect(await processDelivery(JSON.parse(body) as string, headers)).toMatchObject({ status: 500, body: { error: "body_not_raw" } });
      expect(errors).toEqual(["RawBodyRequiredError"]);
    }
  });
});
