// What the targets share about paged reads (x-paperoffice-pagination): the schema of a page's items.
import type { IR, Schema } from "../ir/types.js";

/**
 * The schema of the items of a paged answer's items field (or of the answer itself when `field` is undefined: an
 * answer that is the array, as a Link header read's may be), through references and allOf, when it is one a pager
 * can validate each item into without declaring a type of its own: a named schema or a scalar. Else undefined (the
 * items are handed over as decoded JSON).
 */
export function itemSchemaOf(ir: IR, schema: Schema, field: string | undefined, seen: ReadonlySet<string> = new Set()): Schema | undefined {
  if (schema.kind === "ref") {
    if (seen.has(schema.name)) return undefined;
    const named = ir.schemas.find((s) => s.name === schema.name)?.schema;
    return named === undefined ? undefined : itemSchemaOf(ir, named, field, new Set([...seen, schema.name]));
  }
  if (schema.kind === "intersection") {
    for (const m of schema.members) {
      const found = itemSchemaOf(ir, m, field, seen);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const property =
    field === undefined ? schema : schema.kind === "object" ? schema.properties.find((p) => p.name === field)?.schema : undefined;
  if (property?.kind !== "array") return undefined;
  const items = property.items;
  return ["ref", "string", "number", "integer", "boolean"].includes(items.kind) ? items : undefined;
}
