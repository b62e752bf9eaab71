import { createHash } from "node:crypto";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { buildIR } from "./ir/build.js";
import type { IR } from "./ir/types.js";
import { createKit, type EmitKit, type EmittedFile, type Emitter } from "./emit/kit.js";
import { emittersFor, type LanguageName, type OptionalOutput, type TargetOptions } from "./languages.js";
import { LARGE_DESCRIPTION_BYTES, type LoadedDescription, startChecks } from "./spec/load.js";
import { confinedPath } from "./output.js";
import { readDescription } from "./spec/read.js";

export interface Generation {
  readonly description: LoadedDescription;
  readonly ir: IR;
  /** Sorted by path, manifest last. */
  readonly files: readonly EmittedFile[];
}

export interface GenerateOptions {
  /** The emitters to run, instead of those of `languages` and `outputs`. */
  readonly emitters?: readonly Emitter[];
  /** The languages to write (default: every registered one, see targets/index.ts). */
  readonly languages?: readonly LanguageName[];
  /** The optional outputs to write (default: all: fixtures and the IR). */
  readonly outputs?: readonly OptionalOutput[];
  /** Each target's options by target name, as the configuration file's blocks of the same names hold them. */
  readonly targets?: TargetOptions;
  /** The folder the files will be written to, when known: targets resolve paths of their options from it. */
  readonly outDir?: string | undefined;
  /** Told when each step starts (reading, checking, the IR, the emitters), for progress on a terminal. */
  readonly onStep?: (step: string) => void;
}

/** Runs the emitters over the IR of a description; writes nothing. */
export async function generate(source: string, options: GenerateOptions = {}): Promise<Generation> {
  const step = options.onStep ?? (() => {});
  step(`reading ${source}`);
  const raw = await readDescription(source);
  const { emitters, dispose } =
    options.emitters === undefined
      ? await emittersFor(options.languages, options.outputs, options.targets, {
          descriptionBytes: raw.text.length,
          large: raw.text.length >= LARGE_DESCRIPTION_BYTES,
          outDir: options.outDir,
        })
      : { emitters: [...options.emitters], dispose: () => {} };
  try {
    step("checking the description");
    const { description, verdict } = await startChecks(raw);
    // The IR and the emitters run while a large description's schema check finishes in a worker. Its problems
    // come first: the IR of an invalid description may fail in ways that say less.
    const built = await emitAll(description, emitters, createKit(), step).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    const failure = await verdict;
    if (failure) throw failure;
    if ("error" in built) throw built.error;
    return built.result;
  } finally {
    dispose(); // what a target started and no emitter used
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
