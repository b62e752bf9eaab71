/** Compares two schemas through the IR: fields, required-ness, types, enums, ranges, defaults, unions. */
import type { JsonValue, Schema } from "../ir/types.js";
import { join } from "../spec/pointer.js";
import { type Flat, flattenAt, schemaPointer } from "../ir/flatten.js";
import { type Change, type NamedMap, SCHEMA_RULES, SCOPES, type SchemaRule, type Scope, severityOf } from "./model.js";

export interface SchemaWalk {
  readonly scope: Scope;
  readonly old: NamedMap;
  readonly new: NamedMap;
  readonly out: Change[];
  /** Where the schema is used, for messages: "addJob 200 application/json". */
  readonly label: string;
  /** A top-level property whose schema another rule compares (an error body's `code`, a discriminator). */
  readonly skip?: ReadonlySet<string>;
  /** Union members (named schemas) another rule compares: the request schemas of variants. */
  readonly skipRefs?: ReadonlySet<string>;
}

interface Resolved {
  readonly schema: Schema;
  readonly pointer: string;
  readonly names: readonly string[];
  readonly default?: JsonValue;
  readonly deprecated: boolean;
}

const show = (v: unknown): string => (v === undefined ? "none" : JSON.stringify(v));
const LOWER = ["minimum", "exclusiveMinimum", "minLength", "minItems"] as const;
const UPPER = ["maximum", "exclusiveMaximum", "maxLength", "maxItems"] as const;

function emit(w: SchemaWalk, rule: SchemaRule, where: "old" | "new", pointer: string, path: string, text: string): void {
  const { direction, side } = SCOPES[w.scope];
  const subject = path === "" ? "" : `\`${path}\` `;
  w.out.push({
    rule: `${w.scope}.${rule}`,
    severity: severityOf(SCHEMA_RULES[rule], direction),
    side,
    pointer,
    in: where,
    message: `${w.label}: ${subject}${text}`,
  });
}

/** Follows references to named schemas, keeping the nearest default and deprecation (a $ref's siblings win). */
function resolve(schema: Schema, pointer: string, named: NamedMap): Resolved {
  let node = schema;
  let at = pointer;
  const names: string[] = [];
  let def: JsonValue | undefined = node.default;
  let deprecated = node.deprecated === true;
  while (node.kind === "ref" && !names.includes(node.name)) {
    const target = named.get(node.name);
    names.push(node.name);
    at = schemaPointer(node.name);
    node = target ?? { kind: "unknown" };
    def ??= node.default;
    deprecated ||= node.deprecated === true;
  }
  return { schema: node, pointer: at, names, ...(def !== undefined && { default: def }), deprecated };
}

export const kindOf = (s: Schema): string =>
  s.kind === "enum" ? `enum ${JSON.stringify(s.values)}` : s.kind === "ref" ? s.name : s.kind === "intersection" ? "object" : s.kind;
const objectish = (s: Schema) => s.kind === "object" || s.kind === "intersection";

/** Compares the schema at `pa` in the old release with the one at `pb` in the new one. */
export function compareSchemas(
  w: SchemaWalk,
  a: Schema,
  b: Schema,
  pa: string,
  pb: string,
  path = "",
  stack: readonly string[] = [],
): void {
  const ra = resolve(a, pa, w.old);
  const rb = resolve(b, pb, w.new);
  const pair = `${ra.names.join(">")}|${rb.names.join(">")}`;
  if ((ra.names.length > 0 || rb.names.length > 0) && stack.includes(pair)) return; // recursion guard
  const inner = [...stack, pair];
  if (SCOPES[w.scope].direction === "request" && JSON.stringify(ra.default) !== JSON.stringify(rb.default)) {
    emit(w, "default.changed", "new", pb, path, `default changed from ${show(ra.default)} to ${show(rb.default)}`);
  }
  if (!ra.deprecated && rb.deprecated) emit(w, "field.deprecated", "new", pb, path, "is now deprecated");
  compareResolved(w, ra.schema, rb.schema, ra.pointer, rb.pointer, path, inner);
}

