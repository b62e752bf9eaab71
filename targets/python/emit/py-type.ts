import { type PyLiteralValue, pyLiteralParts, pyLiteralText, pyString } from "./escape.js";
import { flat, type PyExpr, sub, union } from "./pyfmt.js";

/**
 * A Python type annotation as a tree, so that unions are flattened and deduplicated by structure, empty ones become
 * `NoReturn`, and the declared names an annotation uses are known without reading printed text.
 */
export type PyType =
  /** A builtin type or `None` (each one a model field may not be named after: see names.ts). */
  | { readonly kind: "builtin"; readonly name: "str" | "int" | "float" | "bool" | "None" }
  /** A name the generated package declares (a model type, `JsonValue`, `FileInput`...): how it is written depends on the module. */
  | { readonly kind: "ref"; readonly id: string }
  | { readonly kind: "literal"; readonly values: readonly PyLiteralValue[] }
  | { readonly kind: "list"; readonly item: PyType }
  /** `dict[str, V]`: JSON objects have string keys. */
  | { readonly kind: "dict"; readonly value: PyType }
  | { readonly kind: "union"; readonly members: readonly PyType[] }
  | { readonly kind: "optional"; readonly item: PyType };

export const pyBuiltin = (name: Extract<PyType, { kind: "builtin" }>["name"]): PyType => ({ kind: "builtin", name });
export const pyRef = (id: string): PyType => ({ kind: "ref", id });
export const pyList = (item: PyType): PyType => ({ kind: "list", item });
export const pyDict = (value: PyType): PyType => ({ kind: "dict", value });
export const pyUnion = (members: readonly PyType[]): PyType => ({ kind: "union", members });
export const pyOptional = (item: PyType): PyType => ({ kind: "optional", item });

/** The type of a set of `enum`/`const` values: `Literal[...]` of those Python accepts there, wider types for the rest. */
export function pyLiteral(values: readonly unknown[]): PyType {
  const { literals, wider } = pyLiteralParts(values);
  const wide = wider.map((kind) =>
    kind === "float" ? pyBuiltin("float") : kind === "list" ? pyList(pyRef("JsonValue")) : pyDict(pyRef("JsonValue")),
  );
  return pyUnion([...(literals.length > 0 ? [{ kind: "literal", values: literals } as const] : []), ...wide]);
}

/** How a module writes a reference to a declared name: quoted in the types modules, `_ty.X` in the clients. */
export type RefStyle = (id: string) => string;

/** A union member: its printed form, the member, and its expression in the modern form. */
type Member = readonly [text: string, leaf: PyType, expr: PyExpr];

/** The members of a union with nested unions spread, each once (by printed form), in first-seen order. */
function unionMembers(node: PyType, ref: RefStyle): Member[] {
  if (node.kind !== "union") {
    const expr = pyTypeExpr(node, ref);
    return [[flat(expr), node, expr]];
  }
  const seen = new Map<string, Member>();
  for (const m of node.members) for (const member of unionMembers(m, ref)) if (!seen.has(member[0])) seen.set(member[0], member);
  return [...seen.values()];
}

/**
 * The `Literal[...]` of each literal node printed so far: a large description's enums have hundreds of values, and
 * an annotation is printed more than once (to compare union members, then to lay out).
 */
const literalExprs = new WeakMap<PyType, PyExpr>();

function literalExpr(node: Extract<PyType, { kind: "literal" }>): PyExpr {
  let expr = literalExprs.get(node);
  if (expr === undefined) {
    expr = node.values.length === 0 ? "_t.NoReturn" : sub("_t.Literal", node.values.map(pyLiteralText));
    literalExprs.set(node, expr);
  }
  return expr;
}

/**
 * An annotation as an expression to lay out. Modern form: `X | None`, names as `ref` writes them. Quoted form, for
 * values evaluated at import before the names they use exist: names quoted, unions as `_t.Union[...]`.
 */
export function pyTypeExpr(node: PyType, ref: RefStyle, quoted = false): PyExpr {
  const show = (n: PyType) => pyTypeExpr(n, ref, quoted);
  switch (node.kind) {
    case "builtin":
      return node.name;
    case "ref":
      return quoted ? pyString(ref(node.id)) : ref(node.id);
    case "literal":
      return literalExpr(node);
    case "list":
      return sub("list", [show(node.item)]);
    case "dict":
      return sub("dict", ["str", show(node.value)]);
    case "union":
    case "optional": {
      const leaves = node.kind === "union" ? unionMembers(node, ref) : [...unionMembers(node.item, ref), NONE_MEMBER];
      const seen = new Set<string>();
      const members = leaves.filter(([text]) => !seen.has(text) && seen.add(text) !== undefined);
      // None last, as `X | None` reads.
      const ordered = [...members.filter(([t]) => t !== "None"), ...members.filter(([t]) => t === "None")];
      if (ordered.length === 0) return node.kind === "optional" ? "None" : "_t.NoReturn";
      // The modern form of a member was made to compare it; the quoted form is another.
      const exprs = ordered.map(([, leaf, expr]) => (quoted ? show(leaf) : expr));
      if (exprs.length === 1) return exprs[0]!;
      return quoted ? sub("_t.Union", exprs) : union(exprs);
    }
  }
}

const NONE_MEMBER: Member = ["None", pyBuiltin("None"), "None"];

/** Prints an annotation on one line. A union of nothing is `_t.NoReturn` (no value fits); of one member, that member. */
export function printPyType(node: PyType, ref: RefStyle): string {
  return flat(pyTypeExpr(node, ref));
}

/** Every declared name an annotation refers to. */
export function pyTypeRefs(node: PyType, into: Set<string> = new Set()): Set<string> {
  switch (node.kind) {
    case "ref":
      into.add(node.id);
      break;
    case "list":
    case "optional":
      pyTypeRefs(node.item, into);
      break;
    case "dict":
      pyTypeRefs(node.value, into);
      break;
    case "union":
      for (const m of node.members) pyTypeRefs(m, into);
      break;
    case "builtin":
    case "literal":
      break;
  }
  return into;
}

/** Whether an annotation is exactly one declared name (`JsonValue` for instance), once unions are spread and deduplicated. */
export const isPyRef = (node: PyType, id: string): boolean => {
  if (node.kind === "ref") return node.id === id;
  if (node.kind !== "union") return false;
  const members = unionMembers(node, (ref) => `<${ref}>`);
  return members.length === 1 && isPyRef(members[0]![1], id);
};
