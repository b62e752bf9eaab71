/** Compares two schemas through the IR: fields, required-ness, types, enums, ranges, defaults, unions. */
import type { JsonValue, Schema } from "../ir/types.js";
import { join } from "../spec/pointer.js";
import { type Flat, flattenAt, schemaPointer } from "../ir/flatten.js";
import { fingerprints } from "./fingerprint.js";
import {
  type Change,
  type JudgedRule,
  type Judgement,
  judgedSeverity,
  type NamedMap,
  SCHEMA_RULES,
  SCOPES,
  type SchemaRule,
  type Scope,
  severityOf,
} from "./model.js";
import { judgePatterns } from "./pattern.js";

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

function emit(
  w: SchemaWalk,
  rule: SchemaRule | JudgedRule,
  where: "old" | "new",
  pointer: string,
  path: string,
  text: string,
  judgement?: Judgement,
): void {
  const { direction, side } = SCOPES[w.scope];
  const subject = path === "" ? "" : `\`${path}\` `;
  const severity = judgement ? judgedSeverity(judgement, direction) : severityOf(SCHEMA_RULES[rule as SchemaRule], direction);
  if (judgement && severity !== "breaking") text += NOTES[direction][severity];
  w.out.push({
    rule: `${w.scope}.${rule}`,
    severity,
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
  if (ra.names.length === 0 || rb.names.length === 0) {
    compareResolved(w, ra.schema, rb.schema, ra.pointer, rb.pointer, path, inner);
    return;
  }
  // Two named schemas compare the same from every place that uses them, and their changes are located in
  // components/schemas: the first comparison is kept and repeated (merged later into "and N more places").
  const memo = memos.get(w.out) ?? new Map<string, readonly Change[]>();
  memos.set(w.out, memo);
  const skip = path === "" ? [...(w.skip ?? [])].join(",") : "";
  const key = `${w.scope}|${skip}|${[...(w.skipRefs ?? [])].join(",")}|${ra.names.at(-1)}|${rb.names.at(-1)}`;
  const known = memo.get(key);
  if (known) {
    w.out.push(...known);
    return;
  }
  const start = w.out.length;
  compareResolved(w, ra.schema, rb.schema, ra.pointer, rb.pointer, path, inner);
  memo.set(key, w.out.slice(start));
}

/** Per diff (its list of changes): the changes found between two named schemas, by scope and what was skipped. */
const memos = new WeakMap<Change[], Map<string, readonly Change[]>>();

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
    const judgement = judgePatterns(a.pattern, b.pattern, { old: a, new: b });
    const rule = judgement.narrows === "no" ? "pattern.widened" : judgement.widens === "no" ? "pattern.narrowed" : "pattern.changed";
    const text = `pattern changed from ${show(a.pattern)} to ${show(b.pattern)}`;
    emit(w, rule, "new", pb, path, text, judgement);
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

/**
 * "Exactly one of" groups, judged on which combinations of their properties each side accepts (required fields
 * count, a property the old schema did not have was never sent): a group added where the old schema already
 * required one of its properties and had none of the others narrows nothing.
 */
function compareGroups(w: SchemaWalk, fa: Flat, fb: Flat, path: string): void {
  const text = (g: readonly string[]) => `[${g.join(", ")}]`;
  const same = (g: readonly string[], h: readonly string[]) => g.length === h.length && g.every((m) => h.includes(m));
  const removed = fa.exactlyOne.filter((g) => !fb.exactlyOne.some((h) => same(g, h)));
  const added = fb.exactlyOne.filter((h) => !fa.exactlyOne.some((g) => same(g, h)));
  if (removed.length === 0 && added.length === 0) return;
  const judgement = judgeGroups(fa, fb);
  const matched = new Set<readonly string[]>();
  for (const g of removed) {
    const h = added.find((x) => !matched.has(x) && x.some((m) => g.includes(m)));
    if (!h) {
      emit(w, "exactly-one.removed", "old", fa.exactlyOnePointer, path, `exactly one of ${text(g)} is no longer required`, judgement);
      continue;
    }
    matched.add(h);
    const rule = g.every((m) => h.includes(m))
      ? "exactly-one.widened"
      : h.every((m) => g.includes(m))
        ? "exactly-one.narrowed"
        : "exactly-one.changed";
    emit(w, rule, "new", fb.exactlyOnePointer, path, `exactly one of ${text(g)} is now exactly one of ${text(h)}`, judgement);
  }
  for (const h of added) {
    if (!matched.has(h))
      emit(w, "exactly-one.added", "new", fb.exactlyOnePointer, path, `now requires exactly one of ${text(h)}`, judgement);
  }
}

/** Beyond this many properties in the groups of both sides, combinations are not enumerated. */
const MAX_GROUP_PROPERTIES = 16;

/**
 * Enumerates which of the groups' properties are present: narrows when a combination the old schema accepted
 * breaks a new group, widens when one the new schema accepts broke an old group.
 */
function judgeGroups(fa: Flat, fb: Flat): Judgement {
  const universe = [...new Set([...fa.exactlyOne.flat(), ...fb.exactlyOne.flat()])];
  if (universe.length > MAX_GROUP_PROPERTIES) return { narrows: "unknown", widens: "unknown" };
  const bit = new Map(universe.map((name, i) => [name, 1 << i]));
  const maskOf = (names: Iterable<string>) => [...names].reduce((m, n) => m | (bit.get(n) ?? 0), 0);
  const side = (f: Flat) => ({
    present: maskOf([...f.properties.keys()]),
    required: maskOf([...f.properties.values()].filter((p) => p.required).map((p) => p.name)),
    groups: f.exactlyOne.map((g) => maskOf(g)),
  });
  const [o, n] = [side(fa), side(fb)];
  const ones = (m: number) => {
    let c = 0;
    for (let x = m; x !== 0; x &= x - 1) c++;
    return c;
  };
  const satisfies = (set: number, groups: readonly number[]) => groups.every((g) => ones(set & g) === 1);
  const accepts = (s: typeof o, set: number) => (set & ~s.present) === 0 && (set & s.required) === s.required && satisfies(set, s.groups);
  let narrows = false;
  let widens = false;
  for (let set = 0; set < 1 << universe.length; set++) {
    if (!narrows && accepts(o, set) && !satisfies(set, n.groups)) narrows = true;
    if (!widens && accepts(n, set) && !satisfies(set, o.groups)) widens = true;
  }
  return { narrows: narrows ? "yes" : "no", widens: widens ? "yes" : "no" };
}

/** Why a judged change is not breaking, or may be. */
const NOTES = {
  request: {
    info: " (every value accepted before still is)",
    warning: " (the diff cannot tell whether every value accepted before still is)",
  },
  response: {
    info: " (no value refused before is accepted now)",
    warning: " (the diff cannot tell whether values refused before are accepted now)",
  },
} as const;

/**
 * Union members are paired by content first (equal fingerprints: nothing to compare), then by the named schema
 * they reference, then by likeness (same kind; objects sharing most of their properties). What is left was
 * removed or added, so one member inserted in the middle is reported as one added member.
 */
function compareUnions(
  w: SchemaWalk,
  a: Extract<Schema, { kind: "union" }>,
  b: Extract<Schema, { kind: "union" }>,
  pa: string,
  pb: string,
  path: string,
  stack: readonly string[],
): void {
  const skipped = (m: Schema) => m.kind === "ref" && (w.skipRefs?.has(m.name) ?? false);
  const left = a.members.flatMap((m, i) => (skipped(m) ? [] : [i]));
  const right = b.members.flatMap((m, j) => (skipped(m) ? [] : [j]));
  const pairs = matchMembers(w, a.members, b.members, left, right);
  const shown = (m: Schema) => (m.kind === "ref" ? m.name : kindOf(m));
  const paired = { old: new Set(pairs.map(([i]) => i)), new: new Set(pairs.map(([, j]) => j)) };
  for (const i of left) {
    if (!paired.old.has(i)) emit(w, "union.member-removed", "old", join(pa, a.mode, i), path, `no longer accepts ${shown(a.members[i]!)}`);
  }
  for (const [i, j, same] of pairs) {
    if (!same) compareSchemas(w, a.members[i]!, b.members[j]!, join(pa, a.mode, i), join(pb, b.mode, j), path, stack);
  }
  for (const j of right) {
    if (!paired.new.has(j)) emit(w, "union.member-added", "new", join(pb, b.mode, j), path, `now also accepts ${shown(b.members[j]!)}`);
  }
}

/** Pairs of member indexes (old, new), the third item true when both have the same content. */
function matchMembers(
  w: SchemaWalk,
  a: readonly Schema[],
  b: readonly Schema[],
  left: readonly number[],
  right: readonly number[],
): [number, number, boolean][] {
  const pairs: [number, number, boolean][] = [];
  const freeA = new Set(left);
  const freeB = new Set(right);
  const take = (i: number, j: number, same: boolean) => {
    pairs.push([i, j, same]);
    freeA.delete(i);
    freeB.delete(j);
  };
  const [fa, fb] = [fingerprints(w.old), fingerprints(w.new)];
  const printsB = new Map(right.map((j) => [j, fb.of(b[j]!)]));
  for (const i of left) {
    const print = fa.of(a[i]!);
    const j = [...freeB].find((x) => printsB.get(x) === print);
    if (j !== undefined) take(i, j, true);
  }
  for (const i of [...freeA]) {
    const m = a[i]!;
    if (m.kind !== "ref") continue;
    const j = [...freeB].find((x) => {
      const n = b[x]!;
      return n.kind === "ref" && n.name === m.name;
    });
    if (j !== undefined) take(i, j, false);
  }
  const candidates: { i: number; j: number; score: number }[] = [];
  for (const i of freeA) {
    const ra = resolve(a[i]!, "", w.old).schema;
    for (const j of freeB) {
      const score = likeness(w, ra, resolve(b[j]!, "", w.new).schema);
      if (score > 0) candidates.push({ i, j, score: score - Math.abs(i - j) / 1000 });
    }
  }
  candidates.sort((x, y) => y.score - x.score || x.i - y.i || x.j - y.j);
  for (const { i, j } of candidates) if (freeA.has(i) && freeB.has(j)) take(i, j, false);
  return pairs.sort((x, y) => x[0] - y[0]);
}

/** How alike two members are, 0 for members not to be compared with each other. */
function likeness(w: SchemaWalk, a: Schema, b: Schema): number {
  if (objectish(a) && objectish(b)) {
    const [x, y] = [flattenAt(a, "", w.old).properties, flattenAt(b, "", w.new).properties];
    if (x.size === 0 && y.size === 0) return 1;
    const shared = [...x.keys()].filter((k) => y.has(k)).length;
    const ratio = shared / (x.size + y.size - shared);
    return ratio >= 0.5 ? ratio : 0;
  }
  if (a.kind !== b.kind) return 0;
  if (a.kind === "array" && b.kind === "array")
    return resolve(a.items, "", w.old).schema.kind === resolve(b.items, "", w.new).schema.kind ? 1 : 0.5;
  return 1;
}
