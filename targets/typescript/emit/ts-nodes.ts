// Generated TypeScript as syntax trees: built with the TypeScript factory, printed by its printer, and laid out in
// lines of at most MAX_LINE columns. Names and text reach a tree only as identifiers the planner made, literals
// (which the printer escapes) and comment lines that went through the TSDoc escaper.
import type * as TS from "typescript";
import type { Schema } from "../../../generator/ir/types.js";
import { ts } from "./typescript.js";
import { docLinesOf, type TypeScope } from "./ts-type.js";

const f = ts.factory;

/** The longest line of generated TypeScript, apart from a comment word or literal longer than that alone. */
export const MAX_LINE = 120;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed, removeComments: false });
const empty = ts.createSourceFile("generated.ts", "", ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);

/**
 * A node printed as TypeScript, indented by 2 spaces a level (the printer indents by 4; every string it prints is
 * on one line, so only indentation starts a line with spaces).
 */
export function printNode(node: TS.Node, hint: TS.EmitHint = ts.EmitHint.Unspecified): string {
  const printed = printer.printNode(hint, node, empty);
  // Most nodes print on one line, which no indentation starts: the text as it is.
  if (!printed.includes("\n") && printed.trimStart().length === printed.length) return printed;
  return printed
    .split("\n")
    .map((line) => {
      const spaces = line.length - line.trimStart().length;
      return `${" ".repeat(Math.floor(spaces / 4) * 2 + (spaces % 4))}${line.trimStart()}`;
    })
    .join("\n");
}

/** A property name: an identifier as it is, anything else a string literal. */
export function propertyName(name: string): TS.PropertyName {
  return IDENTIFIER.test(name) ? f.createIdentifier(name) : f.createStringLiteral(name);
}

/**
 * A JSON value as an expression: objects on several lines, arrays of scalars on one; a key `__proto__` computed, so
 * that it stays a key and does not set the prototype.
 */
export function jsonExpression(value: unknown): TS.Expression {
  if (value === null || value === undefined) return f.createNull();
  if (typeof value === "boolean") return value ? f.createTrue() : f.createFalse();
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return f.createNull();
    const literal = f.createNumericLiteral(Math.abs(value));
    return value < 0 || Object.is(value, -0) ? f.createPrefixUnaryExpression(ts.SyntaxKind.MinusToken, literal) : literal;
  }
  if (typeof value === "string") return f.createStringLiteral(value);
  if (Array.isArray(value)) {
    const items = value.map(jsonExpression);
    const flat = f.createArrayLiteralExpression(items, false);
    // An array of objects, or one that would not fit on a line with what stands before it, takes a line per item.
    const long = value.some((v) => typeof v === "object" && v !== null && !Array.isArray(v)) || printNode(flat).length > MAX_LINE / 2;
    return long ? f.createArrayLiteralExpression(items, true) : flat;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  const properties = entries.map(([k, v]) =>
    f.createPropertyAssignment(
      k === "__proto__" ? f.createComputedPropertyName(f.createStringLiteral(k)) : propertyName(k),
      jsonExpression(v),
    ),
  );
  // A small object of scalars stays on one line (`{ status: 400 }`); any other takes a line per property.
  const flat = f.createObjectLiteralExpression(properties, false);
  const small = entries.every(([, v]) => typeof v !== "object" || v === null) && printNode(flat).length <= MAX_LINE / 2;
  return small ? flat : f.createObjectLiteralExpression(properties, true);
}

/**
 * Lines of a doc comment cut at spaces to fit `width` columns; a line inside a fenced code block stays whole, and no
 * cut starts a line that Markdown would read as a list item, heading or quote.
 */
export function wrapDoc(lines: readonly string[], width: number): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of lines) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced || line.length <= width || line.startsWith("@")) {
      out.push(line);
      continue;
    }
    let rest = line;
    while (rest.length > width) {
      let cut = -1;
      for (let i = Math.min(width, rest.length - 1); i > 0; i--) {
        if (rest[i] === " " && !/^([-+*#>]|\d+[.)])(\s|$)/.test(rest.slice(i + 1))) {
          cut = i;
          break;
        }
      }
      if (cut <= 0) break;
      out.push(rest.slice(0, cut).trimEnd());
      rest = rest.slice(cut + 1).trimStart();
    }
    out.push(rest);
  }
  return out;
}

/**
 * A doc comment on a node from escaped lines (through tsDocText or docLines), cut to fit at `depth` levels of
 * nesting.
 */