function compareResolved(w: SchemaWalk, a: Schema, b: Schema, pa: string, pb: string, path: string, stack: readonly string[]): void {
  if (objectish(a) && objectish(b)) {
    compareObjects(w, flattenAt(a, pa, w.old), flattenAt(b, pb, w.new), path, stack);
    return;
  }
  if (a.kind !== b.kind) {
    compareKinds(w, a, b, pa, pb, path);
    return;
  }
  compareRanges(w, a, b, pb, path);
  if (a.kind === "string" && b.kind === "string" && a.pattern !== b.pattern) {
    emit(w, "pattern.changed", "new", pb, path, `pattern changed from ${show(a.pattern)} to ${show(b.pattern)}`);
  }
  if (a.kind === "enum" && b.kind === "enum") {
    const key = (v: unknown) => JSON.stringify(v);
    const before = new Set(a.values.map(key));
    const after = new Set(b.values.map(key));
    const added = b.values.filter((v) => !before.has(key(v)));
    const removed = a.values.filter((v) => !after.has(key(v)));
    if (added.length > 0) emit(w, "enum.value-added", "new", pb, path, `allows ${added.map(show).join(", ")}`);
    if (removed.length > 0) emit(w, "enum.value-removed", "new", pb, path, `no longer allows ${removed.map(show).join(", ")}`);
  }
  if (a.kind === "array" && b.kind === "array")
    compareSchemas(w, a.items, b.items, join(pa, "items"), join(pb, "items"), `${path}[]`, stack);
  if (a.kind === "json-text" && b.kind === "json-text")
    compareSchemas(w, a.value, b.value, join(pa, "contentSchema"), join(pb, "contentSchema"), path, stack);
  if (a.kind === "union" && b.kind === "union") compareUnions(w, a, b, pa, pb, path, stack);
}

function compareKinds(w: SchemaWalk, a: Schema, b: Schema, pa: string, pb: string, path: string): void {
  const change = `type changed from ${kindOf(a)} to ${kindOf(b)}`;
  if (b.kind === "json-text" || a.kind === "json-text") {
    const text = b.kind === "json-text" ? `is now sent as JSON text (was ${kindOf(a)})` : `is no longer JSON text (now ${kindOf(b)})`;
    emit(w, b.kind === "json-text" ? "json-text.added" : "json-text.removed", "new", pb, path, text);
    return;
  }
  const widened =
    b.kind === "unknown" ||
    (a.kind === "integer" && b.kind === "number") ||
    (a.kind === "enum" && b.kind === "string" && a.values.every((v) => typeof v === "string")) ||
    (b.kind === "union" && b.members.some((m) => resolve(m, pb, w.new).schema.kind === a.kind));
  const narrowed =
    a.kind === "unknown" ||
    (a.kind === "number" && b.kind === "integer") ||
    (a.kind === "string" && b.kind === "enum" && b.values.every((v) => typeof v === "string")) ||
    (a.kind === "union" && a.members.some((m) => resolve(m, pa, w.old).schema.kind === b.kind));
  if (widened) emit(w, "type.widened", "new", pb, path, change);
  else if (narrowed) emit(w, "type.narrowed", "new", pb, path, change);
  else emit(w, "type.changed", "new", pb, path, change);
}

function compareRanges(w: SchemaWalk, a: Schema, b: Schema, pb: string, path: string): void {
  const read = (s: Schema, key: string) => (s as unknown as Record<string, unknown>)[key] as number | undefined;
  for (const [keys, tighter] of [
    [LOWER, (x: number, y: number) => y > x],
    [UPPER, (x: number, y: number) => y < x],
  ] as const) {
    for (const key of keys) {
      const [x, y] = [read(a, key), read(b, key)];
      if (x === y) continue;
      const narrowed = y !== undefined && (x === undefined || tighter(x, y));
      emit(w, narrowed ? "range.narrowed" : "range.widened", "new", pb, path, `${key} changed from ${show(x)} to ${show(y)}`);
    }
  }
}

