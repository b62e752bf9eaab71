// Webhooks: the URL rules (loopback allowed in mock mode only), signed deliveries with the service's headers
// verified here with node:crypto, retries by policy, events from jobs and the test endpoint, and the delivery log
// that outlives its subscription.
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../mock/index.js";
import { auth, type Delivery, getJson, postJson, type Receiver, schemaErrors, startReceiver, submit, variantBody } from "./helpers.js";

let mock: MockServer;
let receiver: Receiver;

beforeAll(async () => {
  mock = await startMock({ holdMs: 300, jobDurationMs: 20, webhookRetryScale: 0.01 });
});
afterAll(() => mock.stop());
afterEach(() => receiver?.close());

function verifySignature(delivery: Delivery, secret: string): boolean {
  const header = String(delivery.headers["x-service-signature"] ?? "");
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(delivery.raw).digest("hex")}`);
  const got = Buffer.from(header);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

async function subscribe(body: Record<string, unknown>, target = mock): Promise<{ status: number; body: Record<string, unknown> }> {
  return postJson(target.url, "/webhooks/subscribe", { name: "test", events: ["*"], ...body });
}

describe("receiver URL rules", () => {
  it.each([
    ["http://10.1.2.3/hook", "private"],
    ["http://192.168.0.10/hook", "private"],
    ["http://169.254.10.1/hook", "link-local"],
    ["http://169.254.169.254/latest/meta-data", "metadata"],
    ["http://metadata.google.internal/", "metadata"],
    ["http://[fd12::1]/hook", "unique local"],
  ])("refuses %s (%s) with 400 INVALID_REQUEST naming url", async (url, reason) => {
    const answer = await subscribe({ url });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("INVALID_REQUEST");
    expect(String(answer.body.message)).toContain("url");
    expect(String(answer.body.message)).toContain(reason);
  });

  it("accepts loopback receivers in mock mode, says so at startup, and refuses them when told to", async () => {
    expect(mock.startupLine).toContain("loopback webhook receivers allowed");
    expect((await subscribe({ url: "http://127.0.0.1:9/hook" })).status).toBe(200);
    const strict = await startMock({ allowLoopbackWebhooks: false });
    try {
      expect(strict.startupLine).toContain("refused");
      for (const url of ["http://127.0.0.1:9/hook", "http://localhost:9/hook", "http://[::1]:9/hook"]) {
        const answer = await subscribe({ url }, strict);
        expect(answer.status, url).toBe(400);
        expect(String(answer.body.message)).toContain("loopback");
      }
    } finally {
      await strict.stop();
    }
  });
});

describe("deliveries", () => {
  it("the test endpoint delivers a signed event with the service's headers", async () => {
    receiver = await startReceiver();
    const created = await subscribe({ url: receiver.url, secret: "s3cret-value", events: ["document.created"] });
    expect(created.status).toBe(200);
    expect(created.body.secret).toBeUndefined();
    const id = created.body.subscription_id as number;
    const tested = await postJson(mock.url, "/webhooks/test", { subscription_id: id });
    expect(tested.status).toBe(200);
    await mock.webhooksIdle();

    expect(receiver.deliveries).toHaveLength(1);
    const delivery = receiver.deliveries[0]!;
    expect(verifySignature(delivery, "s3cret-value")).toBe(true);
    expect(verifySignature(delivery, "another-secret")).toBe(false);
    const event = JSON.parse(delivery.raw.toString("utf8")) as Record<string, unknown>;
    expect(delivery.headers["content-type"]).toBe("application/json");
    expect(delivery.headers["user-agent"]).toBe("Service-Webhook/1.0");
    expect(delivery.headers["x-service-event"]).toBe("document.created");
    expect(delivery.headers["x-service-event-id"]).toMatch(/^[0-9a-f]{32}$/);
    expect(delivery.headers["x-service-event-id"]).toBe(event.event_id);
    expect(event.event_id).toBe(tested.body.event_id);
    expect(delivery.headers["x-service-subscription-id"]).toBe(String(id));
    expect(event).toMatchObject({ event_type: "document.created", subscription_id: id });
    expect(schemaErrors("DocumentCreatedEvent", event)).toEqual([]);
  });

  it("generates a secret when none is given, returns it once, and signs with it", async () => {
    receiver = await startReceiver();
    const created = await subscribe({ url: receiver.url });
    const secret = created.body.secret as string;
    expect(secret).toEqual(expect.any(String));
    const list = await getJson(mock.url, "/webhooks/list");
    expect(JSON.stringify(list.body)).not.toContain(secret);
    await postJson(mock.url, "/webhooks/test", { subscription_id: created.body.subscription_id, event_type: "document.deleted" });
    await mock.webhooksIdle();
    expect(verifySignature(receiver.deliveries[0]!, secret)).toBe(true);
    expect(receiver.deliveries[0]!.headers["x-service-event"]).toBe("document.deleted");
  });

  it.each([
    ["exponential", 3],
    ["linear", 3],
    ["none", 1],
  ])("retries a failing receiver by the %s policy", async (policy, attempts) => {
    receiver = await startReceiver();
    receiver.respond = (index) => (index < 2 ? 500 : 200);
    const created = await subscribe({ url: receiver.url, secret: "k", retry_policy: policy, max_retries: 5, timeout_ms: 5000 });
    const id = created.body.subscription_id as number;
    await postJson(mock.url, "/webhooks/test", { subscription_id: id });
    await mock.webhooksIdle();
    expect(receiver.deliveries).toHaveLength(attempts);
    // Every attempt of one event carries the same event id and a valid signature.
    expect(new Set(receiver.deliveries.map((d) => d.headers["x-service-event-id"])).size).toBe(1);
    for (const d of receiver.deliveries) expect(verifySignature(d, "k")).toBe(true);
    const log = mock.deliveries(id);
    expect(log.map((a) => a.status)).toEqual([500, 500, 200].slice(0, attempts));
    expect(log.map((a) => a.attempt)).toEqual([1, 2, 3].slice(0, attempts));
    expect(log.at(-1)!.ok).toBe(policy !== "none");
    expect(log[0]!.response_body).toBe("nope");
  });

  it("gives up after max_retries", async () => {
    receiver = await startReceiver();
    receiver.respond = 503;
    const created = await subscribe({ url: receiver.url, secret: "k", retry_policy: "linear", max_retries: 2 });
    const failedBefore = mock.stats.webhooks.failed;
    await postJson(mock.url, "/webhooks/test", { subscription_id: created.body.subscription_id });
    await mock.webhooksIdle();
    expect(receiver.deliveries).toHaveLength(3);
    expect(mock.stats.webhooks.failed).toBe(failedBefore + 1);
  });

  it("logs a timeout when the receiver does not answer within timeout_ms", async () => {
    const hanging = http.createServer((_req, res) => {
      setTimeout(() => res.end("late"), 3000).unref();
    });
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`;
      const created = await subscribe({ url, secret: "k", retry_policy: "none", timeout_ms: 1000 });
      await postJson(mock.url, "/webhooks/test", { subscription_id: created.body.subscription_id });
      await mock.webhooksIdle();
      const log = mock.deliveries(created.body.subscription_id as number);
      expect(log).toHaveLength(1);
      expect(log[0]!.ok).toBe(false);
      expect(log[0]!.error).toContain("1000 ms");
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });

  it("keeps the delivery log after the subscription is deleted", async () => {
    receiver = await startReceiver();
    const created = await subscribe({ url: receiver.url, secret: "k" });
    const id = created.body.subscription_id as number;
    await postJson(mock.url, "/webhooks/test", { subscription_id: id });
    await mock.webhooksIdle();
    expect((await postJson(mock.url, "/webhooks/delete", { subscription_id: id })).status).toBe(200);
    const list = await getJson(mock.url, "/webhooks/list");
    expect((list.body.subscriptions as { subscription_id: number }[]).map((s) => s.subscription_id)).not.toContain(id);
    expect(mock.deliveries(id)).toHaveLength(1);
    const viaHttp = await getJson(mock.url, `/_mock/deliveries?subscription_id=${id}`);
    expect(viaHttp.body.deliveries).toHaveLength(1);
    // The deleted subscription can no longer be tested.
    const again = await postJson(mock.url, "/webhooks/test", { subscription_id: id });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe("INVALID_REQUEST");
  });
});

