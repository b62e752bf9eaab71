import { join } from "../spec/pointer.js";
import type { ObjectSchema, Schema } from "./types.js";

export interface FlatProperty {
  readonly name: string;
  readonly required: boolean;
  readonly schema: Schema;
  /** Where the property is written: the last definition seen. */
  readonly pointer: string;
}

/** An object schema with its allOf members and references to named schemas merged, and where each part is written. */
export interface Flat {
  /** In first-seen order. */
  readonly properties: ReadonlyMap<string, FlatProperty>;
  /** false: closed; true or a schema: further properties allowed. */
  readonly open: boolean | Schema;
  readonly openPointer: string;
  readonly exactlyOne: readonly (readonly string[])[];
  readonly exactlyOnePointer: string;
  /** The first description met. */
  readonly description?: string;
}

export const schemaPointer = (name: string): string => join("", "components", "schemas", name);

/**
 * Merges an intersection of objects (allOf), following references to named schemas (each at most once on a
 * path, so recursion ends), into what a body of that schema may carry. Later members refine earlier ones: a
 * property's schema is the last one seen, its required-ness the union of all.
 */
export function flattenAt(schema: Schema, pointer: string, named: ReadonlyMap<string, Schema>): Flat {
  return flatten(schema, pointer, named, join);
}

/** `where` builds the pointers; flattenObject, which drops them, passes one that builds nothing. */
function flatten(
  schema: Schema,
  pointer: string,
  named: ReadonlyMap<string, Schema>,
  where: (base: string, ...tokens: readonly (string | number)[]) => string,
): Flat {
  const properties = new Map<string, FlatProperty>();
  let open: boolean | Schema = false;
  let openPointer = pointer;
  const exactlyOne: (readonly string[])[] = [];
  let exactlyOnePointer = pointer;
  let description: string | undefined;
  const visit = (node: Schema, at: string, seen: readonly string[]): void => {
    if (node.kind === "ref") {
      const target = named.get(node.name);
      if (target && !seen.includes(node.name)) visit(target, where("", "components", "schemas", node.name), [...seen, node.name]);
      return;
    }
    if (node.kind === "intersection") {
      description ??= node.description;
      for (const [i, member] of node.members.entries()) visit(member, where(at, "allOf", i), seen);
      return;
    }
    if (node.kind !== "object") return;
    description ??= node.description;
    if (node.additionalProperties !== false) {
      open = open === false || node.additionalProperties !== true ? node.additionalProperties : open;
      openPointer = where(at, "additionalProperties");
    }
    if (node.exactlyOne && node.exactlyOne.length > 0) {
      exactlyOne.push(...node.exactlyOne);
      exactlyOnePointer = where(at, "oneOf");
    }
    for (const p of node.properties) {
      const before = properties.get(p.name);
      properties.set(p.name, {
        name: p.name,
        required: p.required || (before?.required ?? false),
        schema: p.schema,
        pointer: where(at, "properties", p.name),
      });
    }
  };
  visit(schema, pointer, []);
  return { properties, open, openPointer, exactlyOne, exactlyOnePointer, ...(description !== undefined && { description }) };
}

/** flattenAt as an IR object schema, without the pointers. */
export function flattenObject(schema: Schema, named: ReadonlyMap<string, Schema>): ObjectSchema {
  const flat = flatten(schema, "", named, () => "");
  return {
    kind: "object",
    properties: [...flat.properties.values()].map(({ name, required, schema: s }) => ({ name, required, schema: s })),
    additionalProperties: flat.open,
    ...(flat.exactlyOne.length > 0 && { exactlyOne: flat.exactlyOne }),
    ...(flat.description !== undefined && { description: flat.description }),
  };
}
