/**
 * Text of a description on its way into generated Python. Each function is for one context; nothing else puts
 * description text into Python code.
 */
import { memoByText } from "../../../generator/memo.js";

/** What Python or the tools that read its source take as a line break, and CR LF as one. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const LINE_BREAKS = /\r\n|[\r\n\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]/g;
/** Controls Python rejects (NUL) or that editors and tools misread. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000e-\u001b\u001f\u007f-\u0084\u0086-\u009f]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Printable ASCII and tabs (a docstring's also line feeds, and no backslash): text no replacement changes, as most
 * of a description's is. A large description has tens of thousands of such texts.
 */
const PLAIN_COMMENT = /^[\t\x20-\x7e]*$/;
const PLAIN_DOCSTRING = /^[\t\n\x20-\x5b\x5d-\x7e]*$/;

const escapeCode = (c: string): string => {
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
};

/**
 * Text for a `#` comment: one line, controls shown as escapes, and no `coding:` declaration (on the first two
 * lines it would change how Python decodes the file).
 */
export function pyComment(text: string): string {
  if (PLAIN_COMMENT.test(text) && !text.includes("coding")) return text.trim();
  return text
    .replace(LINE_BREAKS, " ")
    .replace(CONTROLS, escapeCode)
    .replace(LONE_SURROGATE, escapeCode)
    .replace(/coding([:=])/g, "coding $1")
    .trim();
}

/** Text for the inside of a `"""` docstring (lines kept): backslashes and quotes escaped, controls as escapes. */
function docstringText(text: string): string {
  if (PLAIN_DOCSTRING.test(text) && !text.includes('"""')) return text;
  return text
    .replaceAll("\\", "\\\\")
    .replace(LINE_BREAKS, "\n")
    .replace(CONTROLS, escapeCode)
    .replace(LONE_SURROGATE, escapeCode)
    .replaceAll('"""', '\\"\\"\\"');
}

/** Text for the inside of a docstring, on one line. */
export function pyDocInline(text: string): string {
  return docstringText(text.replace(LINE_BREAKS, " ")).replace(/\s+/g, " ");
}

/** Python lines are at most this long. */
const WIDTH = 120;

/**
 * Lines wrapped at spaces to fit `width` columns (a line inside a ``` fence, or a word longer than the width,
 * stays as it is); a continuation keeps the line's indentation, two more under a list item, four more under an
 * indented `name: text` entry.
 */
export function wrapLines(lines: readonly string[], width: number): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of lines) {
    if (line.trimStart().startsWith("```")) fenced = !fenced;
    if (fenced || line.length <= width || line.trimStart().startsWith("```")) {
      out.push(line);
      continue;
    }
    const lead = /^\s*/.exec(line)![0];
    // A list item's continuation goes under its text; an indented `name: text` entry's (a docstring's Args:), four
    // columns further.
    const bullet = /^\s*(?:[-*+]|\d+\.)\s/.test(line) ? "  " : /^\s+[A-Za-z_][\w.]*: /.test(line) ? "    " : "";
    const words = line.slice(lead.length).split(/ +/);
    let current = lead;
    for (const word of words) {
      const joined = current.trim() === "" ? `${current}${word}` : `${current} ${word}`;
      if (joined.length <= width || current.trim() === "") current = joined;
      else {
        out.push(current);
        current = `${lead}${bullet}${word}`;
      }
    }
    out.push(current);
  }
  return out;
}

/** A `#` comment of any length at the given indentation, on as many lines as it needs. */
export function pyCommentBlock(text: string, indent: number): string {
  const pad = " ".repeat(indent);
  return wrapLines([pyComment(text)], WIDTH - indent - 2)
    .map((l) => `${pad}# ${l}`)
    .join("\n");
}

