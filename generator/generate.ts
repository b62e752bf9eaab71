import { createHash } from "node:crypto";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { buildIR } from "./ir/build.js";
import type { IR } from "./ir/types.js";
import { createKit, type EmitKit, type EmittedFile, type Emitter, emitterName } from "./emit/kit.js";
import {
  emittersFor,
  LANGUAGE_NAMES,
  type LanguageName,
  missingRequirements,
  OPTIONAL_OUTPUT_NAMES,
  type OptionalOutput,
  type TargetOptions,
} from "./languages.js";
import { type CheckingDescription, LARGE_DESCRIPTION_BYTES, type LoadedDescription, startChecks } from "./spec/load.js";
import { type HashedFile, type Lane, laneSplit, secondLane } from "./lane.js";
import { EMITTER_GARBAGE_BYTES, garbageCollector } from "./memory.js";
import { confinedPath, type OutputWriter, type Staging, type WrittenFile } from "./output.js";
import { type RawDescription, readDescription } from "./spec/read.js";
import { type PluginSpec, pluginEmitter, pluginSpecProblem } from "./plugins/plugin.js";

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
  /**
   * Whether a worker thread runs the emitters of every language but the first, and the fixtures, beside this thread
   * (see lane.ts). Default: for a large description, on a machine of two cores or more. Not with `emitters`.
   */
  readonly parallel?: boolean;
  /** Generators as programs (plugins/plugin.ts), each writing below <out>/<its name>/, after the languages. */
  readonly plugins?: readonly PluginSpec[];
  /** Told when each step starts (reading, checking, the IR, the emitters), for progress on a terminal. */
  readonly onStep?: (step: string) => void;
}

/** Where a run hands its files, each emitter's as soon as the emitter has made them, the manifest last. */
export type FileSink = (files: readonly EmittedFile[]) => Promise<void>;

/** A run whose files went to a sink: its IR, and how many files it made (the manifest among them). */
export interface StreamedGeneration {
  readonly ir: IR;
  readonly files: number;
}

/** Runs the emitters over the IR of a description; writes nothing. */
export async function generate(source: string, options: GenerateOptions = {}): Promise<Generation> {
  const files: EmittedFile[] = [];
  let description: LoadedDescription | undefined;
  const ir = await run(
    source,
    options,
    async (made) => {
      files.push(...made);
    },
    (checked) => {
      description = checked;
    },
  );
  const manifest = files.pop()!;
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { description: description!, ir, files: [...files, manifest] };
}

/**
 * generate(), handing each emitter's files to `sink` as soon as the emitter returns them, then the manifest, and
 * keeping none: a large description's output (hundreds of MB) is never held whole. The sink's files of a run that
 * fails are the caller's to discard. Given an output being written (openOutput), a second lane's worker writes its
 * files into it itself, so that they need not wait for this thread's turn (nor be held until then).
 */
export async function generateInto(
  source: string,
  sink: FileSink | OutputWriter,
  options: GenerateOptions = {},
): Promise<StreamedGeneration> {
  let count = 0;
  const add = typeof sink === "function" ? sink : (files: readonly EmittedFile[]) => sink.add(files);
  const staged =
    typeof sink === "function"
      ? undefined
      : {
          staging: sink.staging,
          record: (files: readonly WrittenFile[]) => {
            count += files.length;
            sink.record(files);
          },
        };
  const ir = await run(
    source,
    options,
    async (made) => {
      count += made.length;
      await add(made);
    },
    undefined,
    staged,
  );
  return { ir, files: count };
}

/** An output folder being written, into whose staging folder a second lane's worker writes its own files. */
interface StagedOutput {
  readonly staging: Staging;
  record(files: readonly WrittenFile[]): void;
}

/**
 * The run of generate() and generateInto(). The description (its text and parsed document) is let go once its IR
 * is built, unless `keep` takes it: on a large description it is a few hundred MB the emitters do not need.
 */
