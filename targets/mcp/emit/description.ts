// A tool's description from the operation's text, fitted within what MCP clients take (OpenAI refuses more than
// 1,024 characters; others cut): cut after the last whole sentence that fits, else after the last whole word.

/** The longest description a tool gets, in UTF-16 code units (never fewer characters than that). */
export const MAX_DESCRIPTION = 1024;

const ELLIPSIS = "\u2026";

/**
 * `text` when it fits in `max`, else its longest prefix that ends a sentence (`.`, `!` or `?` before white space,
 * or a paragraph's end), else its longest prefix of whole words followed by an ellipsis. White space is trimmed.
 */
export function fitDescription(text: string, max: number = MAX_DESCRIPTION): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  let sentenceEnd = -1;
  const ends = /[.!?](?=\s)|\n\s*\n/g;
  for (let m = ends.exec(trimmed); m !== null && m.index < max; m = ends.exec(trimmed)) {
    const end = m[0].startsWith("\n") ? m.index : m.index + 1;
    if (end <= max) sentenceEnd = end;
  }
  if (sentenceEnd > 0) return trimmed.slice(0, sentenceEnd).trimEnd();
  // One sentence longer than the limit: whole words, and an ellipsis that says the text goes on.
  const room = max - ELLIPSIS.length;
  const cut = trimmed.slice(0, room + 1);
  const space = cut.search(/\s\S*$/);
  const words = space > 0 ? cut.slice(0, space).trimEnd() : "";
  return words === "" ? "" : `${words}${ELLIPSIS}`;
}
