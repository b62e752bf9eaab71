import type { NamedSchema, Property, Schema, SchemaMeta } from "../../../generator/ir/types.js";
import { tsDocText, tsLiteralType, tsOptionalType, tsString, tsTypeKey } from "./escape.js";

/** What a printed type may refer to, fixed for one emitter run. */
export interface TypeScope {
  readonly named: ReadonlyMap<string, NamedSchema>;
  /**
   * Named schemas printed as their structure rather than as `components["schemas"]["X"]`
   * (openapi-typescript's types): in request types, those that hold a file or a JSON-text field, so that
   * runtime input types (files, structured values) stand where the wire type is a string. Cycles fall
   * back to the reference.
   */
  readonly inline: ReadonlySet<string>;
  /** The alias of a named schema (schemas.ts); without it a reference prints as `components["schemas"]["X"]`. */
  readonly alias?: (name: string) => string;
  /**
   * Every symbol a printed type refers to (schema aliases, `FileInput`, `components`), so that a file imports what
   * it uses and nothing else, never by searching its printed text.
   */
  readonly uses?: Set<string>;
}

/** A TSDoc block from a schema's description, allowed values, range, default and deprecation. */
export function docComment(schema: SchemaMeta & Partial<Schema>, extra: readonly string[] = []): string {
  const lines = docLines(schema, extra);
  if (lines.length === 0) return "";
  return `/**\n${lines.map((l) => ` * ${l}`.trimEnd()).join("\n")}\n */\n`;
}

