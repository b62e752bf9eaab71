import { join, pointer, pointerTokens, resolvePointer } from "./pointer.js";

type Schema = Record<string, unknown>;

export interface FlatProperty {
  readonly schema: Schema;
  /** Where the property's schema sits in the description. */
  readonly pointer: string;
}

/** An object schema with its allOf members and references merged: what a body may carry. */
export interface FlatObject {
  readonly properties: ReadonlyMap<string, FlatProperty>;
  readonly required: ReadonlySet<string>;
  /** `oneOf: [{required: [a]}, {required: [b]}]` groups, as property names. */
  readonly exactlyOne: readonly (readonly string[])[];
  /** True when unknown properties are allowed explicitly. */
  readonly open: boolean;
}

function asSchema(value: unknown): Schema | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Schema) : undefined;
}

/** Follows local references; returns the schema and its pointer. */
export function deref(document: unknown, schema: Schema, at: string): { schema: Schema; pointer: string } {
  let current = schema;
  let where = at;
  const seen = new Set<string>();
  while (typeof current.$ref === "string" && !seen.has(current.$ref)) {
    seen.add(current.$ref);
    const target = asSchema(resolvePointer(document, current.$ref));
    if (!target) break;
    where = pointer(...(pointerTokens(current.$ref) ?? []));
    current = target;
  }
  return { schema: current, pointer: where };
}

export function flattenObject(document: unknown, schema: Schema, at: string): FlatObject {
  const properties = new Map<string, FlatProperty>();
  const required = new Set<string>();
  const exactlyOne: string[][] = [];
  let open = false;
  const visit = (node: Schema, where: string, depth: number): void => {
    if (depth > 32) return;
    const { schema: s, pointer: p } = deref(document, node, where);
    // allOf members first: the schema's own properties refine them, as in the IR (generator/ir/schema.ts).
    if (Array.isArray(s.allOf)) {
      for (const [i, m] of s.allOf.entries()) {
        const member = asSchema(m);
        if (member) visit(member, join(p, "allOf", i), depth + 1);
      }
    }
    const props = asSchema(s.properties);
    if (props) {
      for (const [name, value] of Object.entries(props)) {
        const prop = asSchema(value);
        if (prop) properties.set(name, { schema: prop, pointer: join(p, "properties", name) });
      }
    }
    if (Array.isArray(s.required)) for (const name of s.required) if (typeof name === "string") required.add(name);
    if (s.additionalProperties === true || asSchema(s.additionalProperties)) open = true;
    if (Array.isArray(s.oneOf)) {
      const group = s.oneOf.map((m) => asSchema(m)?.required).filter((r): r is string[] => Array.isArray(r) && r.length === 1);
      if (group.length === s.oneOf.length && group.length > 1) exactlyOne.push(group.map((r) => r[0] as string));
    }
  };
  visit(schema, at, 0);
  return { properties, required, exactlyOne, open };
}

/** The string values a property allows (enum or const), or undefined when it is not closed. */
export function allowedValues(document: unknown, schema: Schema, at: string): readonly unknown[] | undefined {
  const { schema: s } = deref(document, schema, at);
  if ("const" in s) return [s.const];
  if (Array.isArray(s.enum)) return s.enum;
  return undefined;
}
