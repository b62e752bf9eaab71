/** Compares operations: presence, parameters, request bodies, the subscription check, responses, security and error codes. */
import type { Operation, Parameter, Response, SecurityRequirement } from "../ir/types.js";
import { followRefs, join } from "../spec/pointer.js";
import { WEBHOOK_SUBSCRIPTION_KEY } from "../spec/webhook-subscription.js";
import { type Change, fixedChange, type NamedMap, type ReleaseModel } from "./model.js";
import { compareSchemas } from "./schema.js";
import { compareVariants } from "./variants.js";

export const operationKey = (o: Operation): string => `${o.method.toUpperCase()} ${o.path}`;
export const operationPointer = (o: Operation): string => join("", "paths", o.path, o.method);

/** Where a parameter is listed: its index among the operation's (or else the path item's) parameters. */
function parameterPointer(document: Record<string, unknown> | undefined, op: Operation, p: Parameter): string {
  const item = (document?.paths as Record<string, Record<string, unknown>> | undefined)?.[op.path];
  const follow = (v: unknown): Record<string, unknown> => {
    const node = document === undefined ? v : followRefs(document, v);
    return node !== null && typeof node === "object" ? (node as Record<string, unknown>) : {};
  };
  const find = (list: unknown) => (Array.isArray(list) ? list.findIndex((v) => follow(v).name === p.name && follow(v).in === p.in) : -1);
  const own = find((item?.[op.method] as Record<string, unknown> | undefined)?.parameters);
  if (own >= 0) return join(operationPointer(op), "parameters", own);
  const shared = find(item?.parameters);
  return shared >= 0 ? join("", "paths", op.path, "parameters", shared) : join(operationPointer(op), "parameters");
}

/** The path template with its parameters' names left out: `/users/{}/repos`. Renaming a parameter keeps it. */
export const pathShape = (path: string): string => path.replace(/\{[^}]*\}/g, "{}");
const templateNames = (path: string): string[] => [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]!);

/**
 * Operations are identified by method and path shape; where two paths of one release have the same shape (not
 * valid OpenAPI, but possible), those keep their raw path as their identity.
 */
function identities(operations: readonly Operation[]): Map<string, Operation> {
  const count = new Map<string, number>();
  for (const o of operations) {
    const k = `${o.method.toUpperCase()} ${pathShape(o.path)}`;
    count.set(k, (count.get(k) ?? 0) + 1);
  }
  return new Map(
    operations.map((o) => {
      const k = `${o.method.toUpperCase()} ${pathShape(o.path)}`;
      return [count.get(k) === 1 ? k : operationKey(o), o];
    }),
  );
}

export function compareOperations(old: ReleaseModel, next: ReleaseModel, named: { old: NamedMap; new: NamedMap }, out: Change[]): void {
  const before = identities(old.ir.operations);
  const after = identities(next.ir.operations);
  for (const [key, o] of before) {
    if (!after.has(key)) out.push(fixedChange("operation.removed", operationPointer(o), "old", `${operationKey(o)} (${o.id}) was removed`));
  }
  for (const [key, n] of after) {
    const o = before.get(key);
    if (!o) {
      out.push(fixedChange("operation.added", operationPointer(n), "new", `${operationKey(n)} (${n.id}) was added`));
      continue;
    }
    const at = operationPointer(n);
    const shown = operationKey(n);
    const renamed = comparePathNames(next, o, n, out);
    if (o.id !== n.id)
      out.push(fixedChange("operation.id-changed", join(at, "operationId"), "new", `${shown}: operationId ${o.id} is now ${n.id}`));
    if (!o.deprecated && n.deprecated)
      out.push(fixedChange("operation.deprecated", join(at, "deprecated"), "new", `${shown} (${n.id}) is now deprecated`));
    compareParameters(old, next, o, n, named, renamed, out);
    compareRequestBody(o, n, named, out);
    compareSubscriptionCheck(o, n, out);
    compareResponses(o, n, named, out);
    compareSecurity(o, n, out);
    compareErrorCodes(o, n, out);
    if (o.variants && n.variants) compareVariants(o, n, named, out);
  }
}

/**
 * Path parameters renamed in the template (same position, other name). The generated client takes path
 * parameters by name (`params.user_id`), so a rename breaks callers; it is one change, not an operation removed
 * and another added. Returns the new name of each renamed old one.
 */
function comparePathNames(next: ReleaseModel, o: Operation, n: Operation, out: Change[]): Map<string, string> {
  const renamed = new Map<string, string>();
  if (o.path === n.path) return renamed;
  const [before, after] = [templateNames(o.path), templateNames(n.path)];
  before.forEach((name, i) => {
    const now = after[i];
    if (now === undefined || now === name) return;
    renamed.set(name, now);
    const q = n.parameters.path.find((p) => p.name === now);
    const at = q ? parameterPointer(next.document, n, q) : operationPointer(n);
    out.push(
      fixedChange(
        "operation.path-parameter-renamed",
        at,
        "new",
        `${n.id}: path parameter \`${name}\` is now \`${now}\` (${o.path} -> ${n.path})`,
      ),
    );
  });
  return renamed;
}