async function run(
  source: string,
  options: GenerateOptions,
  sink: FileSink,
  keep?: (description: LoadedDescription) => void,
  staged?: StagedOutput,
): Promise<IR> {
  const step = options.onStep ?? (() => {});
  const taken = [...LANGUAGE_NAMES, ...OPTIONAL_OUTPUT_NAMES];
  for (const [i, plugin] of (options.plugins ?? []).entries()) {
    const problem = pluginSpecProblem(plugin, [...taken, ...(options.plugins ?? []).slice(0, i).map((p) => p.name)]);
    if (problem) throw new Error(problem);
  }
  if (options.emitters === undefined) {
    const missing = await missingRequirements(options.languages ?? LANGUAGE_NAMES);
    if (missing.length > 0) throw new Error(missing.join("\n"));
  }
  step(`reading ${source}`);
  let raw: RawDescription | undefined = await readDescription(source);
  const large = raw.text.length >= LARGE_DESCRIPTION_BYTES;
  const collect = large ? garbageCollector(EMITTER_GARBAGE_BYTES) : () => {};
  const context = {
    descriptionBytes: raw.text.length,
    large,
    outDir: options.outDir,
    // What else lands beside the languages, for the files a README lists.
    outputs: options.emitters === undefined ? (options.outputs ?? OPTIONAL_OUTPUT_NAMES) : undefined,
  };
  const split =
    options.emitters === undefined && (options.parallel ?? large)
      ? laneSplit(options.languages ?? LANGUAGE_NAMES, options.outputs ?? OPTIONAL_OUTPUT_NAMES)
      : undefined;
  // The worker loads its languages and builds their emitters while this thread checks the description.
  const lane = split && secondLane({ ...split.there, targets: options.targets, context, staging: staged?.staging });
  // A target of this thread that fails to load stops the worker too: it would wait for the IR for ever.
  const { emitters, dispose } =
    options.emitters === undefined
      ? await emittersFor(
          split?.here.languages ?? options.languages,
          split?.here.outputs ?? options.outputs,
          options.targets,
          context,
        ).catch((error: unknown) => {
          lane?.stop();
          throw error;
        })
      : { emitters: [...options.emitters], dispose: () => {} };
  emitters.push(...(options.plugins ?? []).map(pluginEmitter));
  try {
    step("checking the description");
    let checking: CheckingDescription | undefined = await startChecks(raw);
    raw = undefined;
    const verdict = checking.verdict;
    keep?.(checking.description);
    // The IR is built while a large description's schema check finishes in a worker. Its problems come first: the
    // IR of an invalid description may fail in ways that say less. The emitters start once it is done, so that the
    // worker's copy of the document is gone before their memory peaks.
    step("building the intermediate model");
    let ir: IR | undefined;
    let irError: unknown;
    try {
      ir = buildIR(checking.description);
    } catch (error) {
      irError = error;
    }
    checking = undefined;
    const failure = await verdict;
    if (failure) throw failure;
    if (ir === undefined) throw irError;
    // The description's text and document are garbage now: a few hundred MB on a large description, which go
    // before the emitters start. So does the garbage between emitters and between an emitter's steps (memory.ts).
    collect();
    // The manifest names the languages a run wrote, so that a later run of fewer languages knows whose files it would
    // remove (openOutput refuses that unless asked to prune).
    const languages =
      options.emitters === undefined
        ? [...(options.languages ?? LANGUAGE_NAMES), ...(options.plugins ?? []).map((p) => p.name)]
        : undefined;
    await emitAll(ir, emitters, createKit(collect), step, sink, collect, lane && { lane, staged }, languages);
    return ir;
  } finally {
    lane?.stop();
    dispose(); // what a target started and no emitter used
  }
}

/** Settles after the events already queued (I/O, timers) have had their turn: after every promise that can settle at once. */
const nextTurn = () => new Promise<undefined>((resolve) => setImmediate(() => resolve(undefined)));