describe("events", () => {
  it("job completion and failure emit job.completed and job.failed to the job's token", async () => {
    receiver = await startReceiver();
    await subscribe({ url: receiver.url, secret: "k", events: ["job.completed", "job.failed"] });
    const ok = await submit(mock.url, "service_voice___tts", { ...variantBody("service_voice___tts", "default"), priority: "stream" });
    const failed = await submit(
      mock.url,
      "service_voice___tts",
      { ...variantBody("service_voice___tts", "default"), priority: "stream" },
      {
        ...auth(),
        "x-mock-job-outcome": "failed",
      },
    );
    // Another token's job reaches no subscription of this token.
    await submit(mock.url, "service_voice___tts", variantBody("service_voice___tts", "default"), auth("svc_sk_other_account"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await mock.webhooksIdle();
    const events = receiver.deliveries.map((d) => JSON.parse(d.raw.toString("utf8")) as { event_type: string; data: { job_id: string } });
    expect(events.map((e) => [e.event_type, e.data.job_id]).sort()).toEqual(
      [
        ["job.completed", ok.body.job_id],
        ["job.failed", failed.body.job_id],
      ].sort(),
    );
    expect(
      schemaErrors(
        "JobCompletedEvent",
        events.find((e) => e.event_type === "job.completed"),
      ),
    ).toEqual([]);
  });

  it("document events can be emitted through the mock endpoint; inactive subscriptions receive nothing", async () => {
    receiver = await startReceiver();
    const active = await subscribe({ url: receiver.url, secret: "k", events: ["document.moved"] });
    const paused = await subscribe({ url: receiver.url, secret: "k", events: ["document.moved"] });
    const updated = await postJson(mock.url, "/webhooks/update", { subscription_id: paused.body.subscription_id, active: false });
    expect(updated.status).toBe(200);
    const emitted = await postJson(mock.url, "/_mock/events", { event_type: "document.moved" }, {});
    expect(emitted.status).toBe(200);
    await mock.webhooksIdle();
    expect(receiver.deliveries.map((d) => d.headers["x-service-subscription-id"])).toEqual([String(active.body.subscription_id)]);
  });

  it("update and delete refuse an unknown subscription and a blocked URL", async () => {
    const unknown = await postJson(mock.url, "/webhooks/update", { subscription_id: 99999, max_retries: 1 });
    expect(unknown.status).toBe(400);
    expect(String(unknown.body.message)).toContain("subscription_id");
    const created = await subscribe({ url: "https://hooks.example.invalid/hook" });
    const blocked = await postJson(mock.url, "/webhooks/update", {
      subscription_id: created.body.subscription_id,
      url: "http://10.0.0.1/",
    });
    expect(blocked.status).toBe(400);
    expect((await postJson(mock.url, "/webhooks/delete", {})).status).toBe(400);
  });
});
