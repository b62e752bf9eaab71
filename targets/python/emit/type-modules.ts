import { pyCommentBlock, pyDocstring, pyString } from "./escape.js";
import { call, dict, flat, type PyExpr, statement, sub } from "./pyfmt.js";
import { pyTypeExpr, pyTypeRefs, type PyType } from "./py-type.js";
import type { Decl, Field } from "./type-scope.js";

/**
 * The model types go into several modules of the `types` package, so that no module is too large for a type
 * checker (pyright gives up on one of GitHub's size: "code is too complex to analyze"). A module holds the
 * declarations whose names share a prefix (a, b... then co, cr... where one letter holds too many), and
 * neighbouring small prefixes share a module; so the split depends only on the names and sizes, and a new
 * type moves few others.
 */

/** The module of the names every other module may use: JsonValue, JsonObject, FileUpload, FileInput. */
export const BASE_MODULE = "_base";
export const BASE_NAMES: readonly string[] = ["FileInput", "FileUpload", "JsonObject", "JsonValue"];

/**
 * The one naming rule between the two packages: the models package (pydantic, what answers are read into) keeps a
 * declaration's name, and the types package (TypedDicts, what the caller writes) names its declaration of the same
 * schema `<Name>Param`, as openai-python names its request TypedDicts; so no name is declared in both packages and an
 * import says which role it means. The base names (JsonValue, FileInput...) are the same helpers in both.
 */
export const paramName = (id: string): string => (BASE_NAMES.includes(id) ? id : `${id}Param`);

/** A type tree with the names of declared types as the types package declares them. */
export function paramType(type: PyType): PyType {
  switch (type.kind) {
    case "ref":
      return { kind: "ref", id: paramName(type.id) };
    case "list":
    case "optional":
      return { ...type, item: paramType(type.item) };
    case "dict":
      return { kind: "dict", value: paramType(type.value) };
    case "union":
      return { kind: "union", members: type.members.map(paramType) };
    case "builtin":
    case "literal":
      return type;
  }
}

/** A declaration as the types package declares it: its name and the names it refers to by paramName. */
export function paramDecl(decl: Decl): Decl {
  if (!decl.typedDict) return { ...decl, name: paramName(decl.name), expr: paramType(decl.expr) };
  const field = (f: Field): Field => ({ ...f, type: paramType(f.type) });
  return { ...decl, name: paramName(decl.name), required: decl.required.map(field), optional: decl.optional.map(field) };
}

/** About this many lines at most per module (one declaration larger than that gets a module of its own). */
export const MODULE_LINES = 1500;
/** The longest prefix a module's file name shows. */
const MODULE_PREFIX = 16;

export interface Sized {
  readonly name: string;
  readonly lines: number;
}

const keyOf = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * Splits items into groups of at most `limit` lines by the prefixes of their names (deterministic; the items keep
 * their order inside a group); each group holds the names from prefix `first` to prefix `last`.
 */
export function splitByPrefix<T extends Sized>(
  items: readonly T[],
  limit: number,
): { readonly first: string; readonly last: string; readonly items: T[] }[] {
  const size = (list: readonly T[]) => list.reduce((n, i) => n + i.lines, 0);
  // Each name's key once: thousands of names are looked at again at every depth.
  const keys = new Map(items.map((item) => [item, keyOf(item.name)]));
  const leaves: { prefix: string; items: T[]; lines: number }[] = [];
  const split = (list: readonly T[], depth: number): void => {
    const buckets = new Map<string, T[]>();
    for (const item of list) {
      const prefix = keys.get(item)!.slice(0, depth) || "0";
      const bucket = buckets.get(prefix);
      if (bucket === undefined) buckets.set(prefix, [item]);
      else bucket.push(item);
    }
    for (const prefix of [...buckets.keys()].sort()) {
      const bucket = buckets.get(prefix)!;
      // A bucket whose names are all the prefix itself cannot be split further.
      const further = bucket.some((i) => keys.get(i)!.length > depth);
      const lines = size(bucket);
      if (lines <= limit || !further) leaves.push({ prefix, items: bucket, lines });
      else split(bucket, depth + 1);
    }
  };
  split(items, 1);
  // Neighbouring leaves share a module while they fit.
  const groups: { first: string; last: string; items: T[]; lines: number }[] = [];
  for (const leaf of leaves) {
    const open = groups.at(-1);
    if (open && open.lines + leaf.lines <= limit) {
      open.last = leaf.prefix;
      open.items.push(...leaf.items);
      open.lines += leaf.lines;
    } else groups.push({ first: leaf.prefix, last: leaf.prefix, items: [...leaf.items], lines: leaf.lines });
  }
  const order = new Map(items.map((item, i) => [item, i]));
  return groups.map((g) => ({ first: g.first, last: g.last, items: g.items.sort((a, b) => order.get(a)! - order.get(b)!) }));
}

