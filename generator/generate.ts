import { createHash } from "node:crypto";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { buildIR } from "./ir/build.js";
import type { IR } from "./ir/types.js";
import type { PythonOptions } from "./emit/python/view.js";
import { createKit, type EmitKit, type EmittedFile, type Emitter } from "./emit/kit.js";
import { startTypesWorker } from "./emit/openapi-types.js";
import { emitTypes } from "./emit/types.js";
import { emittersFor, type LanguageName, type OptionalOutput } from "./languages.js";
import { LARGE_DESCRIPTION_BYTES, type LoadedDescription, startChecks } from "./spec/load.js";
import { confinedPath } from "./output.js";
import { readDescription } from "./spec/read.js";

/** Every emitter of every language and optional output, each a plugin over the IR. */
export const EMITTERS: readonly Emitter[] = await emittersFor();

export interface Generation {
  readonly description: LoadedDescription;
  readonly ir: IR;
  /** Sorted by path, manifest last. */
  readonly files: readonly EmittedFile[];
}

export interface GenerateOptions {
  /** The emitters to run, instead of those of `languages` and `outputs`. */
  readonly emitters?: readonly Emitter[];
  /** The languages to write (default: every registered one, see languages.ts). */
  readonly languages?: readonly LanguageName[];
  /** The optional outputs to write (default: all: fixtures and the IR). */
  readonly outputs?: readonly OptionalOutput[];
  /** The TypeScript SDK's npm package name: when given, the output is a package (package.json, build configs). */
  readonly typescriptPackage?: string | undefined;
  /**
   * How the generated TypeScript imports the runtime (default: its package, `@paperoffice/sdk-runtime`). A path
   * (see runtimeModuleFor) imports the runtime's sources instead, as this repository's own generated/ does.
   */
  readonly runtimeModule?: string | undefined;
  /** Told when each step starts (reading, checking, the IR, the emitters), for progress on a terminal. */
  readonly onStep?: (step: string) => void;
  /** Distribution and module names of the Python package (default: derived from the description's title). */
  readonly python?: PythonOptions | undefined;
}

/** The module specifier of runtime/index.js as seen from an output folder. */
export function runtimeModuleFor(outDir: string): string {
  const path = relative(resolve(outDir), fileURLToPath(new URL("../runtime/index.js", import.meta.url)))
    .split(sep)
    .join("/");
  return path.startsWith(".") ? path : `./${path}`;
}

/** Runs the emitters over the IR of a description; writes nothing. */
export async function generate(source: string, options: GenerateOptions = {}): Promise<Generation> {
  const step = options.onStep ?? (() => {});
  step(`reading ${source}`);
  const raw = await readDescription(source);
  const emitters =
    options.emitters ??
    (await emittersFor(options.languages, options.outputs, {
      typescriptPackage: options.typescriptPackage,
      python: options.python,
    }));
  // openapi-typescript's worker is the longest part on a large description: it starts now, to load while the
  // description is checked and its IR built.
  const typesWorker = raw.text.length >= LARGE_DESCRIPTION_BYTES && emitters.includes(emitTypes) ? startTypesWorker() : undefined;
  try {
    step("checking the description");
    const { description, verdict } = await startChecks(raw);
    // The IR and the emitters run while a large description's schema check finishes in a worker. Its problems
    // come first: the IR of an invalid description may fail in ways that say less.
    const built = await createKit(["readme"], options.runtimeModule, typesWorker, options.typescriptPackage)
      .then((kit) => emitAll(description, emitters, kit, step))
      .then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
    const failure = await verdict;
    if (failure) throw failure;
    if ("error" in built) throw built.error;
    return built.result;
  } finally {
    typesWorker?.cancel(); // when no emitter used it
  }
}

async function emitAll(
  description: LoadedDescription,
  emitters: readonly Emitter[],
  kit: EmitKit,
  step: (text: string) => void,
): Promise<Generation> {
  step("building the intermediate model");
  const ir = buildIR(description);
  // The emitters run together; the step names those still running.
  const running = new Set(emitters.map((e, i) => e.name.replace(/^emit/, "").toLowerCase() || `emitter ${i + 1}`));
  step(`emitting ${[...running].join(", ")}`);
  const emitted = await Promise.all(
    emitters.map(async (emit, i) => {
      const files = await emit(ir, kit);
      running.delete(emit.name.replace(/^emit/, "").toLowerCase() || `emitter ${i + 1}`);
      if (running.size > 0) step(`emitting ${[...running].join(", ")}`);
      return files;
    }),
  );
  const files = emitted.flat().sort((a, b) => (a.path < b.path ? -1 : 1));
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.path)) throw new Error(`two emitters wrote ${f.path}`);
    seen.add(f.path);
  }
  const manifest = {
    release: ir.info.version,
    descriptionHash: ir.info.descriptionHash,
    irVersion: ir.irVersion,
    files: Object.fromEntries(files.map((f) => [f.path, createHash("sha256").update(f.content).digest("hex")])),
  };
  return { description, ir, files: [...files, { path: "manifest.json", content: `${JSON.stringify(manifest, null, 2)}\n` }] };
}

/** Replaces the output folder's content with the files: stale files of an earlier run do not survive. */
export async function writeFiles(outDir: string, files: readonly EmittedFile[]): Promise<void> {
  // Every path is checked before anything is removed: a file outside the folder fails the run with the folder intact.
  const root = resolve(outDir);
  for (const file of files) {
    const target = resolve(root, file.path);
    if (file.path === "" || !target.startsWith(`${root}${sep}`))
      throw new Error(`refusing to write ${JSON.stringify(file.path)}: outside ${outDir}`);
  }
  await mkdir(outDir, { recursive: true });
  for (const entry of await readdir(outDir)) await rm(join(outDir, entry), { recursive: true, force: true });
  for (const file of files) {
    const target = confinedPath(outDir, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.content);
  }
}
