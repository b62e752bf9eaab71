import type { NamedSchema, Property, Schema, SchemaMeta } from "../ir/types.js";
import { tsDocText, tsLiteralType, tsString, tsTypeKey } from "./escape/ts.js";

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
}

/** A TSDoc block from a schema's description, allowed values, range, default and deprecation. */
export function docComment(schema: SchemaMeta & Partial<Schema>, extra: readonly string[] = []): string {
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
  if (lines.length === 0) return "";
  return `/**\n${lines.map((l) => ` * ${l}`.trimEnd()).join("\n")}\n */\n`;
}

/** Prints an IR schema as a TypeScript type expression. */
export function printType(schema: Schema, scope: TypeScope, stack: readonly string[] = []): string {
  const print = (s: Schema) => printType(s, scope, stack);
  switch (schema.kind) {
    case "ref": {
      const target = scope.named.get(schema.name);
      if (scope.inline.has(schema.name) && target && !stack.includes(schema.name))
        return printType(target.schema, scope, [...stack, schema.name]);
      return `components["schemas"][${tsString(schema.name)}]`;
    }
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "enum":
      return schema.values.length === 0 ? "never" : [...new Set(schema.values.map(tsLiteralType))].join(" | ");
    case "array": {
      const item = print(schema.items);
      return /^[\w".[\]]+$/.test(item) ? `${item}[]` : `(${item})[]`;
    }
    case "object":
      return printObject(
        schema.properties,
        schema.additionalProperties === false ? false : schema.additionalProperties === true ? true : print(schema.additionalProperties),
        scope,
        stack,
      );
    case "union":
      return schema.members.length === 0 ? "never" : schema.members.map((m) => wrap(print(m))).join(" | ");
    case "intersection":
      return schema.members.map((m) => wrap(print(m))).join(" & ");
    case "file":
      return "FileInput";
    case "json-text":
      return print(schema.value);
    case "unknown":
      return "unknown";
  }
}

function wrap(type: string): string {
  return /[|&]/.test(type) && !/^\{[\s\S]*\}$/.test(type) ? `(${type})` : type;
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
  if (schema.kind !== "ref") return docComment(schema);
  const target = scope.named.get(schema.name)?.schema;
  return docComment({ ...target, ...stripUndefined(schema), kind: target?.kind ?? "unknown" } as Schema);
}

function stripUndefined(s: Schema): Partial<Schema> {
  return Object.fromEntries(Object.entries(s).filter(([k, v]) => v !== undefined && k !== "kind" && k !== "name")) as Partial<Schema>;
}

export function objectLiteral(props: readonly PrintedProperty[], additional: boolean | string): string {
  const lines = props.map((p) => `${indent(p.doc)}  ${tsTypeKey(p.name)}${p.optional ? "?" : ""}: ${p.type.replaceAll("\n", "\n  ")};`);
  if (additional !== false) lines.push(`  [key: string]: ${additional === true ? "unknown" : additional};`);
  return lines.length === 0 ? "Record<string, never>" : `{\n${lines.join("\n")}\n}`;
}

function indent(doc: string): string {
  return doc === "" ? "" : `${doc.trimEnd().replace(/^/gm, "  ")}\n`;
}
