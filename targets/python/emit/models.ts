// The pydantic models of the answers: every declaration of the types package once more, as a class over the
// runtime's BaseModel (unknown fields kept) or an alias, in a `models` package split like the types package.
import { PY_KEYWORDS, snakeCase } from "./names.js";
import { pyCommentBlock, pyString } from "./escape.js";
import { pyBuiltin, type PyType, pyTypeExpr, pyTypeRefs, pyUnion } from "./py-type.js";
import { call, flat, kw, layout, type PyExpr, statement } from "./pyfmt.js";
import type { Decl, Field } from "./type-scope.js";
import { classSource, typesModules, type TypesModuleView } from "./type-modules.js";

/** Attributes of pydantic's BaseModel a field must not shadow. */
const MODEL_ATTRIBUTES = new Set([
  "construct",
  "copy",
  "dict",
  "from_orm",
  "json",
  "parse_file",
  "parse_obj",
  "parse_raw",
  "schema",
  "schema_json",
  "update_forward_refs",
  "validate",
]);
/** Names the models modules import. */
const MODULE_NAMES = new Set(["ABSENT", "BaseModel", "Field", "NotRequired", "TypeAliasType"]);

const isIdentifier = (name: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !PY_KEYWORDS.has(name);

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

/** The attribute name of a JSON property: itself when Python and pydantic accept it, else a snake_case form. */
function attributeName(key: string, taken: Set<string>, typeNames: ReadonlySet<string>): string {
  const usable = (name: string) =>
    isIdentifier(name) &&
    !name.startsWith("_") &&
    !name.startsWith("model_") &&
    !MODEL_ATTRIBUTES.has(name) &&
    !typeNames.has(name) &&
    !MODULE_NAMES.has(name) &&
    !taken.has(name);
  if (usable(key)) return key;
  let base = snakeCase(key.replace(/[^A-Za-z0-9]+/g, "_"))
    .replace(/^_+/, "")
    .replace(/_+$/, "");
  if (base === "") base = "field";
  if (/^[0-9]/.test(base)) base = `field_${base}`;
  if (base.startsWith("model_")) base = `field_${base}`;
  let name = base;
  for (let n = 1; !usable(name); n++) name = n === 1 ? `${base}_` : `${base}_${n}`;
  return name;
}

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
      const name = attributeName(f.key, taken, typeNames);
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
      return `${f.comment ? `${pyCommentBlock(f.comment, 4)}\n` : ""}${line}`;
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
