// The schema view the mock validates with. toJsonSchema writes an intersection as allOf; when its members are
// closed objects (additionalProperties: false on each, as the IR has for ErrorResponse + {code}), no value can
// satisfy every member in JSON Schema. Intersections of objects are therefore merged into one object first
// (generator/ir/flatten.ts: later members refine earlier ones), which is what the description means.
import { flattenObject } from "../generator/ir/index.js";
import type { Property, Schema } from "../generator/ir/index.js";

function isObjectLike(schema: Schema, named: ReadonlyMap<string, Schema>, seen: readonly string[] = []): boolean {
  if (schema.kind === "ref") {
    const target = named.get(schema.name);
    return target !== undefined && !seen.includes(schema.name) && isObjectLike(target, named, [...seen, schema.name]);
  }
  if (schema.kind === "intersection") return schema.members.every((m) => isObjectLike(m, named, seen));
  return schema.kind === "object";
}

/** The schema with every intersection of objects merged into one object, recursively. */
export function mergedView(schema: Schema, named: ReadonlyMap<string, Schema>): Schema {
  const view = (s: Schema) => mergedView(s, named);
  switch (schema.kind) {
    case "intersection": {
      if (!isObjectLike(schema, named)) return { ...schema, members: schema.members.map(view) };
      const flat = flattenObject(schema, named);
      return { ...flat, properties: flat.properties.map((p: Property) => ({ ...p, schema: view(p.schema) })) };
    }
    case "object":
      return {
        ...schema,
        properties: schema.properties.map((p) => ({ ...p, schema: view(p.schema) })),
        additionalProperties:
          typeof schema.additionalProperties === "boolean" ? schema.additionalProperties : view(schema.additionalProperties),
      };
    case "array":
      return { ...schema, items: view(schema.items) };
    case "union":
      return { ...schema, members: schema.members.map(view) };
    case "json-text":
      return { ...schema, value: view(schema.value) };
    default:
      return schema;
  }
}