/** A declaration's size in printed lines, about. */
function linesOf(decl: Decl): number {
  if (!decl.typedDict) return 3 + (decl.comment ? 1 + Math.floor(decl.comment.length / 100) : 0);
  const fields = [...decl.required, ...decl.optional];
  return 8 + decl.doc.split("\n").length + fields.reduce((n, f) => n + 1 + (f.doc === "" ? 0 : 1 + Math.floor(f.doc.length / 100)), 0);
}

/** Annotations are not evaluated (`from __future__ import annotations`): names stand as they are. */
const modern = (type: PyType): PyExpr => pyTypeExpr(type, (id) => id);
/**
 * A value evaluated at import (an alias, a field of the functional form): its names quoted once it names a
 * declared type, which may be imported only at the end of the module.
 */
export const valueExpr = (type: PyType): PyExpr => (pyTypeRefs(type).size > 0 ? pyTypeExpr(type, (id) => id, true) : modern(type));
export const printValue = (type: PyType): string => flat(valueExpr(type));

/** A declaration as Python source, laid out as `ruff format` lays it out. */
function typedDictSource(decl: Decl): string {
  if (!decl.typedDict) {
    const comment = decl.comment ? `${pyCommentBlock(decl.comment, 0)}\n` : "";
    return `${comment}${statement(0, `${decl.name}: _t.TypeAlias = `, valueExpr(decl.expr))}`;
  }
  if (decl.functional) {
    const entries: [string, PyExpr][] = [
      ...decl.required.map((f): [string, PyExpr] => [f.keyLiteral, valueExpr(f.type)]),
      ...decl.optional.map((f): [string, PyExpr] => [f.keyLiteral, sub("NotRequired", [valueExpr(f.type)])]),
    ];
    return statement(0, `${decl.name} = `, call("_t.TypedDict", pyString(decl.name), dict(entries)));
  }
  const fields = [
    ...decl.required.map((f) => ({ f, expr: modern(f.type) })),
    ...decl.optional.map((f) => ({ f, expr: sub("NotRequired", [modern(f.type)]) })),
  ].map(({ f, expr }) => withFieldDoc(statement(4, `${f.key}: `, expr), f));
  return classSource(decl.name, "_t.TypedDict", decl.doc, fields);
}

/**
 * A field's line with its description below it as an attribute docstring, whole: editors show it on hover (over the
 * attribute, and over a TypedDict's key), which they do not for a `#` comment.
 */
export function withFieldDoc(line: string, field: Field): string {
  const doc = pyDocstring(field.doc, 4);
  return doc === "" ? line : `${line}\n${doc}`;
}

/** A class with its docstring and body lines (`pass` when it has neither). */
export function classSource(name: string, base: string, doc: string, fields: readonly string[]): string {
  const parts = [`class ${name}(${base}):`];
  if (doc) parts.push(doc);
  if (doc && fields.length > 0) parts.push("");
  parts.push(...fields);
  if (!doc && fields.length === 0) parts.push("    pass");
  return parts.join("\n");
}

export interface ImportView {
  readonly module: string;
  readonly names: readonly string[];
}

export interface TypesModuleView {
  /** File name below the package, for example `types/_models_co.py`. */
  readonly file: string;
  readonly module: string;
  readonly prefixText: string;
  /** What the module's annotations refer to, by the module declaring it (TYPE_CHECKING imports). */
  readonly imports: readonly ImportView[];
  readonly decls: readonly object[];
  readonly usesTyping?: boolean;
  readonly usesNotRequired?: boolean;
  readonly usesModel?: boolean;
  readonly usesAbsent?: boolean;
  readonly usesField?: boolean;
  readonly usesAliasType?: boolean;
}

