/**
 * Structural fingerprints of IR schemas, so that union members are matched by what they accept rather than by
 * their `$ref` name or their position: an inline member moved to a named schema keeps its fingerprint.
 * References are followed; texts (description, examples) are left out, defaults and deprecation are kept because
 * the schema comparison reports them.
 */
import { createHash } from "node:crypto";
import { flattenAt } from "../ir/flatten.js";
import type { Schema } from "../ir/types.js";
import type { NamedMap } from "./model.js";

/** One cache per release: fingerprints of named schemas are computed once however many unions use them. */
const caches = new WeakMap<NamedMap, Fingerprints>();

export function fingerprints(named: NamedMap): Fingerprints {
  let cache = caches.get(named);
  if (!cache) {
    cache = new Fingerprints(named);
    caches.set(named, cache);
  }
  return cache;
}

const digest = (parts: unknown): string => createHash("sha1").update(JSON.stringify(parts)).digest("base64");

export class Fingerprints {
  private readonly byName = new Map<string, string>();
  private readonly byNode = new WeakMap<Schema, string>();
  /** Named schemas being fingerprinted: a reference back to one of them is a cycle, written by name. */
  private readonly active = new Set<string>();

  constructor(private readonly named: NamedMap) {}

  of(schema: Schema): string {
    const known = this.byNode.get(schema);
    if (known !== undefined) return known;
    const meta = [schema.default ?? null, schema.deprecated === true];
    const plain = schema.default === undefined && schema.deprecated !== true;
    let print: string;
    if (schema.kind === "ref") print = plain ? this.named_(schema.name) : digest(["ref", meta, this.named_(schema.name)]);
    else print = digest([schema.kind === "intersection" ? "object" : schema.kind, meta, this.body(schema)]);
    this.byNode.set(schema, print);
    return print;
  }

  private named_(name: string): string {
    const known = this.byName.get(name);
    if (known !== undefined) return known;
    if (this.active.has(name)) return `cycle:${name}`;
    this.active.add(name);
    const print = this.of(this.named.get(name) ?? { kind: "unknown" });
    this.active.delete(name);
    this.byName.set(name, print);
    return print;
  }

  private body(s: Schema): unknown {
    switch (s.kind) {
      case "object":
      case "intersection": {
        const flat = flattenAt(s, "", this.named);
        const props = [...flat.properties.values()]
          .map((p) => [p.name, p.required, this.of(p.schema)] as const)
          .sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
        const open = typeof flat.open === "boolean" ? flat.open : this.of(flat.open);
        const groups = flat.exactlyOne.map((g) => [...g].sort().join("\u0000")).sort();
        return ["object", props, open, groups];
      }
      case "union":
        return [s.mode, s.members.map((m) => this.of(m)).sort(), s.discriminator?.property ?? null];
      case "array":
        return [this.of(s.items), s.minItems ?? null, s.maxItems ?? null];
      case "json-text":
        return this.of(s.value);
      case "enum":
        return s.values.map((v) => JSON.stringify(v)).sort();
      case "string":
        return [s.format ?? null, s.pattern ?? null, s.minLength ?? null, s.maxLength ?? null];
      case "number":
      case "integer":
        return [s.minimum ?? null, s.maximum ?? null, s.exclusiveMinimum ?? null, s.exclusiveMaximum ?? null];
      case "file":
        return s.mediaType ?? null;
      default:
        return null;
    }
  }
}
