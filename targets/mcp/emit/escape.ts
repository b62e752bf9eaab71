// Text of a description on its way into the generated server's TypeScript. One function per context; nothing else
// puts description text into the server's code.

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const NEEDS_ESCAPE = /[\\"\u0000-\u001f\u007f-\u009f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const SHORT: Readonly<Record<string, string>> = { "\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * A TypeScript string literal, double-quoted: backslashes and quotes escaped, line breaks, other controls, the
 * line and paragraph separators and lone surrogates as escapes, so the literal stays on one line and means the text.
 */
export function tsString(text: string): string {
  return `"${text.replace(NEEDS_ESCAPE, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const COMMENT_UNSAFE = /\r\n|[\r\n\u2028\u2029\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Text for a `//` comment: one line, controls as spaces. */
export function tsLineComment(text: string): string {
  return text.replace(COMMENT_UNSAFE, " ");
}

/** A JSON value as a TypeScript expression, every string through tsString; keys quoted the same way. */
export function tsLiteral(value: unknown, indent = ""): string {
  if (value === null || typeof value === "boolean") return String(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "null";
  if (typeof value === "string") return tsString(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${inner}${tsLiteral(v, inner)}`).join(",\n")},\n${indent}]`;
  }
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return "{}";
    return `{\n${entries.map(([k, v]) => `${inner}${tsString(k)}: ${tsLiteral(v, inner)}`).join(",\n")},\n${indent}}`;
  }
  throw new Error(`no TypeScript literal for a ${typeof value}`);
}