/** The lines of docComment's block, escaped, without the comment's own marks. */
export function docLines(schema: SchemaMeta & Partial<Schema>, extra: readonly string[] = []): string[] {
  const text: string[] = [];
  if (schema.description) text.push(schema.description.trimEnd());
  const s = schema as Schema;
  if (s.kind === "enum" && s.values.length > 1) text.push(`Allowed: ${s.values.map((v) => `\`${JSON.stringify(v)}\``).join(", ")}.`);
  if (s.kind === "number" || s.kind === "integer") {
    const range = [s.minimum !== undefined && `minimum ${s.minimum}`, s.maximum !== undefined && `maximum ${s.maximum}`].filter(Boolean);
    if (range.length > 0) text.push(`Range: ${range.join(", ")}.`);
  }
  text.push(...extra);
  const lines = text.flatMap((t) => tsDocText(t).split("\n"));
  if (schema.default !== undefined) lines.push(`@defaultValue ${tsDocText(JSON.stringify(schema.default))}`);
  if (schema.deprecated) lines.push("@deprecated");
  return lines;
}

/**
 * A TypeScript type expression as a tree, so that precedence is decided by structure and not by looking at
 * printed text: `{ name } & ({ a } | { b })` keeps its parentheses.
 */
export type TypeNode =
  /** Printed as is: a name, keyword, literal, object literal or generic application. */
  | { readonly kind: "atom"; readonly text: string }
  | { readonly kind: "array"; readonly item: TypeNode }
  | { readonly kind: "union"; readonly members: readonly TypeNode[] }
  | { readonly kind: "intersection"; readonly members: readonly TypeNode[] };

export const atom = (text: string): TypeNode => ({ kind: "atom", text });

const SIMPLE = /^[\w".[\]]+$/;

/** Prints a type tree. A union or intersection inside another, or as an array item, is always parenthesised. */
export function printNode(node: TypeNode): string {
  const member = (m: TypeNode) => (m.kind === "union" || m.kind === "intersection" ? `(${printNode(m)})` : printNode(m));
  switch (node.kind) {
    case "atom":
      return node.text;
    case "array": {
      const item = printNode(node.item);
      return node.item.kind === "atom" && SIMPLE.test(item) ? `${item}[]` : `(${item})[]`;
    }
    case "union":
      return node.members.length === 0 ? "never" : node.members.map(member).join(" | ");
    case "intersection":
      return node.members.length === 0 ? "unknown" : node.members.map(member).join(" & ");
  }
}

/** The type tree of an IR schema. */
export function typeNode(schema: Schema, scope: TypeScope, stack: readonly string[] = []): TypeNode {
  const node = (s: Schema) => typeNode(s, scope, stack);
  switch (schema.kind) {
    case "ref": {
      const target = scope.named.get(schema.name);
      if (scope.inline.has(schema.name) && target && !stack.includes(schema.name))
        return typeNode(target.schema, scope, [...stack, schema.name]);
      const alias = scope.alias?.(schema.name);
      scope.uses?.add(alias ?? "components");
      return atom(alias ?? `components["schemas"][${tsString(schema.name)}]`);
    }
    case "string":
      return atom("string");
    case "number":
    case "integer":
      return atom("number");
    case "boolean":
      return atom("boolean");
    case "null":
      return atom("null");
    case "enum": {
      const values = [...new Set(schema.values.map(tsLiteralType))];
      return values.length === 0 ? atom("never") : values.length === 1 ? atom(values[0]!) : { kind: "union", members: values.map(atom) };
    }
    case "array":
      return { kind: "array", item: node(schema.items) };
    case "object":
      return atom(
        printObject(
          schema.properties,
          schema.additionalProperties === false
            ? false
            : schema.additionalProperties === true
              ? true
              : printNode(node(schema.additionalProperties)),
          scope,
          stack,
        ),
      );
    case "union":
      return schema.members.length === 0 ? atom("never") : { kind: "union", members: schema.members.map(node) };
    case "intersection":
      return { kind: "intersection", members: schema.members.map(node) };
    case "file":
      scope.uses?.add("FileInput");
      return atom("FileInput");
    case "json-text":
      return node(schema.value);
    case "unknown":
      return atom("unknown");
  }
}

/** Prints an IR schema as a TypeScript type expression. */
export function printType(schema: Schema, scope: TypeScope, stack: readonly string[] = []): string {
  return printNode(typeNode(schema, scope, stack));
}

export interface PrintedProperty {
  readonly name: string;
  readonly optional: boolean;
  readonly type: string;
  readonly doc: string;
}

export function printObject(
  properties: readonly Property[],
  additional: boolean | string,
  scope: TypeScope,
  stack: readonly string[],
): string {
  return objectLiteral(
    properties.map((p) => ({ name: p.name, optional: !p.required, type: printType(p.schema, scope, stack), doc: docOf(p.schema, scope) })),
    additional,
  );
}

/** A property's documentation, with what its reference target says when the property says nothing itself. */
export function docOf(schema: Schema, scope: TypeScope): string {
  const lines = docLinesOf(schema, scope);
  return lines.length === 0 ? "" : `/**\n${lines.map((l) => ` * ${l}`.trimEnd()).join("\n")}\n */\n`;
}

/** The lines of docOf's block. */
export function docLinesOf(schema: Schema, scope: TypeScope): string[] {
  if (schema.kind !== "ref") return docLines(schema);
  const target = scope.named.get(schema.name)?.schema;
  return docLines({ ...target, ...stripUndefined(schema), kind: target?.kind ?? "unknown" } as Schema);
}

function stripUndefined(s: Schema): Partial<Schema> {
  return Object.fromEntries(Object.entries(s).filter(([k, v]) => v !== undefined && k !== "kind" && k !== "name")) as Partial<Schema>;
}

export function objectLiteral(props: readonly PrintedProperty[], additional: boolean | string): string {
  const lines = props.map(
    (p) =>
      `${indent(p.doc)}  ${tsTypeKey(p.name)}${p.optional ? "?" : ""}: ${(p.optional ? tsOptionalType(p.name, p.type) : p.type).replaceAll("\n", "\n  ")};`,
  );
  if (additional !== false) lines.push(`  [key: string]: ${additional === true ? "unknown" : additional};`);
  return lines.length === 0 ? "Record<string, never>" : `{\n${lines.join("\n")}\n}`;
}

function indent(doc: string): string {
  return doc === "" ? "" : `${doc.trimEnd().replace(/^/gm, "  ")}\n`;
}
