// Webhook subscriptions kept in memory, the service's URL rules, and deliveries: signed with the subscription
// secret (HMAC-SHA256 over the exact raw body), sent with the service's headers, retried by the subscription's
// retry policy with a timeout per attempt, and logged per subscription (the log survives deletion).
import { checkWebhookUrl, sign } from "@paperoffice/sdk-runtime/webhooks";
import type { WebhookConventions } from "../generator/ir/index.js";
import { randomHex } from "./jobs.js";

export type RetryPolicy = "exponential" | "linear" | "none";

export interface Subscription {
  subscription_id: number;
  owner: string;
  name: string;
  url: string;
  events: string[];
  secret: string;
  retry_policy: RetryPolicy;
  max_retries: number;
  timeout_ms: number;
  headers: Record<string, string>;
  active: boolean;
  created_at: string;
}

export interface DeliveryAttempt {
  subscription_id: number;
  event_id: string;
  event_type: string;
  attempt: number;
  url: string;
  /** HTTP status of the receiver's answer; absent when there was none. */
  status?: number;
  response_body?: string;
  ok: boolean;
  error?: string;
  started_at: string;
  duration_ms: number;
}

export interface WebhookOptions {
  /** Accept loopback receivers (127.0.0.0/8, ::1, localhost). Default true in the mock. */
  allowLoopbackWebhooks?: boolean;
  /** Multiplies the gaps between retries (default 1: 1 s, 2 s, 4 s... exponential; 1 s, 2 s, 3 s... linear). */
  webhookRetryScale?: number;
  /** Base gap between retries in ms before scaling (default 1000). */
  webhookRetryBaseMs?: number;
}

/**
 * Why a receiver URL is refused by the service's rules, or undefined when it is accepted: the client's own check and
 * address classifier (runtime/address.ts), so the two never disagree. `loopback` tells when allowLoopbackWebhooks
 * would have let it through.
 */
export function refusedUrl(url: string, allowLoopback: boolean): { message: string; loopback: boolean } | undefined {
  const problem = checkWebhookUrl(url, { allowLoopback });
  if (problem === undefined) return undefined;
  return { message: problem.message, loopback: checkWebhookUrl(url, { allowLoopback: true }) === undefined };
}

export interface WebhookEvent {
  event_type: string;
  event_id: string;
  timestamp: string;
  subscription_id: number;
  data: Record<string, unknown>;
}

export class Webhooks {
  readonly #subscriptions = new Map<number, Subscription>();
  /** Attempts per subscription id; kept after the subscription is deleted. */
  readonly #log = new Map<number, DeliveryAttempt[]>();
  readonly #pending = new Set<Promise<void>>();
  readonly #abort = new AbortController();
  readonly #options: WebhookOptions;
  /** Checks an event body before it is sent (the mock validates it against the IR). */
  readonly #checkEvent: (event: WebhookEvent) => string | undefined;
  /** The description's signature header and prefix and delivery header names. */
  readonly #signing: WebhookConventions;
  #nextId = 1;
  readonly counters = { attempts: 0, delivered: 0, failed: 0, blocked: 0 };

  constructor(options: WebhookOptions, checkEvent: (event: WebhookEvent) => string | undefined, signing: WebhookConventions) {
    this.#options = options;
    this.#checkEvent = checkEvent;
    this.#signing = signing;
  }

  get allowLoopback(): boolean {
    return this.#options.allowLoopbackWebhooks ?? true;
  }

  create(owner: string, init: Omit<Subscription, "subscription_id" | "owner" | "active" | "created_at">): Subscription {
    const subscription: Subscription = {
      ...init,
      subscription_id: this.#nextId++,
      owner,
      active: true,
      created_at: new Date().toISOString(),
    };
    this.#subscriptions.set(subscription.subscription_id, subscription);
    return subscription;
  }

  get(id: number): Subscription | undefined {
    return this.#subscriptions.get(id);
  }

