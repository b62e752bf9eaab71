import type { ObjectSchema, Property, Schema } from "./types.js";

/**
 * Merges an intersection of objects (allOf), following references to named schemas, into one object:
 * what a body of that schema may carry. Later members refine earlier ones (a property's schema is the
 * last one seen, its required-ness the union of all).
 */
export function flattenObject(schema: Schema, named: ReadonlyMap<string, Schema>): ObjectSchema {
  const order: string[] = [];
  const props = new Map<string, Property>();
  let open = false;
  const exactlyOne: (readonly string[])[] = [];
  let description: string | undefined;
  const visit = (node: Schema, seen: readonly string[]): void => {
    if (node.kind === "ref") {
      const target = named.get(node.name);
      if (target && !seen.includes(node.name)) visit(target, [...seen, node.name]);
      return;
    }
    if (node.kind === "intersection") {
      for (const member of node.members) visit(member, seen);
      description ??= node.description;
      return;
    }
    if (node.kind !== "object") return;
    description ??= node.description;
    if (node.additionalProperties !== false) open = true;
    exactlyOne.push(...(node.exactlyOne ?? []));
    for (const p of node.properties) {
      const before = props.get(p.name);
      if (!before) order.push(p.name);
      props.set(p.name, { name: p.name, required: p.required || (before?.required ?? false), schema: p.schema });
    }
  };
  visit(schema, []);
  return {
    kind: "object",
    properties: order.map((name) => props.get(name)!),
    additionalProperties: open,
    ...(exactlyOne.length > 0 && { exactlyOne }),
    ...(description !== undefined && { description }),
  };
}
