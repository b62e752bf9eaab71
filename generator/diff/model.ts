/** What the release diff reports: one change, its stable rule and its classification. */
import type { IR, Schema } from "../ir/types.js";

/**
 * breaking: clients of the generated SDK break; warning: they may, the diff cannot prove either way (a changed
 * pattern it cannot read); info: they do not.
 */
export type Severity = "breaking" | "warning" | "info";
export type Side = "request" | "response" | "operation" | "security" | "errors" | "webhook" | "pricing";

export interface Change {
  /** Stable rule id, for example `request.field.required-added` or `variants.variant.removed`. */
  readonly rule: string;
  readonly severity: Severity;
  readonly side: Side;
  /** The change moves money rather than types (prices, lanes): never breaking, always flagged. */
  readonly billing?: true;
  /**
   * JSON pointer (RFC 6901) into a description: into the new one (`in: "new"`) for additions and changes, into
   * the old one (`in: "old"`) for removals. References are followed, so it names where the thing is written.
   */
  readonly pointer: string;
  readonly in: "old" | "new";
  readonly message: string;
}

/** One side of a comparison: the IR and, to locate changes precisely, the description it was built from. */
export interface ReleaseModel {
  readonly ir: IR;
  readonly document?: Record<string, unknown>;
}

/** How a schema-level change affects a client, by the direction the data flows. */
export type Effect = "break" | "safe" | "widen" | "narrow";
/** request: the client sends it (narrowing breaks); response: the client receives it (widening breaks). */
export type Direction = "request" | "response";

export function severityOf(effect: Effect, direction: Direction): Severity {
  if (effect === "break") return "breaking";
  if (effect === "safe") return "info";
  return (effect === "narrow") === (direction === "request") ? "breaking" : "info";
}

/** "yes" with a witness, "no" with a proof, "unknown" when the diff has neither. */
export type Answer = "yes" | "no" | "unknown";
/** What a judged change does to the values a schema accepts. */
export interface Judgement {
  /** Some value accepted before is rejected now. */
  readonly narrows: Answer;
  /** Some value rejected before is accepted now. */
  readonly widens: Answer;
}

/** A judged change breaks where it narrows what the client sends or widens what it receives. */
export function judgedSeverity(judgement: Judgement, direction: Direction): Severity {
  const answer = direction === "request" ? judgement.narrows : judgement.widens;
  return answer === "yes" ? "breaking" : answer === "no" ? "info" : "warning";
}

/** Rules applied to a schema wherever one is compared; each rule id is `<scope>.<rule>`. */
export const SCHEMA_RULES = {
  "field.added": "safe",
  "field.required-added": "narrow",
  "field.removed": "break",
  "field.required-now": "narrow",
  "field.optional-now": "widen",
  "field.deprecated": "safe",
  "default.changed": "safe",
  "type.changed": "break",
  "type.widened": "widen",
  "type.narrowed": "narrow",
  "enum.value-added": "widen",
  "enum.value-removed": "narrow",
  "range.widened": "widen",
  "range.narrowed": "narrow",
  "object.opened": "safe",
  "object.closed": "narrow",
  "union.member-added": "widen",
  "union.member-removed": "narrow",
  "json-text.added": "break",
  "json-text.removed": "break",
} as const satisfies Record<string, Effect>;
export type SchemaRule = keyof typeof SCHEMA_RULES;

/**
 * Schema rules whose severity is judged on what the old and the new schema accept (see Judgement): breaking when a
 * value the client sends is now refused (or one it receives is new), info when provably not, warning otherwise.
 */
export const JUDGED_RULES = [
  "pattern.widened",
  "pattern.narrowed",
  "pattern.changed",
  "exactly-one.added",
  "exactly-one.removed",
  "exactly-one.widened",
  "exactly-one.narrowed",
  "exactly-one.changed",
] as const;
export type JudgedRule = (typeof JUDGED_RULES)[number];

/** The scopes schema rules are applied in, with the direction of their data and the side they are reported on. */
export const SCOPES = {
  request: { direction: "request", side: "request" },
  response: { direction: "response", side: "response" },
  webhook: { direction: "response", side: "webhook" },
  variants: { direction: "request", side: "request" },
  "variants.payload": { direction: "response", side: "response" },
} as const satisfies Record<string, { direction: Direction; side: Side }>;
export type Scope = keyof typeof SCOPES;