/** A docstring at the given indentation, or "" when there is no text. */
export function pyDocstring(text: string | undefined, indent: number): string {
  const clean = docstringText((text ?? "").trim());
  if (clean.trim() === "") return "";
  const pad = " ".repeat(indent);
  // The first line follows the opening quotes; the last may carry the closing ones.
  const given = clean.split("\n").map((l) => l.trimEnd());
  let lines = wrapLines(given, WIDTH - indent - 3).map((l) => l.trimEnd());
  if (lines.length === 1 && indent + 6 + lines[0]!.length > WIDTH) lines = wrapLines(given, WIDTH - indent - 6).map((l) => l.trimEnd());
  // A blank line stays empty: blanks at its end would only be removed again from the whole file (templated.ts).
  const body = lines.length === 1 ? lines[0]! : `${lines.map((l, i) => (i === 0 || l === "" ? l : `${pad}${l}`)).join("\n")}\n${pad}`;
  return `${pad}"""${body}${body.endsWith('"') ? " " : ""}"""`;
}

/**
 * Literals of short texts made before (generator/memo.ts): a large description's enum values and parameter names
 * come again in thousands of operations.
 */
const shortLiteral = memoByText(literalOf);
const SHORT_TEXT = 64;

/** A double-quoted string literal: JSON's escapes are Python's, and every character that is not printable ASCII-safe is escaped. */
export function pyString(text: string): string {
  return text.length > SHORT_TEXT ? literalOf(text) : shortLiteral(text);
}

function literalOf(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\u009f\u2028\u2029]/g, escapeCode);
}

/** A Python literal of a JSON scalar. */
function pyScalar(value: string | number | boolean | null): string {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return String(value);
  return pyString(value);
}

/** Integers Python reads back as the same int from their JavaScript text (no exponent, no fraction). */
const isExactInteger = (v: number): boolean => Number.isInteger(v) && /^-?\d+$/.test(String(v));

/** The JSON values Python accepts inside `Literal[...]`. */
export type PyLiteralValue = string | number | boolean | null;

/**
 * A set of `enum`/`const` values split for typing: the literals Python accepts in `Literal[...]` (str, exact
 * int, bool, None; duplicates and -0 removed), and the kinds of the others that need a wider type.
 */
export function pyLiteralParts(values: readonly unknown[]): { literals: PyLiteralValue[]; wider: ("float" | "list" | "dict")[] } {
  const literals = new Map<string, PyLiteralValue>();
  const wider = new Set<"float" | "list" | "dict">();
  for (const v of values) {
    if (v === null || typeof v === "string" || typeof v === "boolean") literals.set(pyScalar(v), v);
    else if (typeof v === "number") {
      if (isExactInteger(v)) literals.set(pyScalar(v === 0 ? 0 : v), v === 0 ? 0 : v);
      else wider.add("float");
    } else if (Array.isArray(v)) wider.add("list");
    else wider.add("dict");
  }
  return { literals: [...literals.values()], wider: [...wider] };
}

/** The text of one `Literal[...]` member. */
export function pyLiteralText(value: PyLiteralValue): string {
  return pyScalar(value);
}

/**
 * The type of a set of `enum`/`const` values: `Literal[...]` of the values Python accepts there (str, int,
 * bool, None), and the wider types of the others (float, list, dict). `wide(kind)` names the wider type.
 */
export function pyLiteralType(values: readonly unknown[], wide: (kind: "float" | "list" | "dict") => string): string {
  const { literals, wider } = pyLiteralParts(values);
  const parts = [...(literals.length > 0 ? [`_t.Literal[${literals.map(pyScalar).join(", ")}]`] : []), ...new Set(wider.map(wide))];
  if (parts.length === 0) return "_t.NoReturn";
  return parts.length === 1 ? parts[0]! : `_t.Union[${parts.join(", ")}]`;
}

/**
 * A string literal holding Python source (a forward reference), quoted as `ruff format` quotes it: double quotes,
 * unless the text holds more double quotes than single ones.
 */
export function pyQuotedSource(text: string): string {
  const doubles = text.split('"').length - 1;
  const singles = text.split("'").length - 1;
  if (doubles <= singles) return pyString(text);
  return `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}
