/**
 * Text of a description on its way into generated Go. Each function is for one context; nothing else puts
 * description text into Go code.
 */

/** What Go or the tools that read its source take as a line break, and CR LF as one. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const LINE_BREAKS = /\r\n|[\r\n\u000b\u000c\u0085\u2028\u2029]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** A byte order mark (the compiler refuses one past the file's start) and bidirectional controls. */
const INVISIBLE = /[\ufeff\u202a-\u202e\u2066-\u2069]/g;
const hex4 = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * Printable ASCII without a backslash or a double quote: a literal's text as it is. Most text of a description is
 * such (names, paths, media types), and a large one's is millions of strings: one test instead of seven replacements.
 */
const PLAIN_LITERAL = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
/** Printable ASCII words with single spaces between them and none at the ends: a comment's text as it is. */
const PLAIN_COMMENT = /^(?:[\x21-\x7e]+(?: [\x21-\x7e]+)*)?$/;

/** A Go interpreted string literal, quotes included; lone surrogates (not valid in Go text) become U+FFFD. */
export function goString(text: string): string {
  if (PLAIN_LITERAL.test(text)) return `"${text}"`;
  const body = text
    .replace(LONE_SURROGATE, "\ufffd")
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r")
    .replace(/\t/g, "\\t")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, hex4)
    .replace(INVISIBLE, hex4);
  return `"${body}"`;
}

/**
 * Text for a `//` comment, on one line: line breaks and runs of white space become one space, controls and
 * invisible characters are shown as escapes, and `+build` cannot read as a build constraint. One line also keeps
 * gofmt from reading a list, a heading or a code block into it.
 */
export function goComment(text: string): string {
  if (PLAIN_COMMENT.test(text) && !text.includes("+build")) return text;
  return text
    .replace(LINE_BREAKS, " ")
    .replace(CONTROLS, hex4)
    .replace(LONE_SURROGATE, hex4)
    .replace(INVISIBLE, hex4)
    .replace(/\s+/g, " ")
    .replace(/\+build/g, "+ build")
    .trim();
}

/**
 * A doc comment for a declaration, one line at the given indentation: `// <name> <lead> <text>`, or
 * `// <name>: <text>` without a lead. Starting with the declared name is Go's convention and keeps the comment
 * from starting with a list marker.
 */
export function goDoc(name: string, lead: string, text: string | undefined, indent = ""): string {
  const rest = goComment(text ?? "");
  const first = goComment(lead);
  if (first === "") return `${indent}// ${name}${rest === "" ? "" : `: ${rest}`}`;
  return `${indent}// ${name} ${first}${rest === "" ? "" : ` ${rest}`}`;
}

/** Text for Markdown (the README): one line, with characters Markdown reads as markup escaped. */
export function markdownText(text: string): string {
  return goComment(text).replace(/[\\`*_{}[\]()<>#+!|~-]/g, (c) => `\\${c}`);
}

/** Text for inside a Markdown code span: one line, backticks (which would end it) written as quotes. */
export function markdownCode(text: string): string {
  return goComment(text).replace(/`/g, "'");
}
