/**
 * Text of a description on its way into generated TypeScript. Each function is for one context; nothing else
 * puts description text into TypeScript code.
 */

/** Line terminators of JavaScript source, and CR LF as one. */
const LINE_BREAKS = /\r\n|[\r\n\u2028\u2029]/g;
/** C0 controls but tab and LF, DEL and C1 controls: shown as `\uXXXX` text, so they neither vanish nor confuse tools. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const hex4 = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * Text for the inside of a `/** *\/` block (TSDoc): lines split on every line terminator, `*\/` cannot end the
 * block, `@` cannot open a tag (so `{@link}` and `@throws` come only from the emitter), controls shown as escapes.
 */
export function tsDocText(text: string): string {
  return text
    .replace(LINE_BREAKS, "\n")
    .replace(CONTROLS, hex4)
    .replace(LONE_SURROGATE, hex4)
    .replaceAll("*/", "*\\/")
    .replaceAll("@", "\\@");
}

/** Text for inline code of TSDoc (between backticks): as tsDocText, on one line, and no backtick ends the span. */
export function tsDocCode(text: string): string {
  return tsDocText(text).replaceAll("\n", " ").replaceAll("`", "'");
}

/** Text for a `//` comment: one line. */
export function tsLineComment(text: string): string {
  return text.replace(LINE_BREAKS, " ").replace(CONTROLS, hex4).replace(LONE_SURROGATE, hex4);
}

/** A double-quoted string literal; U+2028/U+2029 and lone surrogates escaped too (JSON.stringify keeps the former). */
export function tsString(text: string): string {
  return JSON.stringify(text).replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A property name in a type literal or interface: plain when it is an identifier, otherwise quoted. Types are not
 * evaluated, so `__proto__` and `constructor` are ordinary names here.
 */
export function tsTypeKey(name: string): string {
  return IDENTIFIER.test(name) ? name : tsString(name);
}

/**
 * A property name in an object literal: always quoted, so no key is an expression; `__proto__` computed, since
 * `"__proto__": x` in a literal sets the prototype instead of adding a key.
 */
export function tsObjectKey(name: string): string {
  return name === "__proto__" ? `[${tsString(name)}]` : tsString(name);
}

/** `.name` where the name is an identifier, `["name"]` otherwise; with `?.` when optional. */
export function tsAccess(name: string, optional: boolean): string {
  if (IDENTIFIER.test(name)) return `${optional ? "?." : "."}${name}`;
  return `${optional ? "?." : ""}[${tsString(name)}]`;
}

/** Members every object inherits; TypeScript's `Object` type declares all but `__proto__`. */
const INHERITED = new Set([
  "__proto__",
  "constructor",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "toString",
  "valueOf",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
]);

/** Whether an object has a member of this name without declaring it (`constructor`, `__proto__`, ...). */
export const isInheritedMember = (name: string): boolean => INHERITED.has(name);

/**
 * The type of an optional property: an object without the property still has an inherited `toString` or
 * `constructor`, so TypeScript would refuse every object that leaves such a property out unless its type admits
 * the inherited member too.
 */
export function tsOptionalType(name: string, type: string): string {
  return INHERITED.has(name) && !name.startsWith("__") ? `${type} | Object[${tsString(name)}]` : type;
}

/**
 * Reads a property of an object held in a variable. `x.constructor` or `x.__proto__` would read an inherited member
 * when the key is absent, so such keys are read only as own properties.
 */
export function tsRead(variable: string, name: string, optional: boolean): string {
  if (!INHERITED.has(name)) return `${variable}${tsAccess(name, optional)}`;
  const guard = optional ? `${variable} !== undefined && ` : "";
  return `(${guard}Object.hasOwn(${variable}, ${tsString(name)}) ? ${variable}[${tsString(name)}] : undefined)`;
}

/**
 * A literal type of an `enum`/`const` value. Values a literal type cannot state exactly (objects, arrays) get the
 * wider type that holds them.
 */
export function tsLiteralType(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return tsString(value);
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "number";
  if (Array.isArray(value)) return "unknown[]";
  if (typeof value === "object") return "Record<string, unknown>";
  return "unknown";
}

/**
 * A JSON value as a TypeScript expression, laid out as `JSON.stringify(value, null, indent)` would, with keys
 * through tsObjectKey and strings through tsString: a key `__proto__` stays a key.
 */
export function tsValue(value: unknown, indent = 0, depth = 0): string {
  if (value === null || typeof value === "boolean") return String(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "null";
  if (typeof value === "string") return tsString(value);
  const open = indent > 0 ? `\n${" ".repeat(indent * (depth + 1))}` : "";
  const close = indent > 0 ? `\n${" ".repeat(indent * depth)}` : "";
  const sep = indent > 0 ? ": " : ":";
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[${open}${value.map((v) => tsValue(v, indent, depth + 1)).join(`,${open}`)}${close}]`;
  }
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return "{}";
    return `{${open}${entries.map(([k, v]) => `${tsObjectKey(k)}${sep}${tsValue(v, indent, depth + 1)}`).join(`,${open}`)}${close}}`;
  }
  return "null";
}
