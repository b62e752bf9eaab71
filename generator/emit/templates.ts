// Handlebars templates, compiled once. Handlebars.precompile's JavaScript of a template is kept in the project's tool
// cache (node_modules/.cache/paperoffice-sdk/templates/), named by the hash of the template's text, the options and
// Handlebars' version; a later run loads it as a module and renders it with Handlebars' runtime alone, so that
// neither its compiler loads nor any template is compiled again. Without node_modules templates compile in memory.
// The build does the same for the templates it ships: `npm run build` writes them, by the same names, to
// dist/generator/emit/compiled/, which a run reads first, so that even its first run compiles none.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type Handlebars from "handlebars";
import { toolCachePath } from "../tool-cache.js";

type HandlebarsApi = typeof Handlebars;
export type Template = HandlebarsTemplateDelegate;

const require = createRequire(import.meta.url);
/**
 * Output is code, not HTML: nothing is escaped; a name a template uses that its data lacks is an error. A copy goes
 * to Handlebars each time: its compiler adds fields to the options it is given.
 */
const options = () => ({ noEscape: true, strict: true });
const OPTIONS_TEXT = JSON.stringify(options());

/** A Handlebars environment of its own, with the runtime only (render, no compiler). */
export function templateEnvironment(): HandlebarsApi {
  return (require("handlebars/runtime") as HandlebarsApi).create();
}

/** The templates the build compiled ahead, beside this module. */
export const COMPILED_DIR = fileURLToPath(new URL("./compiled/", import.meta.url));

/**
 * The file name of a template's compiled code: the hash of its text, the options and Handlebars' version, cut to 24
 * hex digits (96 bits) as the validators' names are. A whole sha256 made the package's path longer than the 100
 * characters a tar header's name holds, and tools that read only that field (publint among them) lost the folder.
 */
export function templateFile(version: string, text: string): string {
  return `${createHash("sha256").update(`${version}\0${OPTIONS_TEXT}\0${text}`).digest("hex").slice(0, 24)}.cjs`;
}

/** The module of a template's compiled code, as the cache and the build write it. */
export function precompiledModule(text: string): string {
  const compiler = require("handlebars") as HandlebarsApi;
  return `module.exports = ${compiler.precompile(text, options()) as unknown as string};\n`;
}

/** The template of `text` in `env`, compiled (and kept) only when neither the build nor the cache holds it yet. */
export function compiledTemplate(env: HandlebarsApi, text: string): Template {
  const name = templateFile(env.VERSION, text);
  const shipped = join(COMPILED_DIR, name);
  if (existsSync(shipped)) return env.template(require(shipped) as TemplateSpecification);
  const file = toolCachePath("templates", name);
  if (file !== undefined && existsSync(file)) {
    try {
      return env.template(require(file) as TemplateSpecification);
    } catch {
      // a damaged entry: compiled again below, and replaced
    }
  }
  const compiler = require("handlebars") as HandlebarsApi;
  if (file !== undefined) {
    try {
      const code = precompiledModule(text);
      mkdirSync(join(file, ".."), { recursive: true });
      // Written aside, then renamed: a run beside this one reads a whole entry or none.
      const aside = `${file}.${process.pid}.tmp`;
      writeFileSync(aside, code);
      renameSync(aside, file);
      return env.template(require(file) as TemplateSpecification);
    } catch {
      // a cache that cannot be written: compiled in memory
    }
  }
  return compiler.create().compile(text, options());
}
