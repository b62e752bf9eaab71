import { componentSchemaName, resolvePointer } from "../spec/pointer.js";
import type { JsonValue, Property, Schema, SchemaMeta } from "./types.js";

type Raw = Record<string, unknown>;

/** What a schema is read against; immutable, passed down by value. */
export interface SchemaSource {
  readonly document: unknown;
  readonly openapi: "3.0" | "3.1";
  /** References being followed, to stop inline cycles. */
  readonly following?: readonly string[];
}

const PRIMITIVES = new Set(["string", "number", "integer", "boolean", "null", "object", "array"]);

const isRaw = (v: unknown): v is Raw => v !== null && typeof v === "object" && !Array.isArray(v);

function meta(raw: Raw, openapi: "3.0" | "3.1"): SchemaMeta {
  const description = typeof raw.description === "string" ? raw.description : typeof raw.title === "string" ? raw.title : undefined;
  const examples = Array.isArray(raw.examples) ? raw.examples : openapi === "3.0" && "example" in raw ? [raw.example] : undefined;
  return {
    ...(description !== undefined && { description }),
    ...("default" in raw && { default: raw.default as JsonValue }),
    ...(examples !== undefined && { examples: examples as JsonValue[] }),
    ...(raw.deprecated === true && { deprecated: true }),
  };
}

/** Converts one schema object of the description into an IR schema node. */
export function toSchema(value: unknown, src: SchemaSource): Schema {
  if (value === true || value === undefined) return { kind: "unknown" };
  if (value === false) return { kind: "union", mode: "anyOf", members: [] };
  if (!isRaw(value)) return { kind: "unknown" };
  const raw = value;
  const m = meta(raw, src.openapi);

  if (typeof raw.$ref === "string") {
    const named = componentSchemaName(raw.$ref);
    if (named !== undefined) return { kind: "ref", name: named, ...m };
    if (src.following?.includes(raw.$ref)) return { kind: "unknown", ...m };
    const target = resolvePointer(src.document, raw.$ref);
    return { ...toSchema(target, { ...src, following: [...(src.following ?? []), raw.$ref] }), ...m };
  }

  const nullable = src.openapi === "3.0" && raw.nullable === true;
  const core = coreSchema(raw, m, src);
  return nullable ? { kind: "union", mode: "anyOf", members: [core, { kind: "null" }], ...m } : core;
}

function coreSchema(raw: Raw, m: SchemaMeta, src: SchemaSource): Schema {
  if ("const" in raw) return { kind: "enum", values: [raw.const as string], ...m };
  if (Array.isArray(raw.enum)) return { kind: "enum", values: raw.enum as string[], ...m };

  const choice = Array.isArray(raw.oneOf) ? "oneOf" : Array.isArray(raw.anyOf) ? "anyOf" : undefined;
  const choices = choice ? (raw[choice] as unknown[]) : [];
  const onlyRequired = choices.every((c) => isRaw(c) && Object.keys(c).every((k) => k === "required"));
  if (choice && !onlyRequired) {
    const consts = choices.every((c) => isRaw(c) && "const" in c && !("type" in c && c.type === "object"));
    if (consts) {
      const described = choices.filter((c): c is Raw => isRaw(c) && typeof c.description === "string");
      return {
        kind: "enum",
        values: choices.map((c) => (c as Raw).const as string),
        ...(described.length > 0 && {
          valueDescriptions: Object.fromEntries(described.map((c) => [String(c.const), c.description as string])),
        }),
        ...m,
      };
    }
    const members = choices.map((c) => toSchema(c, src));
    const own = ownShape(raw, src, m);
    const union: Schema = { kind: "union", mode: choice, members, ...discriminator(raw), ...(own ? {} : m) };
    return own ? { kind: "intersection", members: [own, union], ...m } : union;
  }

  if (Array.isArray(raw.allOf)) {
    // A member that only documents (`allOf: [{$ref: X}, {description: ...}]`, how 3.0 describes a reference) adds
    // no constraint: it is dropped, its text kept, so that a single reference stays that named schema.
    const constraining = raw.allOf.filter((c) => !annotationOnly(c));
    const kept = constraining.length > 0 ? constraining : raw.allOf;
    const notes = raw.allOf.filter((c) => !kept.includes(c)).map((c) => meta(c as Raw, src.openapi));
    const described: SchemaMeta = Object.assign({}, ...notes, m);
    const members = kept.map((c) => toSchema(c, src));
    const own = ownShape(raw, src, m);
    const all = own ? [...members, own] : members;
    return all.length === 1 ? { ...all[0]!, ...described } : { kind: "intersection", members: all, ...described };
  }

  const types = Array.isArray(raw.type) ? (raw.type as string[]) : typeof raw.type === "string" ? [raw.type] : [];
  if (types.length > 1) return { kind: "union", mode: "anyOf", members: types.map((t) => typed(t, raw, {}, src)), ...m };
  if (types.length === 1) return typed(types[0]!, raw, m, src);
  if (isRaw(raw.properties) || "additionalProperties" in raw) return typed("object", raw, m, src);
  if ("items" in raw) return typed("array", raw, m, src);
  return { kind: "unknown", ...m };
}