/** Every other rule, with its fixed classification. */
export const RULES = {
  "operation.added": ["info", "operation"],
  "operation.removed": ["breaking", "operation"],
  "operation.id-changed": ["breaking", "operation"],
  "operation.path-parameter-renamed": ["breaking", "operation"],
  "operation.deprecated": ["info", "operation"],
  "request.parameter.added": ["info", "request"],
  "request.parameter.required-added": ["breaking", "request"],
  "request.parameter.removed": ["breaking", "request"],
  "request.parameter.required-now": ["breaking", "request"],
  "request.parameter.optional-now": ["info", "request"],
  "request.body.added": ["info", "request"],
  "request.body.required-added": ["breaking", "request"],
  "request.body.removed": ["breaking", "request"],
  "request.body.removed-without-schema": ["info", "request"],
  "request.body.required-now": ["breaking", "request"],
  "request.body.optional-now": ["info", "request"],
  "request.media-type.added": ["info", "request"],
  "request.media-type.removed": ["breaking", "request"],
  "request.subscription-check.added": ["breaking", "request"],
  "request.subscription-check.removed": ["info", "request"],
  "request.subscription-check.create-now": ["breaking", "request"],
  "request.subscription-check.update-now": ["info", "request"],
  "response.status.added": ["info", "response"],
  "response.status.success-added": ["breaking", "response"],
  "response.status.removed": ["info", "response"],
  "response.media-type.added": ["info", "response"],
  "response.media-type.removed": ["breaking", "response"],
  "response.header.added": ["info", "response"],
  "response.header.removed": ["breaking", "response"],
  "security.requirement.added": ["info", "security"],
  "security.requirement.removed": ["breaking", "security"],
  "security.requirement.relaxed": ["info", "security"],
  "security.scheme.added": ["info", "security"],
  "security.scheme.removed": ["breaking", "security"],
  "security.scheme.changed": ["breaking", "security"],
  "errors.operation.code-added": ["info", "errors"],
  "errors.operation.code-removed": ["info", "errors"],
  "errors.catalogue.code-added": ["info", "errors"],
  "errors.catalogue.code-removed": ["breaking", "errors"],
  "errors.catalogue.status-changed": ["breaking", "errors"],
  "webhook.event.added": ["info", "webhook"],
  "webhook.event.removed": ["breaking", "webhook"],
  "variants.selector.changed": ["breaking", "request"],
  "variants.pipeline.added": ["info", "request"],
  "variants.pipeline.removed": ["breaking", "request"],
  "variants.variant.added": ["info", "request"],
  "variants.variant.removed": ["breaking", "request"],
  "variants.discriminator.changed": ["breaking", "request"],
  "variants.discriminator.default-added": ["info", "request"],
  "variants.discriminator.default-removed": ["breaking", "request"],
  "variants.payload-location.changed": ["breaking", "response"],
  "variants.price.base-credits-changed": ["info", "pricing"],
  "variants.price.minimum-charge-changed": ["info", "pricing"],
  "variants.price.default-lane-changed": ["info", "pricing"],
  "variants.price.lane-field-changed": ["info", "pricing"],
  "variants.price.lane-multiplier-changed": ["info", "pricing"],
  "variants.price.lane-added": ["info", "pricing"],
  "variants.price.lane-removed": ["info", "pricing"],
  "conventions.job.role-added": ["info", "operation"],
  "conventions.job.role-removed": ["breaking", "operation"],
  "conventions.job.operation-moved": ["breaking", "operation"],
  "conventions.job.changed": ["breaking", "operation"],
  "conventions.billed.added": ["warning", "pricing"],
  "conventions.billed.removed": ["info", "pricing"],
  "conventions.idempotent.added": ["info", "operation"],
  "conventions.idempotent.removed": ["warning", "operation"],
  "conventions.idempotency-key.added": ["info", "operation"],
  "conventions.idempotency-key.removed": ["breaking", "operation"],
  "conventions.idempotency-key.changed": ["breaking", "operation"],
  "conventions.base-path.changed": ["breaking", "operation"],
  "conventions.envelope.changed": ["breaking", "response"],
  "conventions.tokens.kind-added": ["info", "security"],
  "conventions.tokens.changed": ["breaking", "security"],
} as const satisfies Record<string, readonly [Severity, Side]>;
export type FixedRule = keyof typeof RULES;

/** Every rule id with its classification, for documentation and checks. */
export function ruleCatalogue(): { rule: string; severity: string; side: Side; billing: boolean }[] {
  const schemaRules = Object.entries(SCOPES).flatMap(([scope, { direction, side }]) =>
    Object.entries(SCHEMA_RULES)
      .filter(
        ([rule]) =>
          !(rule === "field.required-added" && direction === "response") && !(rule === "default.changed" && direction === "response"),
      )
      .map(([rule, effect]) => ({
        rule: `${scope}.${rule}`,
        severity: severityOf(effect, direction) as string,
        side: side as Side,
        billing: false,
      }))
      .concat(JUDGED_RULES.map((rule) => ({ rule: `${scope}.${rule}`, severity: "judged", side: side as Side, billing: false }))),
  );
  const fixed = Object.entries(RULES).map(([rule, [severity, side]]) => ({
    rule,
    severity,
    side: side as Side,
    billing: side === "pricing",
  }));
  return [...fixed, ...schemaRules].sort((a, b) => (a.rule < b.rule ? -1 : 1));
}

export function fixedChange(rule: FixedRule, pointer: string, where: "old" | "new", message: string): Change {
  const [severity, side] = RULES[rule];
  return { rule, severity, side, ...(side === "pricing" && { billing: true as const }), pointer, in: where, message };
}

export type NamedMap = ReadonlyMap<string, Schema>;
export const namedOf = (ir: IR): NamedMap => new Map(ir.schemas.map((s) => [s.name, s.schema]));
