import { readdirSync } from "node:fs";
import type { IR } from "../ir/types.js";
import { type CommentEscaper, type CommentStyle, type EmitKit, type EmittedFile, type Emitter, htmlCommentText } from "./kit.js";

/**
 * What a language's view module hands the templates: where the files go, the comment syntax of the
 * generated header, and one data object that every template of the language receives.
 */
export interface LanguageView {
  /** Output folder below generated/, with forward slashes (for example `python`). */
  readonly outDir: string;
  /** The generated header's comment: a line comment's prefix (`//`, `#`, `--`) or a block comment's ends. */
  readonly comment: CommentStyle;
  /** The language's own comment escaper for the header's text: required, since no escaper is safe in every language. */
  readonly commentEscaper: CommentEscaper;
  readonly data: object;
  /**
   * Templates rendered more than once, each time to another file with more data (for example one client template
   * for a blocking and an asyncio module). A template listed here renders only these files.
   */
  readonly variants?: Readonly<Record<string, readonly { readonly file: string; readonly data: object }[]>>;
  /** Where a rendered file goes below outDir (default: its name), for example into the package's own folder. */
  readonly place?: (file: string) => string;
}

/**
 * The templates of a folder: every `<file>.hbs`, sorted. Each renders the file `<file>` (the template's name without
 * `.hbs`) of the output folder.
 */
export function languageTemplates(templates: URL): string[] {
  return readdirSync(templates)
    .filter((f) => f.endsWith(".hbs"))
    .sort();
}

/**
 * Without the spaces templates leave at the ends of lines, and with at most two blank lines in a row. A large
 * description's file is tens of MB: each replacement copies it whole, so it is made only where there is something
 * to replace.
 */
function tidy(text: string): string {
  let tidied = text;
  // A run of blanks is tried from its first one only: from each of them, an indentation of n blanks cost n^2 steps.
  if (/[ \t]$/m.test(tidied)) tidied = tidied.replace(/(?<![ \t])[ \t]+$/gm, "");
  if (/\n{4,}(?=\S)/.test(tidied)) tidied = tidied.replace(/\n{3,}(?=\S)/g, (m) => (m.length > 3 ? "\n\n\n" : m));
  return tidied;
}

/**
 * An emitter for a template-driven target: the view module computes data from the IR, each template of the target's
 * template folder renders one file, and every file starts with the generated header.
 * Nothing here knows the language; a new one is a folder of templates and a view function.
 */
export function templatedEmitter(templates: URL, view: (ir: IR) => LanguageView): Emitter {
  return async (ir: IR, kit: EmitKit): Promise<readonly EmittedFile[]> => {
    const { outDir, comment, commentEscaper, data, variants = {}, place = (file: string) => file } = view(ir);
    // What the view was computed from (a large description's many short strings) is garbage from here on.
    kit.collect();
    const header = kit.header(ir, comment, commentEscaper);
    // Markdown has no line comment: its files carry the same header as an HTML comment.
    const markdownHeader = kit.header(ir, { open: "<!--", close: "-->" }, htmlCommentText);
    return languageTemplates(templates).flatMap((file) => {
      const name = file.slice(0, -".hbs".length);
      const renders = variants[name]?.map((v) => ({ file: v.file, data: { ...data, ...v.data } })) ?? [{ file: name, data }];
      return renders.map((r) => {
        const body = kit.render(templates, name, r.data);
        const text = tidy(`${r.file.endsWith(".md") ? markdownHeader : header}${body}`);
        return { path: `${outDir}/${place(r.file)}`, content: text.endsWith("\n") ? text : `${text}\n` };
      });
    });
  };
}