function compareParameters(
  old: ReleaseModel,
  next: ReleaseModel,
  o: Operation,
  n: Operation,
  named: { old: NamedMap; new: NamedMap },
  renamed: ReadonlyMap<string, string>,
  out: Change[],
): void {
  const all = (op: Operation) => [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie];
  const key = (p: Parameter) => `${p.in} parameter \`${p.name}\``;
  // A renamed path parameter is compared with its new self.
  const oldKey = (p: Parameter) => (p.in === "path" && renamed.has(p.name) ? `path parameter \`${renamed.get(p.name)}\`` : key(p));
  const before = new Map(all(o).map((p) => [oldKey(p), p]));
  const after = new Map(all(n).map((p) => [key(p), p]));
  for (const [k, p] of before) {
    if (!after.has(k))
      out.push(fixedChange("request.parameter.removed", parameterPointer(old.document, o, p), "old", `${n.id}: ${k} was removed`));
  }
  for (const [k, q] of after) {
    const p = before.get(k);
    const at = parameterPointer(next.document, n, q);
    if (!p) {
      out.push(
        fixedChange(
          q.required ? "request.parameter.required-added" : "request.parameter.added",
          at,
          "new",
          `${n.id}: ${k} was added${q.required ? " (required)" : ""}`,
        ),
      );
      continue;
    }
    if (!p.required && q.required) out.push(fixedChange("request.parameter.required-now", at, "new", `${n.id}: ${k} is now required`));
    if (p.required && !q.required) out.push(fixedChange("request.parameter.optional-now", at, "new", `${n.id}: ${k} is now optional`));
    const walk = { scope: "request" as const, old: named.old, new: named.new, out, label: `${n.id} ${k}` };
    compareSchemas(walk, p.schema, q.schema, join(parameterPointer(old.document, o, p), "schema"), join(at, "schema"));
  }
}

function compareRequestBody(o: Operation, n: Operation, named: { old: NamedMap; new: NamedMap }, out: Change[]): void {
  const at = join(operationPointer(n), "requestBody");
  const [a, b] = [o.requestBody, n.requestBody];
  if (a && !b) {
    // A body that no media type gave a schema to (GitHub's GET of contents had one) carried nothing the client typed.
    const untyped = a.contents.every((c) => c.schema.kind === "unknown" && c.schema.default === undefined);
    const rule = untyped ? "request.body.removed-without-schema" : "request.body.removed";
    const text = untyped ? "the request body, which had no schema, was removed" : "the request body was removed";
    return void out.push(fixedChange(rule, join(operationPointer(o), "requestBody"), "old", `${n.id}: ${text}`));
  }
  if (!a && b) {
    out.push(
      fixedChange(b.required ? "request.body.required-added" : "request.body.added", at, "new", `${n.id}: a request body was added`),
    );
    return;
  }
  if (!a || !b) return;
  if (!a.required && b.required) out.push(fixedChange("request.body.required-now", at, "new", `${n.id}: the request body is now required`));
  if (a.required && !b.required) out.push(fixedChange("request.body.optional-now", at, "new", `${n.id}: the request body is now optional`));
  const variantSchemas = new Set(
    [o, n].flatMap((op) => op.variants?.pipelines.flatMap((p) => p.variants.map((v) => v.requestSchema)) ?? []),
  );
  for (const c of a.contents) {
    if (!b.contents.some((d) => d.mediaType === c.mediaType)) {
      out.push(
        fixedChange(
          "request.media-type.removed",
          join(operationPointer(o), "requestBody", "content", c.mediaType),
          "old",
          `${n.id}: the request no longer accepts ${c.mediaType}`,
        ),
      );
    }
  }
  for (const d of b.contents) {
    const c = a.contents.find((x) => x.mediaType === d.mediaType);
    const p = join(at, "content", d.mediaType, "schema");
    if (!c) {
      out.push(
        fixedChange(
          "request.media-type.added",
          join(at, "content", d.mediaType),
          "new",
          `${n.id}: the request now also accepts ${d.mediaType}`,
        ),
      );
      continue;
    }
    const walk = {
      scope: "request" as const,
      old: named.old,
      new: named.new,
      out,
      label: `${n.id} request body`,
      skipRefs: variantSchemas,
    };
    compareSchemas(walk, c.schema, d.schema, join(operationPointer(o), "requestBody", "content", c.mediaType, "schema"), p);
  }
}

/**
 * The client checks a marked body before sending: a new check (or a create check where there was an update check,
 * which requires fields) refuses bodies that were sent before; a dropped or relaxed one leaves the server to decide.
 */
