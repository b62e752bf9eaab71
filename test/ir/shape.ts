// The shape fingerprint of the IR: generator/ir/types.ts without comments and whitespace, and the generated
// generator/ir/ir.schema.json without annotations (it carries the JSDoc schema tags the first drops), each hashed.
// See docs/ir.md, "Versioning".
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

export const TYPES_FILE = new URL("../../generator/ir/types.ts", import.meta.url);
export const SCHEMA_FILE = new URL("../../generator/ir/ir.schema.json", import.meta.url);
export const LOCK_FILE = new URL("./ir-shape.lock.json", import.meta.url);

export interface ShapeEntry {
  irVersion: string;
  types: string;
  schema: string;
}

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

/** types.ts with comments and whitespace removed: editing documentation does not change the shape. */
export function typesShape(source: string): string {
  return sha256(
    source
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/(^|[^:"])\/\/.*$/gm, "$1")
      .replace(/\s+/g, ""),
  );
}

const ANNOTATIONS = new Set(["description", "title", "$comment", "examples"]);
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Drops annotation keywords of schema nodes (not property names) and sorts keys. */
function canonical(node: Json, isSchema: boolean): Json {
  if (Array.isArray(node)) return node.map((n) => canonical(n, isSchema));
  if (node === null || typeof node !== "object") return node;
  const out: { [key: string]: Json } = {};
  for (const key of Object.keys(node).sort()) {
    if (isSchema && ANNOTATIONS.has(key)) continue;
    const value = node[key]!;
    if (isSchema && (key === "properties" || key === "$defs") && value !== null && typeof value === "object" && !Array.isArray(value)) {
      out[key] = Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((k) => [k, canonical(value[k]!, true)]),
      );
    } else {
      out[key] = canonical(value, isSchema && key !== "const" && key !== "enum" && key !== "required");
    }
  }
  return out;
}

export function schemaShape(text: string): string {
  return sha256(JSON.stringify(canonical(JSON.parse(text) as Json, true)));
}

export function currentShape(irVersion: string): ShapeEntry {
  return {
    irVersion,
    types: typesShape(readFileSync(TYPES_FILE, "utf8")),
    schema: schemaShape(readFileSync(SCHEMA_FILE, "utf8")),
  };
}
