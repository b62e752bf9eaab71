/**
 * A fixture value written as a Go expression of the type the module declares for it, for the Example functions: a
 * struct as a keyed literal (fields it does not declare in Extra), a union as the literal of the member the value
 * fits, an optional field through Ptr, a nullable one through sdkruntime.Value and sdkruntime.Null, a file as an
 * sdkruntime.File reading its text. Strings reach the code through goString only. Where no literal can say the value
 * (a value of no member of its union, one the type does not hold), the answer is undefined and the caller falls back.
 */
import type { FileFixture, FixtureValue } from "../../../generator/emit/fixtures/sample.js";
import type { Schema } from "../../../generator/ir/types.js";
import { goString } from "./escape.js";
import type { GoTypes } from "./go-type.js";
import { goFloat } from "./go-value.js";

/** What a literal needs to know: the module's types and the name the example file imports its package by. */
export interface LiteralScope {
  readonly types: GoTypes;
  readonly pkg: string;
}

const BUILTIN = new Set(["string", "int64", "float64", "bool", "any"]);
const NULLABLE = /^sdkruntime\.Nullable\[(.*)\]$/;

/** A Go type of the module as the example file writes it: its own types after the package's name. */
export function qualified(code: string, pkg: string): string {
  if (code.startsWith("*")) return `*${qualified(code.slice(1), pkg)}`;
  if (code.startsWith("[]")) return `[]${qualified(code.slice(2), pkg)}`;
  if (code.startsWith("map[string]")) return `map[string]${qualified(code.slice("map[string]".length), pkg)}`;
  const nullable = NULLABLE.exec(code);
  if (nullable) return `sdkruntime.Nullable[${qualified(nullable[1]!, pkg)}]`;
  return BUILTIN.has(code) || code.includes(".") ? code : `${pkg}.${code}`;
}

const isFile = (v: FixtureValue | undefined): v is FileFixture => typeof v === "object" && v !== null && !Array.isArray(v) && "$file" in v;

const isRecord = (v: FixtureValue | undefined): v is { readonly [key: string]: FixtureValue } =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !("$file" in v);

const hasFile = (v: FixtureValue): boolean =>
  isFile(v) || (Array.isArray(v) ? v.some(hasFile) : isRecord(v) && Object.values(v).some(hasFile));

/** A JSON value as json.RawMessage; undefined when it holds a file, which JSON cannot say. */
export function rawLiteral(value: FixtureValue): string | undefined {
  return hasFile(value) ? undefined : `json.RawMessage(${goString(JSON.stringify(value))})`;
}

/** The text a body sent as it is reads, as an io.Reader. */
export function readerLiteral(value: FixtureValue): string | undefined {
  if (typeof value === "string") return `strings.NewReader(${goString(value)})`;
  if (isFile(value)) return `strings.NewReader(${goString(value.$file.text)})`;
  // A raw body whose schema is an object (Swagger 2's `type: file` converted, say): the client sends the value's JSON.
  return hasFile(value) ? undefined : `strings.NewReader(${goString(JSON.stringify(value))})`;
}

/** The literal of an element of a list or a map: its type left out where Go allows (a struct, a pointer to one). */
function element(literal: string, code: string, pkg: string): string {
  const type = qualified(code, pkg);
  if (literal.startsWith(`${type}{`)) return literal.slice(type.length);
  if (code.startsWith("*") && literal.startsWith(`&${type.slice(1)}{`)) return literal.slice(type.length);
  return literal;
}