function compareSubscriptionCheck(o: Operation, n: Operation, out: Change[]): void {
  const [a, b] = [o.webhookSubscription, n.webhookSubscription];
  if (a === b) return;
  const at = (op: Operation) => join(operationPointer(op), WEBHOOK_SUBSCRIPTION_KEY);
  if (!b)
    return void out.push(
      fixedChange("request.subscription-check.removed", at(o), "old", `${n.id}: the body is no longer checked as a webhook subscription`),
    );
  if (!a)
    return void out.push(
      fixedChange("request.subscription-check.added", at(n), "new", `${n.id}: the body is now checked as a webhook subscription (${b})`),
    );
  const rule = b === "create" ? "request.subscription-check.create-now" : "request.subscription-check.update-now";
  out.push(fixedChange(rule, at(n), "new", `${n.id}: the body is now checked as a webhook subscription ${b}, not ${a}`));
}

function compareResponses(o: Operation, n: Operation, named: { old: NamedMap; new: NamedMap }, out: Change[]): void {
  const rp = (op: Operation, r: Response, ...rest: string[]) => join(operationPointer(op), "responses", r.status, ...rest);
  for (const r of o.responses) {
    if (!n.responses.some((s) => s.status === r.status))
      out.push(fixedChange("response.status.removed", rp(o, r), "old", `${n.id}: status ${r.status} is no longer returned`));
  }
  for (const s of n.responses) {
    const r = o.responses.find((x) => x.status === s.status);
    if (!r) {
      const success = s.status.startsWith("2");
      out.push(
        fixedChange(
          success ? "response.status.success-added" : "response.status.added",
          rp(n, s),
          "new",
          `${n.id}: status ${s.status} may now be returned`,
        ),
      );
      continue;
    }
    for (const h of r.headers) {
      if (!s.headers.some((x) => x.name === h.name))
        out.push(
          fixedChange("response.header.removed", rp(o, r, "headers", h.name), "old", `${n.id} ${s.status}: header ${h.name} was removed`),
        );
    }
    for (const h of s.headers) {
      if (!r.headers.some((x) => x.name === h.name))
        out.push(
          fixedChange("response.header.added", rp(n, s, "headers", h.name), "new", `${n.id} ${s.status}: header ${h.name} was added`),
        );
    }
    for (const c of r.contents) {
      if (!s.contents.some((d) => d.mediaType === c.mediaType)) {
        out.push(
          fixedChange(
            "response.media-type.removed",
            rp(o, r, "content", c.mediaType),
            "old",
            `${n.id} ${s.status}: no longer answers ${c.mediaType}`,
          ),
        );
      }
    }
    const error = /^[45]/.test(s.status) || s.status === "default";
    for (const d of s.contents) {
      const c = r.contents.find((x) => x.mediaType === d.mediaType);
      if (!c) {
        out.push(
          fixedChange(
            "response.media-type.added",
            rp(n, s, "content", d.mediaType),
            "new",
            `${n.id} ${s.status}: may now answer ${d.mediaType}`,
          ),
        );
        continue;
      }
      const label = `${n.id} ${s.status} ${d.mediaType}`;
      // An error body's `code` is compared as the operation's error codes (errors.operation.*).
      const walk = { scope: "response" as const, old: named.old, new: named.new, out, label, ...(error && { skip: new Set(["code"]) }) };
      compareSchemas(walk, c.schema, d.schema, rp(o, r, "content", c.mediaType, "schema"), rp(n, s, "content", d.mediaType, "schema"));
    }
  }
}

function compareSecurity(o: Operation, n: Operation, out: Change[]): void {
  const text = (r: SecurityRequirement) =>
    r.length === 0
      ? "no authentication"
      : r
          .map((s) => `${s.scheme}${s.scopes.length > 0 ? `(${[...s.scopes].sort().join(" ")})` : ""}`)
          .sort()
          .join(" + ");
  const [a, b] = [o.security.map(text), n.security.map(text)];
  const at = join(operationPointer(n), "security");
  const anonymous = b.includes("no authentication");
  for (const r of a.filter((x) => !b.includes(x))) {
    out.push(
      fixedChange(
        anonymous ? "security.requirement.relaxed" : "security.requirement.removed",
        at,
        "new",
        `${n.id}: security ${r} is no longer accepted${anonymous ? " (no authentication is needed now)" : ""}`,
      ),
    );
  }
  for (const r of b.filter((x) => !a.includes(x) && !(x === "no authentication"))) {
    out.push(fixedChange("security.requirement.added", at, "new", `${n.id}: security ${r} is now accepted`));
  }
}

function compareErrorCodes(o: Operation, n: Operation, out: Change[]): void {
  const added = n.errorCodes.filter((c) => !o.errorCodes.includes(c));
  const removed = o.errorCodes.filter((c) => !n.errorCodes.includes(c));
  const at = join(operationPointer(n), "responses");
  if (added.length > 0) out.push(fixedChange("errors.operation.code-added", at, "new", `${n.id}: may now fail with ${added.join(", ")}`));
  if (removed.length > 0)
    out.push(fixedChange("errors.operation.code-removed", at, "new", `${n.id}: no longer fails with ${removed.join(", ")}`));
}
