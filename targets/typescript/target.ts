// The TypeScript target: the client at the output folder's top, types by openapi-typescript, code by TypeScript's
// factory and printer, over the runtime package in runtime/ beside this file.
import type { Target } from "../../generator/target.js";

/** The target's options, as its block of the configuration file holds them. */
export interface TypeScriptOptions {
  /** The SDK's npm package name: when given, the output is a package (package.json, build configs). */
  readonly package?: string;
  /** A folder of the runtime's TypeScript sources, imported by path instead of the runtime's package. */
  readonly runtimeSources?: string;
  /** The runtime's module specifier as the generated code writes it (default: the runtime's package). */
  readonly runtimeModule?: string;
}

export const target: Target = {
  summary: "the TypeScript client at the output folder's top (index.ts, webhooks.ts, ...) and README.md; with a package name, package.json",
  optionsSchema: {
    type: "object",
    additionalProperties: false,
    properties: {
      package: {
        description:
          "The TypeScript SDK's npm package name; when given, the output is a package (package.json, builds, README with its install line).",
        type: "string",
        pattern: "^(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$",
      },
      runtimeSources: {
        description:
          "A folder holding the runtime's TypeScript sources, imported by path instead of the runtime's package (for the toolchain's own repository).",
        type: "string",
        minLength: 1,
      },
      runtimePackage: {
        description:
          "`publish`: the runtime's npm package, a tarball of `npm pack` or its built folder (default: the runtime's tarball the toolchain's package carries; in the toolchain's repository, runtime/dist).",
        type: "string",
        minLength: 1,
      },
      runtimeModule: {
        description: "The runtime's module specifier as the generated code writes it (default: the runtime's package).",
        type: "string",
        minLength: 1,
      },
    },
  },
  pathOptions: ["runtimeSources", "runtimePackage"],
  flags: { package: { option: "package", help: "the TypeScript SDK's npm package name: writes package.json and its builds" } },
  load: async (raw, context) => {
    const options = raw as TypeScriptOptions;
    const { typescriptEmitters } = await import("./emit/index.js");
    // openapi-typescript runs in this thread, also on a large description: in a worker its syntax tree (about 600 MB
    // on MS Graph's description) took a heap of its own on top of this thread's, and the whole run peaked at 1.5 to
    // 1.8 GiB; here it reuses the memory the other emitters free, and the run's peak stays near the tree's own.
    return typescriptEmitters(options, context);
  },
  check: async (outDir) => (await import("./emit/check.js")).checkTypeScriptClient(outDir),
  publish: async (outDir, options, context) => (await import("./publish/index.js")).publishTypeScript(outDir, options, context),
  publishPrerequisites: async (options, context) => (await import("./publish/prerequisites.js")).typescriptPrerequisites(options, context),
  typeTest: {
    extensions: [".ts", ".mts", ".cts"],
    check: async (source, testFile, root) => (await import("./emit/types-check.js")).checkTypes(source, testFile, root),
  },
};
