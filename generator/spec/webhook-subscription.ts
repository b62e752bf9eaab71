import { findExtensionUses } from "./extensions.js";
import { deref } from "./object-schema.js";
import type { SpecProblem } from "./problems.js";

/** Marks the operations whose JSON body is a webhook subscription, checked by the client before sending. */
export const WEBHOOK_SUBSCRIPTION_KEY = "x-paperoffice-webhook-subscription";
export const WEBHOOK_SUBSCRIPTION_MODES = ["create", "update"] as const;
export type WebhookSubscriptionMode = (typeof WEBHOOK_SUBSCRIPTION_MODES)[number];

export const isWebhookSubscriptionMode = (value: unknown): value is WebhookSubscriptionMode =>
  WEBHOOK_SUBSCRIPTION_MODES.some((m) => m === value);

const isJsonMediaType = (mediaType: string): boolean => /^application\/(?:[\w.+-]+\+)?json$/i.test(mediaType.split(";")[0]!.trim());

/** One line per wrong use: a value other than create or update, or an operation without a JSON request body. */
export function checkWebhookSubscriptions(document: Record<string, unknown>): SpecProblem[] {
  return findExtensionUses(document, WEBHOOK_SUBSCRIPTION_KEY).flatMap((use): SpecProblem[] => {
    if (!isWebhookSubscriptionMode(use.value)) {
      return [
        { pointer: use.pointer, message: `${WEBHOOK_SUBSCRIPTION_KEY} must be "create" or "update", found ${JSON.stringify(use.value)}` },
      ];
    }
    const raw = use.operation.requestBody;
    const body = raw !== null && typeof raw === "object" ? deref(document, raw as Record<string, unknown>, "").schema : undefined;
    const content = body?.content;
    const mediaTypes = content !== null && typeof content === "object" ? Object.keys(content) : [];
    if (mediaTypes.some(isJsonMediaType)) return [];
    const found = mediaTypes.length > 0 ? `the body is ${mediaTypes.join(", ")}` : "the operation has no request body";
    return [{ pointer: use.pointer, message: `${WEBHOOK_SUBSCRIPTION_KEY} needs a JSON request body; ${found}` }];
  });
}
