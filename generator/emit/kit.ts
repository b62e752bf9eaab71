import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import Handlebars from "handlebars";
import type { IR } from "../ir/types.js";
import { pyComment } from "./escape/python.js";
import { tsLineComment } from "./escape/ts.js";
import type { TypesWorker } from "./openapi-types.js";

export interface EmittedFile {
  /** Relative to the output folder, with forward slashes. */
  readonly path: string;
  readonly content: string;
}

/** An emitter reads the IR only, and returns files; writing them is not its business. */
export type Emitter = (ir: IR, kit: EmitKit) => Promise<readonly EmittedFile[]>;

export interface EmitKit {
  /** How generated TypeScript imports the runtime, relative to the output folder. */
  readonly runtimeModule: string;
  /** Renders templates/<name>.hbs. */
  render(name: string, data: object): string;
  /** The generated-file header, as comment lines in the given comment syntax. */
  header(ir: IR, comment: "//" | "#"): string;
  /** openapi-typescript's worker, when the run started it early (on a large description) for emitTypes to use. */
  readonly typesWorker?: TypesWorker;
}

const templatesDir = new URL("../../templates/", import.meta.url);

/** Compiles the templates a run needs; each run gets its own handlebars environment, so nothing leaks between runs. */
export async function createKit(
  names: readonly string[],
  runtimeModule = "../runtime/index.js",
  typesWorker?: TypesWorker,
): Promise<EmitKit> {
  const hbs = Handlebars.create();
  const compiled = new Map<string, HandlebarsTemplateDelegate>();
  for (const name of ["header", ...names]) {
    const source = await readFile(new URL(`${name}.hbs`, templatesDir), "utf8");
    compiled.set(name, hbs.compile(source, { noEscape: true, strict: true }));
  }
  const render = (name: string, data: object): string => {
    let template = compiled.get(name);
    if (!template && name.includes("/")) {
      // A template of a subfolder (templates/<language>/<file>.hbs) is compiled on first use.
      template = hbs.compile(readFileSync(new URL(`${name}.hbs`, templatesDir), "utf8"), { noEscape: true, strict: true });
      compiled.set(name, template);
    }
    if (!template) throw new Error(`template "${name}" was not loaded`);
    return template(data);
  };
  return {
    runtimeModule,
    ...(typesWorker && { typesWorker }),
    render,
    // A line break in the title or version would end the comment early.
    header: (ir, comment) => {
      const line = comment === "#" ? pyComment : tsLineComment;
      return render("header", { comment, title: line(ir.info.title), version: line(ir.info.version), hash: line(ir.info.descriptionHash) });
    },
  };
}