/** A declaration with its annotations printed. */
function printedDecl(decl: Decl): object {
  return { source: typedDictSource(decl) };
}

function refsOf(decl: Decl): Set<string> {
  const refs = new Set<string>();
  if (!decl.typedDict) return pyTypeRefs(decl.expr, refs);
  for (const f of [...decl.required, ...decl.optional]) pyTypeRefs(f.type, refs);
  return refs;
}

/** The modules of the types package, each with the imports its declarations' references need. */
export function typesModules(
  decls: readonly Decl[],
  limit = MODULE_LINES,
  folder = "types",
  printDecl: (decl: Decl) => object = printedDecl,
): { modules: TypesModuleView[]; home: Map<string, string> } {
  const groups = splitByPrefix(
    decls.map((decl) => ({ name: decl.name, lines: linesOf(decl), decl })),
    limit,
  );
  const home = new Map<string, string>(BASE_NAMES.map((n) => [n, BASE_MODULE]));
  // File names stay short: the first prefix, cut; the docstring names the whole range.
  const used = new Set<string>();
  const named = groups.map((g) => {
    const base = `_models_${g.first.slice(0, MODULE_PREFIX)}`;
    let module = base;
    for (let n = 2; used.has(module); n++) module = `${base}_${n}`;
    used.add(module);
    return { ...g, module };
  });
  for (const g of named) for (const item of g.items) home.set(item.name, g.module);
  // An alias's value is evaluated where it is declared, but its quoted names are resolved (typing.get_type_hints)
  // in the module of the class whose field uses the alias: that module needs them too, through any chain of aliases.
  const aliasRefs = new Map(decls.filter((d) => !d.typedDict).map((d) => [d.name, refsOf(d)]));
  const modules = named.map((g): TypesModuleView => {
    const direct = new Set(g.items.flatMap((item) => [...refsOf(item.decl)]));
    const all = new Set(direct);
    for (const ref of all) for (const further of aliasRefs.get(ref) ?? []) all.add(further);
    const needed = new Map<string, string[]>();
    for (const ref of [...all].sort()) {
      const module = home.get(ref);
      if (module === undefined) throw new Error(`python types: ${ref} is referred to but never declared`);
      // A name the module's own text does not use is imported in the re-export form, which no checker calls unused.
      if (module === g.module) continue;
      const name = direct.has(ref) ? ref : `${ref} as ${ref}`;
      const list = needed.get(module);
      if (list === undefined) needed.set(module, [name]);
      else list.push(name);
    }
    return {
      file: `${folder}/${g.module}.py`,
      module: g.module,
      prefixText: g.first === g.last ? g.first : `${g.first} to ${g.last}`,
      imports: [...needed.keys()].sort().map((module) => ({ module, names: needed.get(module)! })),
      decls: g.items.map((item) => printDecl(item.decl)),
    };
  });
  return { modules: modules.map(withUses), home };
}

/** What a module's declarations use, so that it imports nothing more. */
function withUses(m: TypesModuleView): TypesModuleView {
  const text = m.decls.map((d) => (d as { source?: string }).source ?? "").join("\n");
  return {
    ...m,
    usesTyping: text.includes("_t."),
    usesNotRequired: text.includes("NotRequired["),
    usesModel: text.includes("(BaseModel):"),
    // `x: T = ABSENT` and `Field(default=ABSENT, ...)`, not a model named ABSENT2 or an alias "ABSENT".
    usesAbsent: /=\s*ABSENT\b/.test(text),
    usesField: /= Field\(/.test(text),
    usesAliasType: text.includes("TypeAliasType("),
  };
}

/** The `types/__init__.py` re-exports: every public name by its module (private `_X` helpers stay in theirs). */
export function reexports(home: ReadonlyMap<string, string>): ImportView[] {
  const byModule = new Map<string, string[]>();
  for (const [name, module] of home) {
    if (name.startsWith("_")) continue;
    const list = byModule.get(module);
    if (list === undefined) byModule.set(module, [name]);
    else list.push(name);
  }
  return [...byModule.keys()].sort().map((module) => ({ module, names: byModule.get(module)!.sort() }));
}
