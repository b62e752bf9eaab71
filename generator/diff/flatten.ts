import type { Schema } from "../ir/types.js";
import { join } from "../spec/pointer.js";
import type { NamedMap } from "./model.js";

export interface FlatProperty {
  readonly name: string;
  readonly required: boolean;
  readonly schema: Schema;
  /** Where the property is written (the last definition seen, as in generator/ir/flatten.ts). */
  readonly pointer: string;
}

export interface Flat {
  readonly properties: ReadonlyMap<string, FlatProperty>;
  /** false: closed; true or a schema: further properties allowed. */
  readonly open: boolean | Schema;
  readonly openPointer: string;
  readonly exactlyOne: readonly (readonly string[])[];
  readonly exactlyOnePointer: string;
}

export const schemaPointer = (name: string): string => join("", "components", "schemas", name);

/**
 * generator/ir/flatten.ts's flattenObject, keeping where each property is written: merges an allOf of objects,
 * following references to named schemas (each at most once on a path, so recursion ends).
 */
export function flattenAt(schema: Schema, pointer: string, named: NamedMap): Flat {
  const properties = new Map<string, FlatProperty>();
  let open: boolean | Schema = false;
  let openPointer = pointer;
  const exactlyOne: (readonly string[])[] = [];
  let exactlyOnePointer = pointer;
  const visit = (node: Schema, at: string, seen: readonly string[]): void => {
    if (node.kind === "ref") {
      const target = named.get(node.name);
      if (target && !seen.includes(node.name)) visit(target, schemaPointer(node.name), [...seen, node.name]);
      return;
    }
    if (node.kind === "intersection") {
      node.members.forEach((member, i) => {
        visit(member, join(at, "allOf", i), seen);
      });
      return;
    }
    if (node.kind !== "object") return;
    if (node.additionalProperties !== false) {
      open = open === false || node.additionalProperties !== true ? node.additionalProperties : open;
      openPointer = join(at, "additionalProperties");
    }
    if (node.exactlyOne && node.exactlyOne.length > 0) {
      exactlyOne.push(...node.exactlyOne);
      exactlyOnePointer = join(at, "oneOf");
    }
    for (const p of node.properties) {
      const before = properties.get(p.name);
      properties.set(p.name, {
        name: p.name,
        required: p.required || (before?.required ?? false),
        schema: p.schema,
        pointer: join(at, "properties", p.name),
      });
    }
  };
  visit(schema, pointer, []);
  return { properties, open, openPointer, exactlyOne, exactlyOnePointer };
}
