import { describe, expect, it } from "vitest";
import { createWebhookProcessor, MemoryDedupeStore } from "../../runtime/webhooks/index.js";
import { deliveryHeaders, eventBody, KNOWN_EVENT_TYPES, SECRET, type TestEvent } from "./helpers.js";

describe("MemoryDedupeStore", () => {
  it("claims an id once, and again after release", async () => {
    const store = new MemoryDedupeStore();
    expect(await store.claim("a")).toBe(true);
    expect(await store.claim("a")).toBe(false);
    expect(await store.claim("b")).toBe(true);
    await store.release("a");
    expect(await store.claim("a")).toBe(true);
    expect(await store.claim("a")).toBe(false);
  });

  it("gives one of many concurrent claims for an id", async () => {
    const store = new MemoryDedupeStore();
    const results = await Promise.all(Array.from({ length: 50 }, () => store.claim("same")));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("forgets ids after the time to live (injected clock)", async () => {
    let now = 1_000;
    const store = new MemoryDedupeStore({ ttlMs: 100, now: () => now });
    expect(await store.claim("a")).toBe(true);
    now = 1_050;
    expect(await store.claim("b")).toBe(true);
    now = 1_099;
    expect(await store.claim("a")).toBe(false);
    now = 1_100;
    expect(await store.claim("a")).toBe(true);
    expect(await store.claim("b")).toBe(false);
    now = 1_150;
    expect(await store.claim("b")).toBe(true);
    expect(store.size).toBe(2);
    now = 1_300;
    expect(await store.claim("c")).toBe(true); // expired entries are purged on claim
    expect(store.size).toBe(1);
  });

  it("is bounded in size, forgetting the oldest claims first", async () => {
    const store = new MemoryDedupeStore({ maxEntries: 3 });
    for (const id of ["a", "b", "c", "d"]) expect(await store.claim(id)).toBe(true);
    expect(store.size).toBe(3);
    expect(await store.claim("d")).toBe(false);
    expect(await store.claim("c")).toBe(false);
    expect(await store.claim("a")).toBe(true); // evicted, so claimable again (this evicts b)
    expect(await store.claim("b")).toBe(true);
    expect(store.size).toBe(3);
  });

  it("validates its options", () => {
    expect(() => new MemoryDedupeStore({ maxEntries: 0 })).toThrow(RangeError);
    expect(() => new MemoryDedupeStore({ ttlMs: 0 })).toThrow(RangeError);
  });
});

describe("deduplication in the processor", () => {
  it("processes two concurrent copies of a delivery once and acknowledges both", async () => {
    const body = eventBody();
    const headers = await deliveryHeaders(body);
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const processDelivery = createWebhookProcessor<TestEvent>({
      secret: SECRET,
      knownEventTypes: KNOWN_EVENT_TYPES,
      on: {
        "document.processed": async () => {
          calls++;
          if (calls >= 2) release();
          await gate;
        },
      },
    });
    const first = processDelivery(body, headers);
    const second = processDelivery(body, headers);
    // The duplicate is answered while the first copy is still being processed.
    const earliest = await Promise.race([first, second]);
    expect(earliest.body).toEqual({ status: "duplicate" });
    release();
    const outcomes = await Promise.all([first, second]);
    expect(calls).toBe(1);
    expect(outcomes.map((o) => o.status)).toEqual([200, 200]);
    expect(outcomes.map((o) => o.body).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
      { status: "duplicate" },
      { status: "processed" },
    ]);
  });

  it("releases the claim when the callback fails, so the retry is processed", async () => {
    const body = eventBody();
    const headers = await deliveryHeaders(body);
    const store = new MemoryDedupeStore();
    let attempts = 0;
    const errors: unknown[] = [];
    const processDelivery = createWebhookProcessor<TestEvent>({
      secret: SECRET,
      knownEventTypes: KNOWN_EVENT_TYPES,
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
    const store = {
      claim: async (id: string) => {
        seen.push(id);
        return true;
      },
      release: async () => {},
    };
    const processDelivery = createWebhookProcessor<TestEvent>({ secret: SECRET, knownEventTypes: KNOWN_EVENT_TYPES, store, on: {} });
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
    const processDelivery = createWebhookProcessor<TestEvent>({
      secret: SECRET,
      knownEventTypes: KNOWN_EVENT_TYPES,
      store: {
        claim: () => Promise.reject(new Error("redis down")),
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
    const processDelivery = createWebhookProcessor<TestEvent>({
      secret: SECRET,
      knownEventTypes: KNOWN_EVENT_TYPES,
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