/** The Go expression of `value` as a `code`, the Go type the module gives `schema`; undefined when none says it. */
export function goLiteral(value: FixtureValue, schema: Schema | undefined, code: string, scope: LiteralScope): string | undefined {
  const { types, pkg } = scope;
  const nullable = NULLABLE.exec(code);
  if (nullable) {
    const inner = qualified(nullable[1]!, pkg);
    if (value === null) return `sdkruntime.Null[${inner}]()`;
    const v = goLiteral(value, schema, nullable[1]!, scope);
    return v === undefined ? undefined : `sdkruntime.Value[${inner}](${v})`;
  }
  if (code === "*sdkruntime.File") {
    if (!isFile(value)) return undefined;
    const { name, contentType, text } = value.$file;
    return `&sdkruntime.File{Name: ${goString(name)}, ContentType: ${goString(contentType)}, Content: strings.NewReader(${goString(text)})}`;
  }
  if (code === "json.RawMessage") return rawLiteral(value);
  if (code === "io.Reader") return readerLiteral(value);
  if (code.startsWith("*")) {
    const inner = code.slice(1);
    const v = goLiteral(value, schema, inner, scope);
    if (v === undefined) return undefined;
    return v.startsWith(`${qualified(inner, pkg)}{`) ? `&${v}` : `${pkg}.Ptr[${qualified(inner, pkg)}](${v})`;
  }
  const resolved = schema === undefined ? undefined : types.resolve(schema);
  // A JSON-text field the module types by its value (a variant's, sent as JSON text) is that value's literal.
  const s = resolved?.kind === "json-text" && code !== "string" ? types.resolve(resolved.value) : resolved;
  if (code.startsWith("[]")) {
    if (!Array.isArray(value)) return undefined;
    const item = code.slice(2);
    const items = value.map((v) => goLiteral(v, s?.kind === "array" ? s.items : undefined, item, scope));
    if (items.some((i) => i === undefined)) return undefined;
    return `${qualified(code, pkg)}{${items.map((i) => element(i!, item, pkg)).join(", ")}}`;
  }
  if (code.startsWith("map[string]")) {
    if (!isRecord(value)) return undefined;
    const item = code.slice("map[string]".length);
    const itemSchema = s?.kind === "object" && typeof s.additionalProperties === "object" ? s.additionalProperties : undefined;
    const entries = Object.entries(value).map(([k, v]) => [k, goLiteral(v, itemSchema, item, scope)] as const);
    if (entries.some(([, v]) => v === undefined)) return undefined;
    return `${qualified(code, pkg)}{${entries.map(([k, v]) => `${goString(k)}: ${element(v!, item, pkg)}`).join(", ")}}`;
  }
  switch (code) {
    case "string":
      if (typeof value === "string") return goString(value);
      // A JSON-text field the module types as the string the service sends: the value's JSON text.
      return resolved?.kind === "json-text" && !hasFile(value) ? goString(JSON.stringify(value)) : undefined;
    case "int64":
      return typeof value === "number" && Number.isSafeInteger(value) ? String(value) : undefined;
    case "float64":
      return typeof value === "number" && Number.isFinite(value) ? goFloat(value) : undefined;
    case "bool":
      return typeof value === "boolean" ? String(value) : undefined;
    case "any":
      return undefined;
  }
  const members = types.unionOf(code);
  if (members !== undefined) {
    for (const m of members) {
      if (!fits(value, m.schema, types)) continue;
      const v = goLiteral(value, m.schema, m.pointer ? `*${m.type.code}` : m.type.code, scope);
      if (v !== undefined) return `${qualified(code, pkg)}{${m.field}: ${v}}`;
    }
    return undefined;
  }
  const fields = types.fieldsOf(code);
  if (fields.length > 0) {
    const object = schema === undefined ? undefined : types.objectOf(schema);
    if (!isRecord(value)) return undefined;
    const set: string[] = [];
    const extra: string[] = [];
    for (const [property, v] of Object.entries(value)) {
      const f = fields.find((x) => x.property === property);
      if (f === undefined) {
        const raw = rawLiteral(v);
        if (raw === undefined) return undefined;
        extra.push(`${goString(property)}: ${raw}`);
        continue;
      }
      const literal = goLiteral(v, object?.properties.find((p) => p.name === property)?.schema, f.type.code, scope);
      if (literal === undefined) return undefined;
      set.push(`${f.field}: ${literal}`);
    }
    if (extra.length > 0) set.push(`Extra: map[string]json.RawMessage{${extra.join(", ")}}`);
    return `${qualified(code, pkg)}{${set.join(", ")}}`;
  }
  const underlying = types.underlyingOf(code);
  if (underlying === undefined || underlying === code) return undefined;
  const v = goLiteral(value, schema, underlying, scope);
  if (v === undefined) return undefined;
  // A composite literal names its type; a constant takes the named type where it is used.
  const type = qualified(underlying, pkg);
  return v.startsWith(`${type}{`) ? `${qualified(code, pkg)}${v.slice(type.length)}` : v;
}

/** Whether a value can be a member's: its JSON kind, allowed values, required properties and constants. */
function fits(value: FixtureValue, schema: Schema, types: GoTypes): boolean {
  const s = types.resolve(schema);
  switch (s?.kind) {
    case "string":
    case "json-text":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "enum":
      return s.values.some((v) => v === value);
    case "array":
      return Array.isArray(value);
    case "file":
      return isFile(value);
    case "object":
    case "intersection": {
      const object = types.objectOf(s);
      if (!isRecord(value) || object === undefined) return false;
      return object.properties.every((p) => {
        if (p.required && !(p.name in value)) return false;
        const v = types.resolve(p.schema);
        return !(v?.kind === "enum" && v.values.length === 1 && p.name in value && value[p.name] !== v.values[0]);
      });
    }
    default:
      return true;
  }
}
