/**
 * Read-only views of a description that keeps its $refs, for the facts test. Built on the project's own
 * object-schema helpers; adds what a fact check needs beyond them: every part that constrains a value
 * (a schema, the targets of its $ref with siblings kept, its allOf members), merged keywords, and the
 * alternatives of an anyOf.
 */
import { allowedValues, deref, type FlatObject, flattenObject } from "../../generator/spec/object-schema.js";
import { join, resolvePointer } from "../../generator/spec/pointer.js";

export type Schema = Record<string, unknown>;

export interface Located {
  readonly schema: Schema;
  /** JSON pointer of this schema in the description. */
  readonly pointer: string;
}

export function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The value at a pointer, followed through $refs; undefined when absent. */
export function at(document: unknown, pointer: string): Located | undefined {
  const value = resolvePointer(document, pointer);
  if (!isSchema(value)) return undefined;
  return deref(document, value, pointer);
}

/** A descendant of a located object (through arrays too), each object step followed through $refs. */
export function child(document: unknown, parent: Located | undefined, ...tokens: (string | number)[]): Located | undefined {
  if (!parent) return undefined;
  let value: unknown = parent.schema;
  let here = parent.pointer;
  for (const token of tokens) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, String(token))) return undefined;
    const next: unknown = (value as Record<string, unknown>)[String(token)];
    here = join(here, token);
    if (isSchema(next)) {
      const followed = deref(document, next, here);
      value = followed.schema;
      here = followed.pointer;
    } else value = next;
  }
  return isSchema(value) ? { schema: value, pointer: here } : undefined;
}

/** Every part that constrains a value: the schema, the target of its $ref (siblings kept) and its allOf members, recursively. */
export function parts(document: unknown, schema: Schema, pointer: string): Located[] {
  const out: Located[] = [];
  const visit = (node: Schema, where: string, depth: number): void => {
    if (depth > 32) return;
    out.push({ schema: node, pointer: where });
    if (typeof node.$ref === "string") {
      const target = resolvePointer(document, node.$ref);
      if (isSchema(target)) visit(target, node.$ref.slice(1), depth + 1);
    }
    if (Array.isArray(node.allOf))
      node.allOf.forEach((member, i) => {
        if (isSchema(member)) visit(member, join(where, "allOf", i), depth + 1);
      });
  };
  visit(schema, pointer, 0);
  return out;
}

/** The alternatives of a schema: the members of its anyOf (recursively), or the schema itself. */
export function alternatives(document: unknown, schema: Schema, pointer: string): Located[] {
  for (const part of parts(document, schema, pointer)) {
    const anyOf = part.schema.anyOf;
    if (Array.isArray(anyOf))
      return anyOf.flatMap((member, i) => (isSchema(member) ? alternatives(document, member, join(part.pointer, "anyOf", i)) : []));
  }
  return [{ schema, pointer }];
}

/** The nearest part that has the keyword (a $ref's siblings win over its target). */
export function keyword(ps: readonly Located[], key: string): { value: unknown; pointer: string } | undefined {
  for (const p of ps) if (key in p.schema) return { value: p.schema[key], pointer: join(p.pointer, key) };
  return undefined;
}

/** The types the parts allow together (intersection of their `type`s); undefined when none states one. */
export function typesOf(ps: readonly Located[]): Set<string> | undefined {
  let types: Set<string> | undefined;
  for (const p of ps) {
    const t = p.schema.type;
    if (t === undefined) continue;
    const here = new Set(Array.isArray(t) ? t.map(String) : [String(t)]);
    types = types ? new Set([...types].filter((x) => here.has(x))) : here;
  }
  return types;
}

/** The values the parts allow together (intersection of enum/const, and union over anyOf members); undefined when open. */
export function allowedOf(document: unknown, ps: readonly Located[]): { values: unknown[]; pointer: string } | undefined {
  let result: { values: unknown[]; pointer: string } | undefined;
  const restrict = (values: readonly unknown[], pointer: string): void => {
    if (!result) result = { values: [...values], pointer };
    else result = { values: result.values.filter((v) => values.includes(v)), pointer: result.pointer };
  };
  for (const p of ps) {
    if ("const" in p.schema || Array.isArray(p.schema.enum)) {
      const values = allowedValues(document, p.schema, p.pointer);
      if (values) restrict(values, p.pointer);
    }
    if (Array.isArray(p.schema.anyOf) || Array.isArray(p.schema.oneOf)) {
      const key = Array.isArray(p.schema.anyOf) ? "anyOf" : "oneOf";
      const members = p.schema[key] as unknown[];
      const union: unknown[] = [];
      let closed = members.length > 0;
      members.forEach((m, i) => {
        const sub = isSchema(m) ? allowedOf(document, parts(document, m, join(p.pointer, key, i))) : undefined;
        if (sub) union.push(...sub.values);
        else closed = false;
      });
      if (closed) restrict(union, p.pointer);
    }
  }
  return result;
}

/** Every declared schema of each property, over all parts. */
export function propertiesOf(document: unknown, ps: readonly Located[]): Map<string, Located[]> {
  const props = new Map<string, Located[]>();
  for (const p of ps) {
    const declared = p.schema.properties;
    if (!isSchema(declared)) continue;
    for (const [name, value] of Object.entries(declared)) {
      if (!isSchema(value)) continue;
      const list = props.get(name) ?? [];
      list.push(...parts(document, value, join(p.pointer, "properties", name)));
      props.set(name, list);
    }
  }
  return props;
}

export function requiredOf(ps: readonly Located[]): Set<string> {
  const required = new Set<string>();
  for (const p of ps) if (Array.isArray(p.schema.required)) for (const r of p.schema.required) required.add(String(r));
  return required;
}

/** The parts of `items` of an array schema. */
export function itemsOf(document: unknown, ps: readonly Located[]): Located[] | undefined {
  const items = keyword(ps, "items");
  return items && isSchema(items.value) ? parts(document, items.value, items.pointer) : undefined;
}

/** The parts of the value schema of a map (`additionalProperties: {...}`). */
export function mapValuesOf(document: unknown, ps: readonly Located[]): Located[] | undefined {
  const values = keyword(ps, "additionalProperties");
  return values && isSchema(values.value) ? parts(document, values.value, values.pointer) : undefined;
}

/** The project's flattening of an object schema (required, exactly-one groups, explicit openness). */
export function flat(document: unknown, located: Located): FlatObject {
  return flattenObject(document, located.schema, located.pointer);
}

/** Where a located schema sits, for messages: the first part's pointer. */
export function where(ps: readonly Located[]): string {
  return ps[0]?.pointer ?? "";
}
