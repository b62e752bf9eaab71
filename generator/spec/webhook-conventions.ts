// The `webhooks` member of x-paperoffice-conventions names the delivery headers and body fields a receiver checks;
// its `webhookSubscription` member names the fields of a subscription body. Its shape is checked by the JSON Schema; this file checks that every name
// it gives is one the description itself declares, so that a client never follows a name nothing else states.
import { findExtensionUses, HTTP_METHODS } from "./extensions.js";
import { deref, flattenObject } from "./object-schema.js";
import { join } from "./pointer.js";
import type { SpecProblem } from "./problems.js";
import { WEBHOOK_SUBSCRIPTION_KEY } from "./webhook-subscription.js";

type Json = Record<string, unknown>;

const isJson = (value: unknown): value is Json => value !== null && typeof value === "object" && !Array.isArray(value);

interface Delivery {
  readonly event: string;
  readonly headers: ReadonlySet<string>;
  readonly properties: ReadonlySet<string> | undefined;
}

/** Each webhook's header parameter names (lowercase) and its JSON body's property names. */
function deliveries(document: Json): Delivery[] {
  const webhooks = isJson(document.webhooks) ? document.webhooks : {};
  return Object.entries(webhooks).flatMap(([event, item]) => {
    if (!isJson(item)) return [];
    return HTTP_METHODS.flatMap((method) => {
      const operation = item[method];
      if (!isJson(operation)) return [];
      const listed = [
        ...(Array.isArray(item.parameters) ? item.parameters : []),
        ...(Array.isArray(operation.parameters) ? operation.parameters : []),
      ];
      const headers = new Set(
        listed.filter(isJson).flatMap((p) => {
          const { schema } = deref(document, p, "");
          return schema.in === "header" && typeof schema.name === "string" ? [schema.name.toLowerCase()] : [];
        }),
      );
      return [{ event, headers, properties: jsonBodyProperties(document, operation) }];
    });
  });
}

function jsonBodyProperties(document: Json, operation: Json): ReadonlySet<string> | undefined {
  if (!isJson(operation.requestBody)) return undefined;
  const { schema: body } = deref(document, operation.requestBody, "");
  const content = isJson(body.content) ? body.content : {};
  const json = Object.entries(content).find(([mediaType]) => mediaType.includes("json"))?.[1];
  if (!isJson(json) || !isJson(json.schema)) return undefined;
  return new Set(flattenObject(document, json.schema, "").properties.keys());
}

/** "none of the 22 webhooks has a <what>", or the first few events that lack it. */
function lacking(missing: readonly Delivery[], all: readonly Delivery[], what: string): string {
  if (missing.length === all.length) return `none of the ${all.length} webhooks has a ${what}`;
  const shown = missing.slice(0, 3).map((d) => d.event);
  const more = missing.length > shown.length ? ` and ${missing.length - shown.length} more` : "";
  return `webhook ${shown.join(", ")}${more} ${missing.length > 1 ? "have" : "has"} no ${what}`;
}

/** The lines for one `webhooks` member (already of the right shape), each at its JSON pointer. */
export function checkWebhookConventions(document: Json, at: string, webhooks: Json): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const all = deliveries(document);
  const headerNames: [string, unknown][] = [
    [join(at, "signature", "header"), (webhooks.signature as Json).header],
    ...Object.entries(webhooks.headers as Json).map(([role, name]): [string, unknown] => [join(at, "headers", role), name]),
  ];
  for (const [pointer, name] of headerNames) {
    const missing = all.filter((d) => !d.headers.has(String(name).toLowerCase()));
    if (missing.length > 0) problems.push({ pointer, message: lacking(missing, all, `header parameter "${String(name)}"`) });
  }
  for (const [role, field] of Object.entries(webhooks.body as Json)) {
    const missing = all.filter((d) => d.properties !== undefined && !d.properties.has(String(field)));
    if (missing.length > 0)
      problems.push({
        pointer: join(at, "body", role),
        message: lacking(missing, all, `body property "${String(field)}"`),
      });
  }
  return problems;
}

/** The lines for the `webhookSubscription` member: every name must be a property of a body marked as a subscription. */
export function checkSubscriptionFields(document: Json, at: string, fields: Json): SpecProblem[] {
  const bodies = findExtensionUses(document, WEBHOOK_SUBSCRIPTION_KEY).flatMap((use) => jsonBodyProperties(document, use.operation) ?? []);
  if (bodies.length === 0) return [{ pointer: at, message: `no operation with a JSON body is marked ${WEBHOOK_SUBSCRIPTION_KEY}` }];
  return Object.entries(fields).flatMap(([role, field]) =>
    bodies.some((b) => b.has(String(field)))
      ? []
      : [{ pointer: join(at, role), message: `no body marked ${WEBHOOK_SUBSCRIPTION_KEY} has a property "${String(field)}"` }],
  );
}
