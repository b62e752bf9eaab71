import { createHash } from "node:crypto";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { buildIR } from "./ir/build.js";
import type { IR } from "./ir/types.js";
import { emitEntry } from "./emit/client/entry.js";
import { emitErrors } from "./emit/client/errors.js";
import { emitModel } from "./emit/client/model.js";
import { emitOperations } from "./emit/client/operations.js";
import { emitRequests } from "./emit/client/requests.js";
import { emitFixtures } from "./emit/fixtures/index.js";
import { emitIrJson } from "./emit/ir-json.js";
import { emitPython } from "./emit/python/index.js";
import { createKit, type EmitKit, type EmittedFile, type Emitter } from "./emit/kit.js";
import { startTypesWorker } from "./emit/openapi-types.js";
import { emitReadme } from "./emit/readme.js";
import { emitTypes } from "./emit/types.js";
import { LARGE_DESCRIPTION_BYTES, type LoadedDescription, startChecks } from "./spec/load.js";
import { readDescription } from "./spec/read.js";

/** Every emitter, each a plugin over the IR. */
export const EMITTERS: readonly Emitter[] = [
  emitTypes,
  emitRequests,
  emitOperations,
  emitErrors,
  emitModel,
  emitEntry,
  emitFixtures,
  emitIrJson,
  emitReadme,
  emitPython,
];

export interface Generation {
  readonly description: LoadedDescription;
  readonly ir: IR;
  /** Sorted by path, manifest last. */
  readonly files: readonly EmittedFile[];
}

export interface GenerateOptions {
  readonly emitters?: readonly Emitter[];
  /** The runtime's module as imported from the output folder (default: `../runtime/index.js`, for generated/). */
  readonly runtimeModule?: string;
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
  const raw = await readDescription(source);
  const emitters = options.emitters ?? EMITTERS;
  // openapi-typescript's worker is the longest part on a large description: it starts now, to load while the
  // description is checked and its IR built.
  const typesWorker = raw.text.length >= LARGE_DESCRIPTION_BYTES && emitters.includes(emitTypes) ? startTypesWorker() : undefined;
  try {
    const { description, verdict } = await startChecks(raw);
    // The IR and the emitters run while a large description's schema check finishes in a worker. Its problems
    // come first: the IR of an invalid description may fail in ways that say less.
    const built = await createKit(["readme"], options.runtimeModule, typesWorker)
      .then((kit) => emitAll(description, emitters, kit))
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

async function emitAll(description: LoadedDescription, emitters: readonly Emitter[], kit: EmitKit): Promise<Generation> {
  const ir = buildIR(description);
  const files = (await Promise.all(emitters.map((emit) => emit(ir, kit)))).flat().sort((a, b) => (a.path < b.path ? -1 : 1));
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
    const target = join(outDir, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.content);
  }
}
