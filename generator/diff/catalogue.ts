/** Compares what is not an operation: webhook events and their data, the error catalogue, security schemes. */
import type { ErrorCode, IR } from "../ir/types.js";
import { join } from "../spec/pointer.js";
import { type Change, fixedChange, type NamedMap, type ReleaseModel } from "./model.js";
import { compareSchemas } from "./schema.js";

const eventPointer = (event: string, ...tokens: string[]) => join("", "webhooks", event, "post", ...tokens);

export function compareWebhooks(old: IR, next: IR, named: { old: NamedMap; new: NamedMap }, out: Change[]): void {
  for (const h of old.webhooks) {
    if (!next.webhooks.some((x) => x.event === h.event))
      out.push(fixedChange("webhook.event.removed", eventPointer(h.event), "old", `event ${h.event} is no longer delivered`));
  }
  for (const k of next.webhooks) {
    const h = old.webhooks.find((x) => x.event === k.event);
    if (!h) {
      out.push(fixedChange("webhook.event.added", eventPointer(k.event), "new", `event ${k.event} is now delivered`));
      continue;
    }
    const body = ["requestBody", "content", "application/json", "schema"];
    const walk = { scope: "webhook" as const, old: named.old, new: named.new, out, label: `event ${k.event}` };
    compareSchemas(walk, h.body, k.body, eventPointer(h.event, ...body), eventPointer(k.event, ...body));
  }
}

/** Where the catalogue lists a code: the oneOf member of the schema that carries it with its x-http-status. */
function codePointer(document: Record<string, unknown> | undefined, code: string): string {
  const schemas = ((document?.components as Record<string, unknown> | undefined)?.schemas ?? {}) as Record<string, { oneOf?: unknown }>;
  for (const [name, schema] of Object.entries(schemas)) {
    const i = Array.isArray(schema.oneOf) ? schema.oneOf.findIndex((m) => (m as { const?: unknown }).const === code) : -1;
    if (i >= 0) return join("", "components", "schemas", name, "oneOf", i);
  }
  return join("", "components", "schemas");
}

export function compareErrorCatalogue(old: ReleaseModel, next: ReleaseModel, out: Change[]): void {
  const by = (errors: readonly ErrorCode[]) => new Map(errors.map((e) => [e.code, e]));
  const [a, b] = [by(old.ir.errors), by(next.ir.errors)];
  for (const [code, e] of a) {
    if (!b.has(code))
      out.push(
        fixedChange(
          "errors.catalogue.code-removed",
          codePointer(old.document, code),
          "old",
          `error code ${code} (${e.status}) was removed`,
        ),
      );
  }
  for (const [code, f] of b) {
    const e = a.get(code);
    const at = codePointer(next.document, code);
    if (!e) out.push(fixedChange("errors.catalogue.code-added", at, "new", `error code ${code} (${f.status}) was added`));
    else if (e.status !== f.status)
      out.push(fixedChange("errors.catalogue.status-changed", at, "new", `error code ${code} now has status ${f.status}, not ${e.status}`));
  }
}

export function compareSecuritySchemes(old: IR, next: IR, out: Change[]): void {
  const at = (name: string) => join("", "components", "securitySchemes", name);
  const text = (s: IR["securitySchemes"][number]) => JSON.stringify([s.type, s.scheme, s.in, s.parameterName]);
  for (const s of old.securitySchemes) {
    if (!next.securitySchemes.some((x) => x.name === s.name))
      out.push(fixedChange("security.scheme.removed", at(s.name), "old", `security scheme ${s.name} was removed`));
  }
  for (const t of next.securitySchemes) {
    const s = old.securitySchemes.find((x) => x.name === t.name);
    if (!s) out.push(fixedChange("security.scheme.added", at(t.name), "new", `security scheme ${t.name} was added`));
    else if (text(s) !== text(t))
      out.push(fixedChange("security.scheme.changed", at(t.name), "new", `security scheme ${t.name} changed (${text(s)} -> ${text(t)})`));
  }
}
