// The TypeScript target's emitters for one run, each bound to the run's TypeScript settings.
import type { Emitter } from "../../../generator/emit/kit.js";
import type { TargetContext, TargetRun } from "../../../generator/target.js";
import type { TypeScriptOptions } from "../target.js";
import { emitEntry } from "./client/entry.js";
import { emitErrors } from "./client/errors.js";
import { emitModel } from "./client/model.js";
import { emitOperations } from "./client/operations.js";
import { emitRequests } from "./client/requests.js";
import { emitSchemas } from "./client/schemas.js";
import { emitReadme } from "./readme.js";
import { type TsEmitter, type TsSettings, sourcesModule, tsKit } from "./ts-kit.js";
import { typescriptPackage } from "./ts-package.js";
import { emitTypes } from "./types.js";

/** The client's emitters, in the order the files are listed; the package's files come with a package name. */
export const CLIENT_EMITTERS: readonly TsEmitter[] = [
  emitTypes,
  emitRequests,
  emitSchemas,
  emitOperations,
  emitErrors,
  emitModel,
  emitEntry,
  emitReadme,
];

/** A TypeScript emitter as the core runs it: given the core's kit, it adds the run's TypeScript settings. */
export function bind(emit: TsEmitter, settings: TsSettings): Emitter {
  const bound: Emitter = (ir, kit) => emit(ir, tsKit(kit, settings));
  // Named as the emitter, for the progress line.
  return Object.defineProperty(bound, "name", { value: emit.name });
}

/** The module the generated code imports the runtime from: the options' module, the sources' path, or the package. */
export function runtimeModuleOf(options: TypeScriptOptions, outDir: string | undefined): string | undefined {
  if (options.runtimeModule !== undefined) return options.runtimeModule;
  if (options.runtimeSources === undefined) return undefined;
  if (outDir === undefined) throw new Error("typescript.runtimeSources needs the output folder to import the runtime from");
  return sourcesModule(outDir, options.runtimeSources);
}

export function typescriptEmitters(options: TypeScriptOptions, context: TargetContext): TargetRun {
  const settings: TsSettings = {
    runtimeModule: runtimeModuleOf(options, context.outDir),
    typescriptPackage: options.package,
    outputs: context.outputs,
  };
  const emitters = [...CLIENT_EMITTERS, ...(options.package === undefined ? [] : [typescriptPackage(options.package)])];
  return { emitters: emitters.map((e) => bind(e, settings)) };
}
