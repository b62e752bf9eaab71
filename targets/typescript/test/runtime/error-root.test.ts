// One error root: whatever the runtime throws, the webhook helpers included, is an SdkError, so that one
// `instanceof SdkError` catches everything the SDK raises.
import { describe, expect, it } from "vitest";
import { checkSubscription, SdkError } from "../../runtime/index.js";
import { CallbackTimeoutError, SubscriptionCheckError, verifyWebhook, WebhookVerificationError } from "../../runtime/webhooks/index.js";
import { KNOWN_EVENT_TYPES, SIGNING } from "../webhooks/helpers.js";

describe("one error root", () => {
  it("makes every webhook and subscription error class an SdkError", () => {
    for (const Class of [WebhookVerificationError, SubscriptionCheckError, CallbackTimeoutError]) {
      expect(Class.prototype, Class.name).toBeInstanceOf(SdkError);
    }
  });

  it("throws an SdkError from verify, keeping the class name and code", async () => {
    const options = { knownEventTypes: KNOWN_EVENT_TYPES, signing: SIGNING };
    const error = await verifyWebhook("{}", {}, "secret", options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error).toBeInstanceOf(SdkError);
    expect((error as WebhookVerificationError).code).toBe("missing_header");
    expect((error as Error).name).toBe("MissingHeaderError");
  });

  it("throws an SdkError from the subscription check", () => {
    let thrown: unknown;
    try {
      checkSubscription(
        { name: "n", url: "http://127.0.0.1/hook", events: [] },
        {
          fields: { url: "url", events: "events" },
          required: ["url", "events"],
          eventNames: ["document.created"],
          wildcards: [],
          retryPolicies: [],
          maxRetries: { minimum: 0, maximum: 5 },
          timeoutMs: { minimum: 1, maximum: 10 },
        },
      );
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SubscriptionCheckError);
    expect(thrown).toBeInstanceOf(SdkError);
    expect((thrown as Error).name).toBe("SubscriptionCheckError");
  });

  it("makes the callback timeout an SdkError", () => {
    const error = new CallbackTimeoutError(5);
    expect(error).toBeInstanceOf(SdkError);
    expect(error.name).toBe("CallbackTimeoutError");
    expect(error.timeoutMs).toBe(5);
  });
});
