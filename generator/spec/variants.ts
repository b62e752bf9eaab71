import { readFileSync } from "node:fs";
import type { ErrorObject, ValidateFunction } from "ajv";
import { type SchemaCheck, schemaValidator } from "../schema-validator.js";
import { EXTENSION_SCHEMA_OPTIONS } from "./conventions.js";
import { type ExtensionUse, findExtensionUses } from "./extensions.js";
import { allowedValues, deref, flattenObject } from "./object-schema.js";
import { join, resolvePointer } from "./pointer.js";
import type { SpecProblem } from "./problems.js";

export const VARIANTS_KEY = "x-paperoffice-variants";

/** The extension's own JSON Schema, shipped beside the descriptions. */
export const variantsSchema: Record<string, unknown> = JSON.parse(
  readFileSync(new URL("../../spec/x-paperoffice-variants.schema.json", import.meta.url), "utf8"),
);

/** The extension's schema check, as the build compiles it ahead. */
export const variantsSchemaCheck: SchemaCheck = { schema: variantsSchema, options: EXTENSION_SCHEMA_OPTIONS };

// Made on first use: a command that checks no description does not pay for it.
let shapeValidator: ValidateFunction | undefined;
function validateShape(value: unknown): boolean {
  shapeValidator ??= schemaValidator(variantsSchemaCheck);
  return shapeValidator(value);
}

function shapeProblems(at: string, errors: readonly ErrorObject[]): SpecProblem[] {
  return errors.map((e) => ({
    pointer: at + e.instancePath,
    message: `${VARIANTS_KEY} ${e.message ?? "is invalid"}${e.params && "additionalProperty" in e.params ? ` ("${String(e.params.additionalProperty)}")` : ""}`,
  }));
}

type Json = Record<string, unknown>;

/** Checks every use of the extension: its shape against the JSON Schema, then its meaning against the description. */
export function checkVariants(document: Json): SpecProblem[] {
  const problems: SpecProblem[] = [];
  for (const use of findExtensionUses(document, VARIANTS_KEY)) {
    if (!validateShape(use.value)) {
      problems.push(...shapeProblems(use.pointer, shapeValidator?.errors ?? []));
      continue;
    }
    problems.push(...checkMeaning(document, use));
  }
  return problems;
}

function checkMeaning(document: Json, use: ExtensionUse): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const ext = use.value as Json & { selector: { name: string }; pipelines: Json[]; pricing?: Json };
  const params = (use.operation.parameters ?? []) as Json[];
  const hasSelector = params.some((p) => {
    const { schema } = deref(document, p, "");
    return schema.in === "path" && schema.name === ext.selector.name;
  });
  if (!hasSelector)
    problems.push({
      pointer: join(use.pointer, "selector", "name"),
      message: `the operation has no path parameter "${ext.selector.name}"`,
    });

  const slugs = new Set<string>();
  ext.pipelines.forEach((pipeline, pi) => {
    const at = join(use.pointer, "pipelines", pi);
    const slug = pipeline.slug as string;
    if (slugs.has(slug)) problems.push({ pointer: join(at, "slug"), message: `pipeline "${slug}" is listed twice` });
    slugs.add(slug);
    const names = new Set<string>();
    const chosen = new Set<string>();
    (pipeline.variants as Json[]).forEach((variant, vi) => {
      const vat = join(at, "variants", vi);
      const name = variant.name as string;
      if (names.has(name))
        problems.push({ pointer: join(vat, "name"), message: `variant "${name}" is listed twice in pipeline "${slug}"` });
      names.add(name);
      problems.push(...checkVariant(document, variant, vat, chosen, ext.pricing));
    });
  });
  return problems;
}

