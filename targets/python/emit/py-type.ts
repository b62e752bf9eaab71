import { type PyLiteralValue, pyLiteralParts, pyLiteralText } from "./escape.js";

/**
 * A Python type annotation as a tree, so that unions are flattened and deduplicated by structure, empty ones become
 * `NoReturn`, and the declared names an annotation uses are known without reading printed text.
 */
export type PyType =
  /** A builtin type or `None`. */
  | { readonly kind: "builtin"; readonly name: "str" | "int" | "float" | "bool" | "bytes" | "object" | "None" }
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

/** The members of a union with nested unions spread, each once (by printed form), in first-seen order. */
function unionMembers(node: PyType, ref: RefStyle): [string, PyType][] {
  if (node.kind !== "union") return [[printPyType(node, ref), node]];
  const seen = new Map<string, PyType>();
  for (const m of node.members) for (const [text, leaf] of unionMembers(m, ref)) if (!seen.has(text)) seen.set(text, leaf);
  return [...seen];
}

/** Prints an annotation. A union of nothing is `_t.NoReturn` (no value fits); of one member, that member. */
export function printPyType(node: PyType, ref: RefStyle): string {
  switch (node.kind) {
    case "builtin":
      return node.name;
    case "ref":
      return ref(node.id);
    case "literal":
      return node.values.length === 0 ? "_t.NoReturn" : `_t.Literal[${node.values.map(pyLiteralText).join(", ")}]`;
    case "list":
      return `list[${printPyType(node.item, ref)}]`;
    case "dict":
      return `dict[str, ${printPyType(node.value, ref)}]`;
    case "union": {
      const members = unionMembers(node, ref).map(([text]) => text);
      if (members.length === 0) return "_t.NoReturn";
      return members.length === 1 ? members[0]! : `_t.Union[${members.join(", ")}]`;
    }
    case "optional": {
      const inner = printPyType(node.item, ref);
      return inner === "None" ? inner : `_t.Optional[${inner}]`;
    }
  }
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