function compareObjects(w: SchemaWalk, fa: Flat, fb: Flat, path: string, stack: readonly string[]): void {
  const sub = (name: string) => (path === "" ? name : `${path}.${name}`);
  for (const [name, p] of fa.properties) if (!fb.properties.has(name)) emit(w, "field.removed", "old", p.pointer, sub(name), "was removed");
  for (const [name, q] of fb.properties) {
    const p = fa.properties.get(name);
    if (!p) {
      const required = q.required && SCOPES[w.scope].direction === "request";
      emit(
        w,
        required ? "field.required-added" : "field.added",
        "new",
        q.pointer,
        sub(name),
        `was added${q.required ? " (required)" : ""}`,
      );
      continue;
    }
    if (!p.required && q.required) emit(w, "field.required-now", "new", q.pointer, sub(name), "is now required");
    if (p.required && !q.required) emit(w, "field.optional-now", "new", q.pointer, sub(name), "is now optional");
    if (path === "" && w.skip?.has(name)) continue;
    compareSchemas(w, p.schema, q.schema, p.pointer, q.pointer, sub(name), stack);
  }
  if (fa.open === false && fb.open !== false) emit(w, "object.opened", "new", fb.openPointer, path, "now allows further properties");
  if (fa.open !== false && fb.open === false) emit(w, "object.closed", "new", fb.openPointer, path, "no longer allows further properties");
  if (typeof fa.open === "object" && typeof fb.open === "object") {
    compareSchemas(w, fa.open, fb.open, fa.openPointer, fb.openPointer, `${path}{}`, stack);
  }
  compareGroups(w, fa, fb, path);
}

/** "Exactly one of" groups: a new group or a group with fewer alternatives narrows what may be sent. */
function compareGroups(w: SchemaWalk, fa: Flat, fb: Flat, path: string): void {
  const text = (g: readonly string[]) => `[${g.join(", ")}]`;
  const matched = new Set<readonly string[]>();
  for (const g of fa.exactlyOne) {
    const h = fb.exactlyOne.find((x) => x.some((m) => g.includes(m)));
    if (!h) {
      emit(w, "exactly-one.removed", "old", fa.exactlyOnePointer, path, `exactly one of ${text(g)} is no longer required`);
      continue;
    }
    matched.add(h);
    if (h.length === g.length && h.every((m) => g.includes(m))) continue;
    const wider = g.every((m) => h.includes(m));
    emit(
      w,
      wider ? "exactly-one.widened" : "exactly-one.narrowed",
      "new",
      fb.exactlyOnePointer,
      path,
      `exactly one of ${text(g)} is now exactly one of ${text(h)}`,
    );
  }
  for (const h of fb.exactlyOne) {
    if (!matched.has(h)) emit(w, "exactly-one.added", "new", fb.exactlyOnePointer, path, `now requires exactly one of ${text(h)}`);
  }
}

function compareUnions(
  w: SchemaWalk,
  a: Extract<Schema, { kind: "union" }>,
  b: Extract<Schema, { kind: "union" }>,
  pa: string,
  pb: string,
  path: string,
  stack: readonly string[],
): void {
  const keys = (members: readonly Schema[]) => {
    const seen = new Map<string, number>();
    return members.map((m) => {
      const base = m.kind === "ref" ? `ref:${m.name}` : objectish(m) ? "object" : m.kind;
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      return n === 0 ? base : `${base}#${n}`;
    });
  };
  const [ka, kb] = [keys(a.members), keys(b.members)];
  const skipped = (k: string) => k.startsWith("ref:") && (w.skipRefs?.has(k.slice(4)) ?? false);
  const shown = (m: Schema) => (m.kind === "ref" ? m.name : kindOf(m));
  ka.forEach((k, i) => {
    if (skipped(k)) return;
    const j = kb.indexOf(k);
    const at = join(pa, a.mode, i);
    if (j < 0) emit(w, "union.member-removed", "old", at, path, `no longer accepts ${shown(a.members[i]!)}`);
    else compareSchemas(w, a.members[i]!, b.members[j]!, at, join(pb, b.mode, j), path, stack);
  });
  kb.forEach((k, j) => {
    if (!skipped(k) && !ka.includes(k))
      emit(w, "union.member-added", "new", join(pb, b.mode, j), path, `now also accepts ${shown(b.members[j]!)}`);
  });
}