export function withDoc<T extends TS.Node>(node: T, lines: readonly string[], depth = 0): T {
  if (lines.length === 0) return node;
  const wrapped = wrapDoc(lines, MAX_LINE - 3 - 2 * depth);
  // One line that fits stays `/** text */`.
  if (wrapped.length === 1 && wrapped[0]!.length + 7 + 2 * depth <= MAX_LINE) {
    ts.addSyntheticLeadingComment(node, ts.SyntaxKind.MultiLineCommentTrivia, `* ${wrapped[0]} `, true);
    return node;
  }
  ts.addSyntheticLeadingComment(
    node,
    ts.SyntaxKind.MultiLineCommentTrivia,
    `*\n${wrapped.map((l) => ` * ${l}`.trimEnd()).join("\n")}\n `,
    true,
  );
  return node;
}

export const typeRef = (name: string, args?: readonly TS.TypeNode[]): TS.TypeNode => f.createTypeReferenceNode(name, args);
const keyword = (kind: TS.KeywordTypeSyntaxKind): TS.TypeNode => f.createKeywordTypeNode(kind);
export const neverType = (): TS.TypeNode => keyword(ts.SyntaxKind.NeverKeyword);
export const unknownType = (): TS.TypeNode => keyword(ts.SyntaxKind.UnknownKeyword);
export const stringType = (): TS.TypeNode => keyword(ts.SyntaxKind.StringKeyword);

/** `Record<string, unknown>` and the like. */
export const recordOf = (value: TS.TypeNode): TS.TypeNode => typeRef("Record", [stringType(), value]);

/** The literal type of an `enum`/`const` value, or the wider type that holds a value a literal cannot state. */
export function literalType(value: unknown): TS.TypeNode {
  if (value === null) return f.createLiteralTypeNode(f.createNull());
  if (typeof value === "string") return f.createLiteralTypeNode(f.createStringLiteral(value));
  if (typeof value === "boolean") return f.createLiteralTypeNode(value ? f.createTrue() : f.createFalse());
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return keyword(ts.SyntaxKind.NumberKeyword);
    const literal = f.createNumericLiteral(Math.abs(value));
    return f.createLiteralTypeNode(value < 0 ? f.createPrefixUnaryExpression(ts.SyntaxKind.MinusToken, literal) : literal);
  }
  if (Array.isArray(value)) return f.createArrayTypeNode(unknownType());
  if (typeof value === "object") return recordOf(unknownType());
  return unknownType();
}

const union = (members: readonly TS.TypeNode[]): TS.TypeNode =>
  members.length === 0 ? neverType() : members.length === 1 ? members[0]! : f.createUnionTypeNode(members);

export const unionOf = union;
export const intersectionOf = (members: readonly TS.TypeNode[]): TS.TypeNode =>
  members.length === 0 ? unknownType() : members.length === 1 ? members[0]! : f.createIntersectionTypeNode(members);

/** Members every object inherits that TypeScript's `Object` type declares: an optional one admits the inherited type. */
const INHERITED = new Set([
  "constructor",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "toString",
  "valueOf",
]);

export interface NodeProperty {
  readonly name: string;
  readonly optional: boolean;
  readonly type: TS.TypeNode;
  /** Escaped doc lines. */
  readonly doc: readonly string[];
}

/**
 * An object type: its properties with their docs, and an index signature when further properties are allowed.
 * Without any member it is `Record<string, never>`, the type of an empty object.
 */
export function typeLiteral(props: readonly NodeProperty[], additional: boolean | TS.TypeNode, depth: number): TS.TypeNode {
  const members: TS.TypeElement[] = props.map((p) =>
    withDoc(
      f.createPropertySignature(
        undefined,
        propertyName(p.name),
        p.optional ? f.createToken(ts.SyntaxKind.QuestionToken) : undefined,
        p.optional && INHERITED.has(p.name)
          ? union([p.type, f.createIndexedAccessTypeNode(typeRef("Object"), literalType(p.name))])
          : p.type,
      ),
      p.doc,
      depth + 1,
    ),
  );
  if (additional !== false) {
    members.push(
      f.createIndexSignature(
        undefined,
        [f.createParameterDeclaration(undefined, undefined, "key", undefined, stringType())],
        additional === true ? unknownType() : additional,
      ),
    );
  }
  return members.length === 0 ? recordOf(neverType()) : f.createTypeLiteralNode(members);
}

/**
 * The type of an IR schema as a tree, as ts-type.ts's printType spells it: named schemas by their alias (or inline
 * where the scope says so), files as `FileInput`, JSON text as its structured value. `depth` is the nesting of
 * object types around it, for the width of its doc comments.
 */
