// Builds the IR's JSON Schema from generator/ir/types.ts, so the schema is never a hand-kept copy of the types.
// ts-json-schema-generator reads the types and their JSDoc tags; the only post-processing is the move from its
// draft-07 output to 2020-12 (`definitions` -> `$defs`, the `$schema` URI), a type list written as an equivalent
// `anyOf` of single types (strict Ajv refuses type lists), and a fixed order of the root's keys.
import { fileURLToPath } from "node:url";
import { createGenerator, type Definition, type Schema } from "ts-json-schema-generator";

export const TYPES_PATH = fileURLToPath(new URL("../../generator/ir/types.ts", import.meta.url));
export const SCHEMA_PATH = fileURLToPath(new URL("../../generator/ir/ir.schema.json", import.meta.url));
const TSCONFIG_PATH = fileURLToPath(new URL("../../tsconfig.json", import.meta.url));

const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";
/** Root keys first, in this order; the rest keep the generator's order. */
const ROOT_ORDER = ["$schema", "$id", "title", "description", "type", "additionalProperties", "required", "properties", "$defs"];

/**
 * Rewrites every `$ref` of the draft-07 `#/definitions/` form into `#/$defs/`, and `type: [a, b]` into
 * `anyOf: [{ type: a }, { type: b }]`, which accepts the same values.
 */
function to2020(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(to2020);
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]): [string, unknown] => {
      if (key === "$ref" && typeof value === "string") return [key, value.replace(/^#\/definitions\//, "#/$defs/")];
      if (key === "type" && Array.isArray(value) && !("anyOf" in node)) return ["anyOf", value.map((type: unknown) => ({ type }))];
      return [key, to2020(value)];
    }),
  );
}

/** The schema of the `IR` type of generator/ir/types.ts, as a 2020-12 JSON Schema object. */
export function buildIrSchema(): Record<string, unknown> {
  return buildTypeSchema(TYPES_PATH, "IR");
}

/** The schema of an exported type of a TypeScript module, as a 2020-12 JSON Schema object (as the IR's is made). */
export function buildTypeSchema(path: string, type: string): Record<string, unknown> {
  const generated: Schema = createGenerator({
    path,
    tsconfig: TSCONFIG_PATH,
    type,
    topRef: false,
    expose: "export",
    jsDoc: "extended",
    additionalProperties: false,
    sortProps: false,
    skipTypeCheck: true,
  }).createSchema(type);
  const { definitions, ...root } = generated;
  const moved = to2020({ ...root, $schema: DRAFT_2020_12, $defs: definitions satisfies Record<string, Definition | boolean> | undefined });
  const schema = moved as Record<string, unknown>;
  const keys = [...ROOT_ORDER.filter((k) => k in schema), ...Object.keys(schema).filter((k) => !ROOT_ORDER.includes(k))];
  return Object.fromEntries(keys.map((k) => [k, schema[k]]));
}