  list(owner?: string): Subscription[] {
    return [...this.#subscriptions.values()].filter((s) => owner === undefined || s.owner === owner);
  }

  delete(id: number): boolean {
    return this.#subscriptions.delete(id);
  }

  /** The delivery log of one subscription (also after its deletion), or of all. */
  deliveries(subscriptionId?: number): DeliveryAttempt[] {
    if (subscriptionId !== undefined) return [...(this.#log.get(subscriptionId) ?? [])];
    return [...this.#log.values()].flat();
  }

  /** Emits an event to every active subscription of the owner that selects it; returns the event ids. */
  emit(owner: string | undefined, eventType: string, data: Record<string, unknown>): WebhookEvent[] {
    const events: WebhookEvent[] = [];
    for (const subscription of this.list(owner)) {
      if (!subscription.active) continue;
      if (!subscription.events.includes("*") && !subscription.events.includes(eventType)) continue;
      events.push(this.send(subscription, eventType, data));
    }
    return events;
  }

  /** Sends one event to one subscription, in the background; returns the event. */
  send(subscription: Subscription, eventType: string, data: Record<string, unknown>): WebhookEvent {
    const event: WebhookEvent = {
      event_type: eventType,
      event_id: randomHex(16),
      timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
      subscription_id: subscription.subscription_id,
      data,
    };
    const problem = this.#checkEvent(event);
    if (problem !== undefined) throw new Error(`mock webhook event ${eventType} does not match the description: ${problem}`);
    const task = this.#deliver(subscription, event).finally(() => this.#pending.delete(task));
    this.#pending.add(task);
    return event;
  }

  /** Resolves when no delivery is in flight or waiting for a retry. */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  stop(): void {
    this.#abort.abort();
  }

  #gapMs(policy: RetryPolicy, retry: number): number {
    const base = (this.#options.webhookRetryBaseMs ?? 1000) * (this.#options.webhookRetryScale ?? 1);
    return policy === "linear" ? base * retry : base * 2 ** (retry - 1);
  }

  async #deliver(subscription: Subscription, event: WebhookEvent): Promise<void> {
    // The exact bytes that are signed are the bytes that are sent.
    const body = JSON.stringify(event);
    const log = this.#log.get(subscription.subscription_id) ?? [];
    this.#log.set(subscription.subscription_id, log);
    const retries = subscription.retry_policy === "none" ? 0 : subscription.max_retries;
    for (let attempt = 1; attempt <= retries + 1; attempt++) {
      if (this.#abort.signal.aborted) return;
      if (attempt > 1) {
        await sleep(this.#gapMs(subscription.retry_policy, attempt - 1), this.#abort.signal);
        if (this.#abort.signal.aborted) return;
      }
      const started = Date.now();
      const record: DeliveryAttempt = {
        subscription_id: subscription.subscription_id,
        event_id: event.event_id,
        event_type: event.event_type,
        attempt,
        url: subscription.url,
        ok: false,
        started_at: new Date(started).toISOString(),
        duration_ms: 0,
      };
      this.counters.attempts++;
      // The URL rules hold again at dispatch time.
      const refused = refusedUrl(subscription.url, this.allowLoopback);
      if (refused !== undefined) {
        record.error = `receiver address refused (url ${refused.message})`;
        log.push(record);
        this.counters.blocked++;
        this.counters.failed++;
        return;
      }
      try {
        const { headers } = this.#signing;
        const response = await fetch(subscription.url, {
          method: "POST",
          headers: {
            ...subscription.headers,
            "Content-Type": "application/json",
            "User-Agent": "Service-Webhook/1.0",
            ...(headers.eventType !== undefined && { [headers.eventType]: event.event_type }),
            [headers.eventId]: event.event_id,
            ...(headers.subscriptionId !== undefined && { [headers.subscriptionId]: String(subscription.subscription_id) }),
            [this.#signing.signature.header]: await sign(body, subscription.secret, this.#signing),
          },
          body,
          redirect: "manual",
          signal: AbortSignal.any([AbortSignal.timeout(subscription.timeout_ms), this.#abort.signal]),
        });
        record.status = response.status;
        record.response_body = (await response.text()).slice(0, 2048);
        record.ok = response.status >= 200 && response.status < 300;
        if (!record.ok) record.error = `receiver answered HTTP ${response.status}`;
      } catch (error) {
        const name = error instanceof Error ? error.name : "";
        record.error =
          name === "TimeoutError"
            ? `no answer within ${subscription.timeout_ms} ms`
            : error instanceof Error
              ? error.message
              : String(error);
      }
      record.duration_ms = Date.now() - started;
      log.push(record);
      if (record.ok) {
        this.counters.delivered++;
        return;
      }
    }
    this.counters.failed++;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
