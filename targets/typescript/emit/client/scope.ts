import { requestBodyContent } from "../../../../generator/emit/operation-files.js";
import { flattenObject } from "../../../../generator/ir/flatten.js";
import type { IR, Operation, Schema, SubscriptionFields, VariantSet } from "../../../../generator/ir/types.js";
import { tsNames } from "../names.js";
import type { ImportDeclaration } from "../ts-file.js";
import type { TypeScope } from "../ts-type.js";

/**
 * The type scopes of one generated file: request types inline what differs from the wire, response types do not;
 * both name schemas by their aliases and report what they use into `uses`.
 */
export function scopes(ir: IR): { request: TypeScope; response: TypeScope; uses: Set<string> } {
  const named = new Map(ir.schemas.map((s) => [s.name, s]));
  const names = tsNames(ir);
  const uses = new Set<string>();
  const alias = (name: string) => names.schema(name);
  return { request: { named, inline: wireDiffers(ir), alias, uses }, response: { named, inline: new Set(), alias, uses }, uses };
}

/** The imports of a file's types, from what they reported using. */
export function typeImports(uses: ReadonlySet<string>, runtimeModule: string): ImportDeclaration[] {
  const aliases = [...uses].filter((u) => u !== "FileInput" && u !== "components").sort();
  return [
    ...(uses.has("FileInput") ? [{ isTypeOnly: true, moduleSpecifier: runtimeModule, namedImports: ["FileInput"] }] : []),
    ...(aliases.length > 0 ? [{ isTypeOnly: true, moduleSpecifier: "./schemas.js", namedImports: aliases }] : []),
    ...(uses.has("components") ? [{ isTypeOnly: true, moduleSpecifier: "./types.js", namedImports: ["components"] }] : []),
  ];
}

/** Named schemas whose client-side type differs from the wire type: they hold a file or JSON text, at any depth. */
function wireDiffers(ir: IR): Set<string> {
  const named = new Map(ir.schemas.map((s) => [s.name, s.schema]));
  const memo = new Map<string, boolean>();
  const differs = (s: Schema, stack: readonly string[]): boolean => {
    switch (s.kind) {
      case "file":
      case "json-text":
        return true;
      case "ref": {
        if (stack.includes(s.name)) return false;
        const known = memo.get(s.name);
        if (known !== undefined) return known;
        const target = named.get(s.name);
        const result = target !== undefined && differs(target, [...stack, s.name]);
        memo.set(s.name, result);
        return result;
      }
      case "array":
        return differs(s.items, stack);
      case "object":
        return (
          s.properties.some((p) => differs(p.schema, stack)) ||
          (typeof s.additionalProperties === "object" && differs(s.additionalProperties, stack))
        );
      case "union":
      case "intersection":
        return s.members.some((m) => differs(m, stack));
      default:
        return false;
    }
  };
  return new Set(ir.schemas.filter((s) => differs({ kind: "ref", name: s.name }, [])).map((s) => s.name));
}

/** The job-submission operations: those that carry variants. */
export function variantOperations(ir: IR): readonly (Operation & { variants: VariantSet })[] {
  return ir.operations.filter((o): o is Operation & { variants: VariantSet } => o.variants !== undefined);
}

export interface SubscriptionRules {
  readonly create: boolean;
  readonly fields: SubscriptionFields;
  readonly required: readonly string[];
  readonly eventNames: readonly string[];
  readonly wildcards: readonly string[];
  readonly retryPolicies: readonly string[];
  readonly maxRetries: { readonly minimum: number; readonly maximum: number };
  readonly timeoutMs: { readonly minimum: number; readonly maximum: number };
}

/**
 * The operations the description marks as webhook subscriptions (`webhookSubscription`) are checked before sending,
 * when the description also names the body's fields (`conventions.webhookSubscription`); the rules come from the
 * body schema and the webhooks, so a new release that renames a field or changes a range changes the check.
 */
export function subscriptionRules(ir: IR, op: Operation): SubscriptionRules | undefined {
  const body = requestBodyContent(op);
  const fields = ir.conventions?.webhookSubscription;
  if (!op.webhookSubscription || !body || !fields) return undefined;
  const named = new Map(ir.schemas.map((s) => [s.name, s.schema]));
  const flat = flattenObject(body.schema, named);
  const resolve = (s: Schema | undefined): Schema | undefined => (s?.kind === "ref" ? named.get(s.name) : s);
  const prop = (name: string | undefined): Schema | undefined =>
    name === undefined ? undefined : resolve(flat.properties.find((p) => p.name === name)?.schema);
  const enumValues = (s: Schema | undefined): string[] => {
    const r = resolve(s);
    if (r?.kind === "enum") return r.values.map(String);
    if (r?.kind === "union") return r.members.flatMap(enumValues);
    return [];
  };
  const range = (s: Schema | undefined) =>
    s && (s.kind === "integer" || s.kind === "number")
      ? { minimum: s.minimum ?? Number.MIN_SAFE_INTEGER, maximum: s.maximum ?? Number.MAX_SAFE_INTEGER }
      : { minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
  const eventNames = ir.webhooks.map((w) => w.event);
  const events = prop(fields.events);
  // Values the events list allows besides the webhooks' names, such as a "*" for all of them.
  const wildcards = events?.kind === "array" ? enumValues(events.items).filter((v) => !eventNames.includes(v)) : [];
  return {
    create: op.webhookSubscription === "create",
    fields,
    required: flat.properties.filter((p) => p.required).map((p) => p.name),
    eventNames,
    wildcards: [...new Set(wildcards)],
    retryPolicies: enumValues(prop(fields.retryPolicy)),
    maxRetries: range(prop(fields.maxRetries)),
    timeoutMs: range(prop(fields.timeoutMs)),
  };
}
