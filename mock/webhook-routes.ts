// The webhook endpoints: subscribe, list, update, delete, test. Bodies are JSON; the subscription is named by
// `subscription_id` (the description does not show the identifier field of update/delete/test).
import type { Call, MockContext } from "./context.js";
import { billingOf, elapsed, errorReply, type Reply } from "./envelope.js";
import { randomHex } from "./jobs.js";
import { clone, resolveSchema } from "./model.js";
import { RequestProblem } from "./validate.js";
import { type RetryPolicy, refusedUrl, type Subscription } from "./webhooks.js";

type Body = Record<string, unknown>;

function view(s: Subscription): Record<string, unknown> {
  const { owner: _owner, secret: _secret, ...rest } = s;
  return rest;
}

function checkUrl(ctx: MockContext, url: unknown): void {
  if (typeof url !== "string") return;
  const refused = refusedUrl(url, ctx.webhooks.allowLoopback);
  if (refused !== undefined) {
    throw new RequestProblem(
      `field "url" is refused: ${refused.message}${refused.loopback ? "; start the mock with allowLoopbackWebhooks to allow loopback receivers" : ""}`,
      "url",
    );
  }
}

function subscriptionOf(ctx: MockContext, call: Call, body: Body): Subscription {
  const raw = body.subscription_id ?? body.id;
  if (raw === undefined) throw new RequestProblem(`field "subscription_id" is required`, "subscription_id");
  const id = typeof raw === "number" ? raw : typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(id)) throw new RequestProblem(`field "subscription_id" must be an integer`, "subscription_id");
  const subscription = ctx.webhooks.get(id);
  if (!subscription || subscription.owner !== (call.token ?? "")) {
    throw new RequestProblem(`field "subscription_id": no subscription ${id}`, "subscription_id");
  }
  return subscription;
}

function ok(call: Call, fields: Record<string, unknown>): Reply {
  return {
    status: 200,
    json: { status: "success", ...fields, processing_time: elapsed(call.startedAt), _billing: billingOf(call.account, call.windows) },
  };
}

export function subscribeWebhook(ctx: MockContext, call: Call, body: Body): Reply {
  checkUrl(ctx, body.url);
  const generated = typeof body.secret !== "string" || body.secret === "";
  const secret = generated ? `whsec_${randomHex(24)}` : (body.secret as string);
  const subscription = ctx.webhooks.create(call.token ?? "", {
    name: String(body.name),
    url: String(body.url),
    events: (body.events as string[]).slice(),
    secret,
    retry_policy: (body.retry_policy as RetryPolicy | undefined) ?? "exponential",
    max_retries: (body.max_retries as number | undefined) ?? 5,
    timeout_ms: (body.timeout_ms as number | undefined) ?? 10_000,
    headers: {},
  });
  return ok(call, { ...view(subscription), ...(generated && { secret }) });
}

export function listWebhooks(ctx: MockContext, call: Call): Reply {
  const subscriptions = ctx.webhooks.list(call.token ?? "").map(view);
  return ok(call, { subscriptions, count: subscriptions.length });
}

export function updateWebhook(ctx: MockContext, call: Call, body: Body): Reply {
  const subscription = subscriptionOf(ctx, call, body);
  checkUrl(ctx, body.url);
  if (typeof body.url === "string") subscription.url = body.url;
  if (Array.isArray(body.events)) subscription.events = body.events.map(String);
  if (typeof body.headers === "object" && body.headers !== null) {
    subscription.headers = Object.fromEntries(Object.entries(body.headers).map(([k, v]) => [k, String(v)]));
  }
  if (typeof body.retry_policy === "string") subscription.retry_policy = body.retry_policy as RetryPolicy;
  if (typeof body.max_retries === "number") subscription.max_retries = body.max_retries;
  if (typeof body.timeout_ms === "number") subscription.timeout_ms = body.timeout_ms;
  if (typeof body.secret === "string" && body.secret !== "") subscription.secret = body.secret;
  if (typeof body.name === "string" && body.name !== "") subscription.name = body.name;
  if (typeof body.active === "boolean") subscription.active = body.active;
  return ok(call, view(subscription));
}

export function deleteWebhook(ctx: MockContext, call: Call, body: Body): Reply {
  const subscription = subscriptionOf(ctx, call, body);
  ctx.webhooks.delete(subscription.subscription_id);
  return ok(call, { subscription_id: subscription.subscription_id, deleted: true });
}

export function testWebhook(ctx: MockContext, call: Call, body: Body): Reply {
  const subscription = subscriptionOf(ctx, call, body);
  const names = eventNames(ctx);
  const requested = body.event_type ?? body.event;
  if (requested !== undefined && (typeof requested !== "string" || !names.includes(requested))) {
    throw new RequestProblem(`field "event_type" must be one of ${names.join(", ")}`, "event_type");
  }
  const eventType = (requested as string | undefined) ?? subscription.events.find((e) => e !== "*") ?? "document.created";
  const data = fixtureData(ctx, eventType);
  try {
    const event = ctx.webhooks.send(subscription, eventType, data);
    return ok(call, { subscription_id: subscription.subscription_id, event_id: event.event_id, event_type: eventType });
  } catch (error) {
    return errorReply(500, "INTERNAL_ERROR", error instanceof Error ? error.message : String(error), call.startedAt);
  }
}

/** The event names of the description (WebhookEventName, else the webhooks' keys). */
export function eventNames(ctx: MockContext): string[] {
  const named = ctx.model.schemas.get("WebhookEventName");
  const resolved = named ? resolveSchema(ctx.model, named) : undefined;
  if (resolved?.kind === "enum") return resolved.values.map(String);
  return ctx.model.ir.webhooks.map((w) => w.event);
}

/** The `data` of an event as its fixture shows it. */
export function fixtureData(ctx: MockContext, eventType: string): Record<string, unknown> {
  const data = ctx.model.webhookFixtures.get(eventType)?.body.data;
  return typeof data === "object" && data !== null ? (clone(data) as Record<string, unknown>) : {};
}
