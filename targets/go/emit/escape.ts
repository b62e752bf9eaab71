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

/** The width a doc comment's text is wrapped at, after `// ` and the indentation. */
export const GO_DOC_WIDTH = 100;

/** What a doc comment says after its first paragraph. */
export interface GoDocMore {
  /** Paragraphs after the description (facts the generator adds), each as plain text. */
  readonly after?: readonly (string | undefined)[];
  /** The text of a `Deprecated:` paragraph, which ends the comment. */
  readonly deprecated?: string | undefined;
}

/** A block of a doc comment: a paragraph, a list or preformatted lines. */
export type GoDocBlock =
  | { readonly kind: "paragraph"; readonly text: string }
  | { readonly kind: "list"; readonly items: readonly { readonly number?: string; readonly text: string }[] }
  | { readonly kind: "code"; readonly lines: readonly string[] };

/**
 * A doc comment for a declaration, in the form gofmt keeps and pkg.go.dev shows: `// <name> <lead>` as the first
 * paragraph (the declared name first, as Go's convention asks, which also keeps the comment from starting with a
 * list marker), then the description's paragraphs, lists and code blocks, then `more`'s paragraphs and a
 * `Deprecated:` paragraph, an empty `//` line between blocks and paragraphs wrapped at GO_DOC_WIDTH.
 */
export function goDoc(name: string, lead: string, text: string | undefined, indent = "", more: GoDocMore = {}): string {
  const first = goComment(lead);
  const blocks: GoDocBlock[] = [{ kind: "paragraph", text: first === "" ? name : `${name} ${first}` }];
  blocks.push(...docBlocks(text ?? ""));
  for (const paragraph of more.after ?? []) {
    const plain = goComment(paragraph ?? "");
    if (plain !== "") blocks.push({ kind: "paragraph", text: plain });
  }
  if (more.deprecated !== undefined) blocks.push({ kind: "paragraph", text: `Deprecated: ${goComment(more.deprecated)}` });
  return renderDoc(blocks, indent);
}

/**
 * The first sentence of a method's doc from an operation's summary: `Read a document` -> `reads a document.`, with
 * an imperative verb put in the third person; a summary that does not start with a verb follows `returns` for a
 * read (`Daily document counts` -> `returns daily document counts.`) and is quoted after `calls <route>:`
 * otherwise. undefined for no summary.
 */
export function summaryLead(summary: string | undefined, method: string, route: string): string | undefined {
  const text = goComment(summary ?? "").replace(/\.+$/, "");
  if (text === "") return undefined;
  const end = /[.!?]$/.test(text) ? "" : ".";
  const match = /^([A-Za-z]+)(?=$|[^A-Za-z])/.exec(text);
  const word = match?.[1] ?? "";
  const lower = word.toLowerCase();
  const rest = text.slice(word.length);
  if (word !== "" && IMPERATIVE_VERBS.has(lower) && !/^[A-Z]{2}/.test(word)) return `${thirdPerson(lower)}${rest}${end}`;
  if (word !== "" && IMPERATIVE_VERBS.has(stem(lower)) && !/^[A-Z]{2}/.test(word)) return `${lower}${rest}${end}`;
  if (method === "get" || method === "head") return `returns ${lowerFirst(text)}${end}`;
  return `calls ${route}: ${text}${end}`;
}

/** Verbs an operation's summary starts with in the imperative (`List the jobs`). */
const IMPERATIVE_VERBS = new Set(
  (
    "accept activate add analyze append apply approve archive assign attach authorize block build calculate cancel change " +
    "check clear clone close compare complete compute confirm connect convert copy count create deactivate decline decode " +
    "delete describe detach disable download duplicate edit enable encode end enqueue estimate execute expire explain " +
    "export extract fetch find finish generate get grant import init initialize insert invalidate invite invoke issue " +
    "join launch link list load lock log look make mark merge modify move notify open patch pause ping poll post preview " +
    "process publish purge push put query queue read rebuild receive redact redeem refresh register reject release reload " +
    "remove rename render renew reorder replace reply report request rerun reset resend resolve restart restore resume " +
    "retrieve retry return revert revoke rotate run save scan schedule search select send set share show sign split start " +
    "stop store stream submit subscribe suspend sync synthesize tag test transcribe transfer translate trigger unarchive " +
    "unassign unblock unlink unlock unpublish unsubscribe update upgrade upload upsert validate verify view watch write"
  ).split(" "),
);