export function schemaType(schema: Schema, scope: TypeScope, depth: number, stack: readonly string[] = []): TS.TypeNode {
  const node = (s: Schema) => schemaType(s, scope, depth, stack);
  switch (schema.kind) {
    case "ref": {
      const target = scope.named.get(schema.name);
      if (scope.inline.has(schema.name) && target && !stack.includes(schema.name))
        return schemaType(target.schema, scope, depth, [...stack, schema.name]);
      const alias = scope.alias?.(schema.name);
      scope.uses?.add(alias ?? "components");
      if (alias !== undefined) return typeRef(alias);
      return f.createIndexedAccessTypeNode(
        f.createIndexedAccessTypeNode(typeRef("components"), literalType("schemas")),
        literalType(schema.name),
      );
    }
    case "string":
      return stringType();
    case "number":
    case "integer":
      return keyword(ts.SyntaxKind.NumberKeyword);
    case "boolean":
      return keyword(ts.SyntaxKind.BooleanKeyword);
    case "null":
      return literalType(null);
    case "enum": {
      const seen = new Set<string>();
      const members: TS.TypeNode[] = [];
      for (const value of schema.values) {
        const type = literalType(value);
        const key = printNode(type);
        if (!seen.has(key)) members.push(type);
        seen.add(key);
      }
      return union(members);
    }
    case "array":
      return f.createArrayTypeNode(node(schema.items));
    case "object":
      return typeLiteral(
        schema.properties.map((p) => ({
          name: p.name,
          optional: !p.required,
          type: schemaType(p.schema, scope, depth + 1, stack),
          doc: docLinesOf(p.schema, scope),
        })),
        schema.additionalProperties === false
          ? false
          : schema.additionalProperties === true
            ? true
            : schemaType(schema.additionalProperties, scope, depth + 1, stack),
        depth,
      );
    case "union":
      return union(schema.members.map(node));
    case "intersection":
      return intersectionOf(schema.members.map(node));
    case "file":
      scope.uses?.add("FileInput");
      return typeRef("FileInput");
    case "json-text":
      return node(schema.value);
    case "unknown":
      return unknownType();
  }
}

const exported = () => [f.createModifier(ts.SyntaxKind.ExportKeyword)];

/**
 * `export type Name<Params> = Type;` with its doc. A union or a chain of conditional types that does not fit on the
 * line is laid out a member (or a condition) a line, as formatters lay them out.
 */
export function typeAlias(
  name: string,
  type: TS.TypeNode,
  doc: readonly string[],
  typeParameters: readonly TS.TypeParameterDeclaration[] = [],
): string {
  const declaration = f.createTypeAliasDeclaration(exported(), name, typeParameters.length > 0 ? typeParameters : undefined, type);
  const text = printNode(withDoc(declaration, doc));
  if (text.split("\n").every((line) => line.length <= MAX_LINE)) return text;
  const head = printNode(
    withDoc(f.createTypeAliasDeclaration(exported(), name, typeParameters.length > 0 ? typeParameters : undefined, neverType()), doc),
  );
  const start = head.slice(0, head.lastIndexOf("never;"));
  if (ts.isUnionTypeNode(type)) {
    return `${start.trimEnd()}\n${type.types.map((m) => `  | ${indentAfterFirst(printNode(m))}`).join("\n")};`;
  }
  if (ts.isConditionalTypeNode(type)) {
    const lines: string[] = [];
    let rest: TS.TypeNode = type;
    while (ts.isConditionalTypeNode(rest)) {
      const condition = f.createConditionalTypeNode(rest.checkType, rest.extendsType, rest.trueType, neverType());
      const printed = printNode(condition);
      const line = `  ${printed.slice(0, printed.lastIndexOf(" : never"))}`;
      // A branch too long for one line: its test on one, its result on the next.
      lines.push(
        line.length + 2 <= MAX_LINE
          ? line
          : `  ${printNode(rest.checkType)} extends ${printNode(rest.extendsType)}\n    ? ${indentAfterFirst(indentAfterFirst(printNode(rest.trueType)))}\n   `,
      );
      rest = rest.falseType;
    }
    return `${start.trimEnd()}\n${lines.map((l) => `${l} :`).join("\n")}\n  ${printNode(rest)};`;
  }
  return text;
}

const indentAfterFirst = (text: string): string => text.replaceAll("\n", "\n  ");

/** `B extends Constraint` for a type parameter list. */
export const typeParameter = (name: string, constraint?: TS.TypeNode): TS.TypeParameterDeclaration =>
  f.createTypeParameterDeclaration(undefined, name, constraint);

export { f as factory };
