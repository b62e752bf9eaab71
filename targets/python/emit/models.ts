// The pydantic models of the answers: every declaration of the types package once more, as a class over the
// runtime's BaseModel (unknown fields kept) or an alias, in a `models` package split like the types package.
import { pyFieldName } from "./names.js";
import { pyCommentBlock, pyString } from "./escape.js";
import { pyBuiltin, type PyType, pyTypeExpr, pyTypeRefs, pyUnion } from "./py-type.js";
import { call, flat, kw, layout, type PyExpr, statement } from "./pyfmt.js";
import type { Decl, Field } from "./type-scope.js";
import { classSource, typesModules, type TypesModuleView, withFieldDoc } from "./type-modules.js";

/**
 * Answers of a later release may hold values an enum does not list yet: a string enum also takes any string, so
 * that an additive release never breaks parsing.
 */
function widened(type: PyType): PyType {
  switch (type.kind) {
    case "literal":
      return type.values.some((v) => typeof v === "string") ? pyUnion([type, pyBuiltin("str")]) : type;
    case "list":
      return { kind: "list", item: widened(type.item) };
    case "dict":
      return { kind: "dict", value: widened(type.value) };
    case "optional":
      return { kind: "optional", item: widened(type.item) };
    case "union":
      return pyUnion(type.members.map(widened));
    default:
      return type;
  }
}

const modern = (type: PyType): PyExpr => pyTypeExpr(widened(type), (id) => id);

function printedModel(typeNames: ReadonlySet<string>) {
  return (decl: Decl): object => {
    if (!decl.typedDict) {
      const comment = decl.comment ? `${pyCommentBlock(decl.comment, 0)}\n` : "";
      // An alias naming declared types resolves them lazily, in its own module (pydantic follows TypeAliasType).
      const source =
        pyTypeRefs(decl.expr).size > 0
          ? statement(
              0,
              `${decl.name} = `,
              call(
                "TypeAliasType",
                pyString(decl.name),
                pyTypeExpr(widened(decl.expr), (id) => id, true),
              ),
            )
          : statement(0, `${decl.name}: _t.TypeAlias = `, modern(decl.expr));
      return { source: `${comment}${source}`, aliasType: pyTypeRefs(decl.expr).size > 0 };
    }
    const taken = new Set<string>();
    let usesField = false;
    const field = (f: Field, required: boolean): string => {
      const name = pyFieldName(f.key, taken, typeNames);
      taken.add(name);
      const type = required ? modern(f.type) : pyTypeExpr({ kind: "optional", item: widened(f.type) }, (id) => id);
      const alias = name === f.key ? undefined : pyString(f.key);
      if (alias !== undefined) usesField = true;
      // A required field defaults to ABSENT: an answer without it still parses (see the runtime's ABSENT).
      const fallback = required ? "ABSENT" : "None";
      const line =
        alias === undefined
          ? statement(4, `${name}: `, type, ` = ${fallback}`)
          : `    ${name}: ${layout(type, 4, `${name}: `, " = ")} = ${layout(
              call("Field", kw("default", fallback), kw("alias", alias)),
              4,
              `${name}: ${flat(type)} = `,
            )}`;
      return withFieldDoc(line, f);
    };
    const fields = [...decl.required.map((f) => field(f, true)), ...decl.optional.map((f) => field(f, false))];
    return { source: classSource(decl.name, "BaseModel", decl.doc, fields), usesField, model: true };
  };
}

/** The modules of the models package. */
export function modelsModules(decls: readonly Decl[]): { modules: TypesModuleView[]; home: Map<string, string> } {
  const typeNames = new Set(decls.map((d) => d.name));
  const { modules, home } = typesModules(decls, undefined, "models", printedModel(typeNames));
  return {
    modules,
    home,
  };
}