/** `search` -> `searches`, `copy` -> `copies`, `read` -> `reads`. */
function thirdPerson(verb: string): string {
  if (/(?:s|sh|ch|x|z|o)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

/** The verb a third-person form stands for (`searches` -> `search`), or the word itself. */
function stem(word: string): string {
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(?:s|sh|ch|x|z|o)es$/.test(word)) return word.slice(0, -2);
  if (/[^s]s$/.test(word)) return word.slice(0, -1);
  return word;
}

/** Lower-cases the first letter unless the first word is an acronym or a name written with capitals inside. */
function lowerFirst(text: string): string {
  const word = /^[^\s/]+/.exec(text)?.[0] ?? "";
  return /^[A-Z][a-z0-9'-]*$/.test(word) || /^[A-Z]$/.test(word) ? `${text.charAt(0).toLowerCase()}${text.slice(1)}` : text;
}

/** Characters a description may hold that a Go comment must show as escapes; tabs become spaces. */
function commentLine(line: string): string {
  return line
    .replace(CONTROLS, hex4)
    .replace(LONE_SURROGATE, hex4)
    .replace(INVISIBLE, hex4)
    .replace(/\t/g, "    ")
    .replace(/\+build/g, "+ build")
    .trimEnd();
}

const FENCE = /^\s*(```+|~~~+)/;
const LIST_ITEM = /^\s{0,3}(?:[-*+\u2022]|(\d{1,9})[.)])\s+(.*)$/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/;

/**
 * The blocks of a description read as CommonMark's common subset: paragraphs (soft line breaks joined), bullet and
 * numbered lists, fenced code blocks and tables (kept line by line), headings (as paragraphs of their text) and
 * block quotes (as the text they quote).
 */
export function docBlocks(text: string): GoDocBlock[] {
  // A block quote's text is read as the text it quotes.
  const lines = text.split(LINE_BREAKS).map((l) => l.replace(/^ {0,3}(?:> ?)+/, ""));
  const blocks: GoDocBlock[] = [];
  let paragraph: string[] = [];
  let items: { number?: string; text: string }[] = [];
  const flush = () => {
    // A paragraph of one line starting with `# ` is a heading to gofmt.
    const joined = goComment(paragraph.join(" ")).replace(/^(?:#+ )+/, "");
    if (joined !== "") blocks.push({ kind: "paragraph", text: joined });
    paragraph = [];
    const listed = items.map((i) => ({ ...i, text: goComment(i.text) })).filter((i) => i.text !== "");
    if (listed.length > 0) blocks.push({ kind: "list", items: listed });
    items = [];
  };
  const code = (body: string[]) => {
    flush();
    const kept = body.map(commentLine);
    while (kept.length > 0 && kept[0] === "") kept.shift();
    while (kept.length > 0 && kept.at(-1) === "") kept.pop();
    if (kept.length === 0) return;
    // Go's doc comment parser takes off the indentation all lines share: taken off here, the text is as gofmt keeps it.
    const common = Math.min(...kept.filter((l) => l !== "").map((l) => /^ */.exec(l)![0].length));
    blocks.push({ kind: "code", lines: kept.map((l) => l.slice(common)) });
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trimStart().startsWith(fence[1]!); i++) body.push(lines[i]!);
      code(body);
      continue;
    }
    if (/^\s*\|/.test(line)) {
      const body = [line];
      while (i + 1 < lines.length && /^\s*\|/.test(lines[i + 1]!)) body.push(lines[++i]!);
      code(body);
      continue;
    }
    if (line.trim() === "") {
      // A blank line between two items keeps one list: gofmt would make two lists in a row one.
      const next = lines.slice(i + 1).find((l) => l.trim() !== "");
      if (!(items.length > 0 && next !== undefined && LIST_ITEM.test(next))) flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      paragraph.push(heading[1]!);
      flush();
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      if (paragraph.length > 0) flush();
      items.push({ ...(item[1] !== undefined && { number: item[1] }), text: item[2]! });
      continue;
    }
    if (items.length > 0) items[items.length - 1] = { ...items.at(-1)!, text: `${items.at(-1)!.text} ${line}` };
    else paragraph.push(line);
  }
  flush();
  return blocks;
}

/** A word that would start a list item at the start of an indented line. */
const MARKER_WORD = /^(?:[-*+\u2022]|\d{1,9}[.)])$/;

/**
 * Words of a text in lines of at most `width` characters (a longer word on a line of its own, whole). With
 * `markers` false, a word that reads as a list marker never starts a line (it stays at the end of the one before).
 */
export function wrapWords(text: string, width: number, markers = true): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (word === "") continue;
    if (line === "") line = word;
    else if (line.length + 1 + word.length <= width || (!markers && MARKER_WORD.test(word))) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}

/**
 * The comment lines of blocks, as gofmt prints a doc comment: list items as `//   - item` and `//  1. item` with
 * continuation lines indented by four spaces, code lines after a tab. A one-line paragraph after the first that
 * ends in a letter or a digit gets a period: without one it could read as a heading to gofmt.
 */
function renderDoc(blocks: readonly GoDocBlock[], indent: string): string {
  const out: string[] = [];
  blocks.forEach((block, index) => {
    if (index > 0) out.push(`${indent}//`);
    switch (block.kind) {
      case "paragraph": {
        const wrapped = wrapWords(block.text, GO_DOC_WIDTH);
        if (index > 0 && wrapped.length === 1 && /[\p{L}\p{N}]$/u.test(block.text)) wrapped[0] = `${block.text}.`;
        for (const line of wrapped) out.push(`${indent}// ${line}`);
        break;
      }
      case "list":
        // Go's parser reads indented lines next to each other, blank lines between, as one block: a list beside a
        // code block is written as a paragraph per item, not indented.
        if (blocks[index - 1]?.kind === "code" || blocks[index + 1]?.kind === "code") {
          block.items.forEach((item, i) => {
            if (i > 0) out.push(`${indent}//`);
            const marker = item.number === undefined ? "-" : `${item.number}.`;
            for (const line of wrapWords(`${marker} ${item.text}`, GO_DOC_WIDTH)) out.push(`${indent}// ${line}`);
          });
          break;
        }
        for (const item of block.items) {
          const marker = item.number === undefined ? "  - " : ` ${item.number}. `;
          wrapWords(item.text, GO_DOC_WIDTH - 4, false).forEach((line, i) => {
            out.push(`${indent}// ${i === 0 ? marker : "    "}${line}`);
          });
        }
        break;
      case "code":
        for (const line of block.lines) out.push(line === "" ? `${indent}//` : `${indent}//\t${line}`);
        break;
    }
  });
  return out.join("\n");
}

/** Text for Markdown (the README): one line, with characters Markdown reads as markup escaped. */
export function markdownText(text: string): string {
  return goComment(text).replace(/[\\`*_{}[\]()<>#+!|~-]/g, (c) => `\\${c}`);
}

/** Text for inside a Markdown code span: one line, backticks (which would end it) written as quotes. */
export function markdownCode(text: string): string {
  return goComment(text).replace(/`/g, "'");
}