function checkVariant(document: Json, variant: Json, at: string, chosen: Set<string>, pricing: Json | undefined): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const refAt = join(at, "request", "$ref");
  const ref = (variant.request as { $ref: string }).$ref;
  const target = resolvePointer(document, ref);
  if (target === undefined || target === null || typeof target !== "object") {
    return [{ pointer: refAt, message: `request schema "${ref}" does not exist` }];
  }
  const payload = variant.payload as { $ref: string } | undefined;
  if (payload && resolvePointer(document, payload.$ref) === undefined) {
    problems.push({ pointer: join(at, "payload", "$ref"), message: `payload schema "${payload.$ref}" does not exist` });
  }
  const body = flattenObject(document, target as Json, ref.slice(1));
  const discriminator = variant.discriminator as { property: string; value: string } | undefined;
  if (discriminator) {
    const key = `${discriminator.property}=${discriminator.value}`;
    if (chosen.has(key)) problems.push({ pointer: join(at, "discriminator"), message: `${key} chooses two variants of this pipeline` });
    chosen.add(key);
    const prop = body.properties.get(discriminator.property);
    if (!prop) {
      problems.push({ pointer: join(at, "discriminator", "property"), message: `"${discriminator.property}" is not a property of ${ref}` });
    } else {
      const allowed = allowedValues(document, prop.schema, prop.pointer);
      if (!allowed?.includes(discriminator.value)) {
        problems.push({
          pointer: join(at, "discriminator", "value"),
          message: `"${discriminator.value}" is not an allowed value of ${prop.pointer} (allowed: ${allowed ? allowed.map(String).join(", ") : "any string; declare an enum"})`,
        });
      }
    }
  }
  const groups = (variant.exactlyOne ?? []) as string[][];
  groups.forEach((group, gi) => {
    for (const field of group) {
      if (!body.properties.has(field))
        problems.push({ pointer: join(at, "exactlyOne", gi), message: `"${field}" is not a property of ${ref}` });
      if (body.required.has(field))
        problems.push({
          pointer: join(at, "exactlyOne", gi),
          message: `"${field}" is required by ${ref}, so it cannot be one of an "exactly one of" group`,
        });
    }
    if (!body.exactlyOne.some((g) => sameSet(g, group))) {
      problems.push({
        pointer: join(at, "exactlyOne", gi),
        message: `${ref} has no oneOf of required [${group.join(", ")}] to enforce this group`,
      });
    }
  });
  for (const group of body.exactlyOne) {
    if (!groups.some((g) => sameSet(g, group)))
      problems.push({
        pointer: join(at, "exactlyOne"),
        message: `${ref} requires exactly one of [${group.join(", ")}]; list the group here`,
      });
  }
  const jsonStrings = (variant.jsonStrings ?? []) as string[];
  jsonStrings.forEach((field, fi) => {
    const prop = body.properties.get(field);
    const s = prop && deref(document, prop.schema, prop.pointer).schema;
    if (!s) problems.push({ pointer: join(at, "jsonStrings", fi), message: `"${field}" is not a property of ${ref}` });
    else if (s.contentMediaType !== "application/json")
      problems.push({ pointer: join(at, "jsonStrings", fi), message: `${prop.pointer} must declare contentMediaType: application/json` });
  });
  for (const [name, prop] of body.properties) {
    const s = deref(document, prop.schema, prop.pointer).schema;
    if (s.contentMediaType === "application/json" && !jsonStrings.includes(name)) {
      problems.push({ pointer: join(at, "jsonStrings"), message: `${prop.pointer} travels as JSON; list "${name}" here` });
    }
  }
  if (pricing) {
    const lane = body.properties.get(pricing.laneField as string);
    const lanes = lane ? allowedValues(document, lane.schema, lane.pointer) : undefined;
    const priced = Object.keys(pricing.laneMultipliers as Json);
    if (lanes && !sameSet(lanes.map(String), priced)) {
      problems.push({
        pointer: refAt,
        message: `lanes of ${lane?.pointer} (${lanes.join(", ")}) differ from the priced lanes (${priced.join(", ")})`,
      });
    }
  }
  return problems;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}