/**
 * Runs the emitters one after another, handing each one's files to the sink as soon as it has returned them, then the
 * manifest: the run holds one emitter's output at a time. An emitter that waits on other work (a worker, a child
 * process) does not hold up the next ones: its files go to the sink when it returns them. A second lane's emitters
 * run in its worker meanwhile, and their files go to the sink as the worker hands them over.
 */
async function emitAll(
  ir: IR,
  emitters: readonly Emitter[],
  kit: EmitKit,
  step: (text: string) => void,
  sink: FileSink,
  betweenEmitters: () => void,
  second?: { readonly lane: Lane; readonly staged: StagedOutput | undefined },
  languages?: readonly string[],
): Promise<void> {
  const hashes = new Map<string, string>();
  // One batch at a time, in the order the emitters returned them.
  let queue: Promise<void> = Promise.resolve();
  const take = (files: readonly (EmittedFile | HashedFile)[]): Promise<void> => {
    queue = queue.then(async () => {
      for (const f of files) {
        if (hashes.has(f.path)) throw new Error(`two emitters wrote ${f.path}`);
        hashes.set(f.path, "sha256" in f ? f.sha256 : createHash("sha256").update(f.content).digest("hex"));
      }
      await sink(files.map((f) => ("sha256" in f ? { path: f.path, content: f.content } : f)));
      betweenEmitters();
    });
    return queue;
  };
  // The step names the emitters still running.
  const running = new Set(emitters.map(emitterName));
  const returned = (name: string) => {
    running.delete(name);
    if (running.size > 0) step(`emitting ${[...running].join(", ")}`);
  };
  step(`emitting ${[...running].join(", ")}`);
  const waiting: Promise<void>[] = [];
  // Work still going on when this thread takes its next emitter: its failure ends the run at the next turn.
  let failure: { error: unknown } | undefined;
  const meanwhile = (work: Promise<void>) => {
    work.catch((error: unknown) => {
      failure ??= { error };
    });
    waiting.push(work);
  };
  if (second)
    meanwhile(
      second.lane.start(ir, {
        emitters: (names) => {
          for (const name of names) running.add(name);
          step(`emitting ${[...running].join(", ")}`);
        },
        files: (name, files) => {
          returned(name);
          return take(files);
        },
        staged: async (name, files) => {
          returned(name);
          // In turn with the batches of this thread, so that a path given twice is found either way.
          queue = queue.then(() => {
            for (const f of files) {
              if (hashes.has(f.path)) throw new Error(`two emitters wrote ${f.path}`);
              hashes.set(f.path, f.sha256);
            }
            second.staged!.record(files);
            betweenEmitters();
          });
          return queue;
        },
      }),
    );
  try {
    for (let i = 0; i < emitters.length; i++) {
      if (failure) throw failure.error;
      const emit = emitters[i]!;
      const made = emit(ir, kit);
      const now = await Promise.race([made.then((files) => ({ files })), nextTurn()]);
      if (now === undefined) {
        meanwhile(
          made.then((files) => {
            returned(emitterName(emit, i));
            return take(files);
          }),
        );
      } else {
        returned(emitterName(emit, i));
        await take(now.files);
      }
    }
    await Promise.all(waiting);
  } catch (error) {
    throw failure?.error ?? error; // the first error
  }
  const paths = [...hashes.keys()].sort((a, b) => (a < b ? -1 : 1));
  const manifest = {
    release: ir.info.version,
    descriptionHash: ir.info.descriptionHash,
    irVersion: ir.irVersion,
    ...(languages && { languages: [...languages].sort() }),
    files: Object.fromEntries(paths.map((p) => [p, hashes.get(p)!])),
  };
  await sink([{ path: "manifest.json", content: `${JSON.stringify(manifest, null, 2)}\n` }]);
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