/** Keywords that annotate a schema without constraining its values. */
const ANNOTATIONS = new Set([
  "description",
  "title",
  "default",
  "example",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "externalDocs",
  "$comment",
  "xml",
]);

/** A schema object of annotations only (x- extensions included), which accepts any value. */
function annotationOnly(value: unknown): boolean {
  return isRaw(value) && Object.keys(value).every((k) => ANNOTATIONS.has(k) || k.startsWith("x-"));
}

/** The object part of a schema that also has allOf/oneOf (properties beside the composition). */
function ownShape(raw: Raw, src: SchemaSource, m: SchemaMeta): Schema | undefined {
  if (!isRaw(raw.properties) && !("additionalProperties" in raw) && !Array.isArray(raw.required)) return undefined;
  return typed("object", raw, m, src);
}

function discriminator(raw: Raw): { discriminator?: { property: string; mapping: Record<string, string> } } {
  const d = raw.discriminator;
  if (!isRaw(d) || typeof d.propertyName !== "string") return {};
  const mapping = isRaw(d.mapping) ? (d.mapping as Record<string, string>) : {};
  return { discriminator: { property: d.propertyName, mapping } };
}

function numberProp(raw: Raw, key: string): Record<string, number> {
  return typeof raw[key] === "number" ? { [key]: raw[key] as number } : {};
}

function typed(type: string, raw: Raw, m: SchemaMeta, src: SchemaSource): Schema {
  if (!PRIMITIVES.has(type)) return { kind: "unknown", ...m };
  switch (type) {
    case "string":
      return stringSchema(raw, m, src);
    case "number":
    case "integer": {
      // OpenAPI 3.0 writes exclusive bounds as booleans beside minimum/maximum.
      const exMin = raw.exclusiveMinimum === true ? { exclusiveMinimum: raw.minimum as number } : numberProp(raw, "exclusiveMinimum");
      const exMax = raw.exclusiveMaximum === true ? { exclusiveMaximum: raw.maximum as number } : numberProp(raw, "exclusiveMaximum");
      const min = raw.exclusiveMinimum === true ? {} : numberProp(raw, "minimum");
      const max = raw.exclusiveMaximum === true ? {} : numberProp(raw, "maximum");
      return { kind: type, ...min, ...max, ...exMin, ...exMax, ...m };
    }
    case "boolean":
      return { kind: "boolean", ...m };
    case "null":
      return { kind: "null", ...m };
    case "array":
      return {
        kind: "array",
        items: toSchema(raw.items, src),
        ...numberProp(raw, "minItems"),
        ...numberProp(raw, "maxItems"),
        ...m,
      };
    default:
      return objectSchema(raw, m, src);
  }
}

function stringSchema(raw: Raw, m: SchemaMeta, src: SchemaSource): Schema {
  const media = typeof raw.contentMediaType === "string" ? raw.contentMediaType : undefined;
  if (media === "application/json" || (media?.endsWith("+json") ?? false)) {
    return { kind: "json-text", value: toSchema(raw.contentSchema, src), ...m };
  }
  if (raw.format === "binary" || (media !== undefined && !media.startsWith("text/"))) {
    return { kind: "file", ...(media !== undefined && { mediaType: media }), ...m };
  }
  return {
    kind: "string",
    ...(typeof raw.format === "string" && { format: raw.format }),
    ...(typeof raw.pattern === "string" && { pattern: raw.pattern }),
    ...numberProp(raw, "minLength"),
    ...numberProp(raw, "maxLength"),
    ...m,
  };
}

function objectSchema(raw: Raw, m: SchemaMeta, src: SchemaSource): Schema {
  const required = new Set(Array.isArray(raw.required) ? (raw.required as string[]) : []);
  const props = isRaw(raw.properties) ? raw.properties : {};
  const properties: Property[] = Object.entries(props).map(([name, value]) => ({
    name,
    required: required.has(name),
    schema: toSchema(value, src),
  }));
  const choices = Array.isArray(raw.oneOf) ? (raw.oneOf as unknown[]) : [];
  const group = choices.map((c) => (isRaw(c) && Array.isArray(c.required) && c.required.length === 1 ? String(c.required[0]) : undefined));
  const exactlyOne = choices.length > 1 && group.every((g) => g !== undefined) ? [group as string[]] : undefined;
  // Alternatives that name several properties each: kept as lists, so that a sample completes one list only.
  const lists = choices.map((c) => (isRaw(c) && Array.isArray(c.required) ? c.required.map(String) : undefined));
  const oneOfRequired =
    exactlyOne === undefined && choices.length > 1 && lists.every((l) => l !== undefined && l.length > 0)
      ? (lists as string[][])
      : undefined;
  const extra = raw.additionalProperties;
  // An object that says nothing about further properties allows them (JSON Schema's default).
  const additionalProperties = extra === undefined ? properties.length === 0 : isRaw(extra) ? toSchema(extra, src) : extra !== false;
  return {
    kind: "object",
    properties,
    additionalProperties,
    ...(exactlyOne && { exactlyOne }),
    ...(oneOfRequired && { oneOfRequired }),
    ...m,
  };
}
