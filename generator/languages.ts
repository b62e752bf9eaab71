// The languages the generator writes, registered here and nowhere else: the command, the configuration file's
// schema (test/generator/languages.test.ts keeps it in step) and the docs read this list. A language's emitters are
// loaded only when a run writes it, so that the command answers --help and mistakes without loading them.
// docs/adding-a-language.md says what a new entry needs.
import type { Emitter } from "./emit/kit.js";
import type { PythonOptions } from "./emit/python/view.js";

/** What a language's emitters may take from the options of a run. */
export interface LanguageOptions {
  /** The TypeScript SDK's package name: when given, the output is an npm package (package.json, build configs). */
  readonly typescriptPackage?: string | undefined;
  /** The Python package's distribution and module names (default: derived from the description's title). */
  readonly python?: PythonOptions | undefined;
}

export interface Language {
  /** One line for the docs. */
  readonly summary: string;
  /** The emitters of the language, given the run's options. */
  readonly emitters: (options: LanguageOptions) => Promise<readonly Emitter[]>;
}

export const LANGUAGES = {
  typescript: {
    summary:
      "the TypeScript client at the output folder's top (index.ts, webhooks.ts, ...) and README.md; with a package name, package.json",
    emitters: async (options) => {
      const [types, requests, schemas, operations, errors, model, entry, readme, pkg] = await Promise.all([
        import("./emit/types.js"),
        import("./emit/client/requests.js"),
        import("./emit/client/schemas.js"),
        import("./emit/client/operations.js"),
        import("./emit/client/errors.js"),
        import("./emit/client/model.js"),
        import("./emit/client/entry.js"),
        import("./emit/readme.js"),
        import("./emit/ts-package.js"),
      ]);
      return [
        types.emitTypes,
        requests.emitRequests,
        schemas.emitSchemas,
        operations.emitOperations,
        errors.emitErrors,
        model.emitModel,
        entry.emitEntry,
        readme.emitReadme,
        ...(options.typescriptPackage === undefined ? [] : [pkg.typescriptPackage(options.typescriptPackage)]),
      ];
    },
  },
  python: {
    summary: "the Python client below python/",
    emitters: async (options) => {
      const python = await import("./emit/python/index.js");
      return [options.python === undefined ? python.emitPython : python.pythonEmitter(options.python)];
    },
  },
} as const satisfies Record<string, Language>;

export type LanguageName = keyof typeof LANGUAGES;
export const LANGUAGE_NAMES = Object.keys(LANGUAGES) as LanguageName[];

/** Outputs that serve every language and can be left out. */
export const OPTIONAL_OUTPUTS = {
  fixtures: {
    summary: "fixtures/: a valid request and a response per status for every operation",
    emitter: async () => (await import("./emit/fixtures/index.js")).emitFixtures,
  },
  ir: { summary: "ir.json: the intermediate model", emitter: async () => (await import("./emit/ir-json.js")).emitIrJson },
} as const satisfies Record<string, { summary: string; emitter: () => Promise<Emitter> }>;

export type OptionalOutput = keyof typeof OPTIONAL_OUTPUTS;
export const OPTIONAL_OUTPUT_NAMES = Object.keys(OPTIONAL_OUTPUTS) as OptionalOutput[];

/** The emitters of a run: the chosen languages', then the chosen optional outputs'. */
export async function emittersFor(
  languages: readonly LanguageName[] = LANGUAGE_NAMES,
  outputs: readonly OptionalOutput[] = OPTIONAL_OUTPUT_NAMES,
  options: LanguageOptions = {},
): Promise<Emitter[]> {
  const chosen = await Promise.all([
    ...languages.map((l) => LANGUAGES[l].emitters(options)),
    ...outputs.map(async (o) => [await OPTIONAL_OUTPUTS[o].emitter()]),
  ]);
  return chosen.flat();
}
