// A second lane for a large description's emitters: a worker thread runs the emitters of every language but the
// first, and the fixtures, while this thread runs the first language's, then ir.json. One after another, a large
// description's emitters leave the machine's other core idle for most of the run (MS Graph's: half a minute).
// Each language's emitters stay in one thread, so that each thread loads only its own languages' modules (the
// TypeScript target's compiler is not loaded twice), and the worker's heap holds the IR and its own output only.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { Worker } from "node:worker_threads";
import type { EmittedFile } from "./emit/kit.js";
import type { IR } from "./ir/types.js";
import type { LanguageName, OptionalOutput, TargetOptions } from "./languages.js";
import type { Staging, WrittenFile } from "./output.js";
import type { TargetContext } from "./target.js";

/** The languages and outputs of a run, as this thread and the worker share them. */
export interface LaneSplit {
  /** This thread's. */
  readonly here: { readonly languages: readonly LanguageName[]; readonly outputs: readonly OptionalOutput[] };
  /** The worker's. */
  readonly there: { readonly languages: readonly LanguageName[]; readonly outputs: readonly OptionalOutput[] };
}

/**
 * Outputs made in this thread, after its language's emitters. ir.json is the IR printed whole: while it is made and
 * written it takes two to three times the IR's size (MS Graph's: a 94 MB string and its 47 MB of UTF-8). Made in the
 * worker, it met this thread's busiest moment and raised the run's peak (MS Graph's whole run: 948 MiB against 783
 * MiB here, one run each); here it comes once this thread's emitters have let their garbage go.
 */
const OUTPUTS_HERE: ReadonlySet<OptionalOutput> = new Set(["ir"]);

/**
 * How a run's languages and outputs are shared: the first language and ir.json here, the rest in the worker.
 * Undefined when there is nothing for the worker (one language and no output but ir.json) or no second core to
 * share the work with.
 */
export function laneSplit(languages: readonly LanguageName[], outputs: readonly OptionalOutput[]): LaneSplit | undefined {
  const [first, ...rest] = languages;
  const here = outputs.filter((o) => OUTPUTS_HERE.has(o));
  const there = outputs.filter((o) => !OUTPUTS_HERE.has(o));
  if (first === undefined || rest.length + there.length === 0 || availableParallelism() < 2) return undefined;
  return { here: { languages: [first], outputs: here }, there: { languages: rest, outputs: there } };
}

/** What the worker builds its emitters from. */
export interface LaneRequest {
  readonly languages: readonly LanguageName[];
  readonly outputs: readonly OptionalOutput[];
  readonly targets: TargetOptions | undefined;
  readonly context: TargetContext;
  /** The output folder being written, if any: the worker writes its files into it itself. */
  readonly staging?: Staging | undefined;
}

/** A file the worker made, with its SHA-256 (hex), which the worker computed so that this thread need not. */
export interface HashedFile extends EmittedFile {
  readonly sha256: string;
}

/** A file the worker wrote into the output's staging folder itself, with its SHA-256 (hex). */
export interface StagedFile extends WrittenFile {
  readonly sha256: string;
}

/** The messages of the worker. */
export type LaneMessage =
  | { readonly kind: "emitters"; readonly names: readonly string[] }
  | { readonly kind: "files"; readonly emitter: string; readonly files: readonly HashedFile[] }
  | { readonly kind: "staged"; readonly emitter: string; readonly files: readonly StagedFile[] }
  | { readonly kind: "done" }
  | { readonly kind: "failed"; readonly message: string; readonly stack?: string };

/** What the worker tells as it goes: the names of its emitters, then each one's files as it returns them. */
export interface LaneListener {
  emitters(names: readonly string[]): void;
  files(emitter: string, files: readonly HashedFile[]): Promise<void>;
  /** Files the worker wrote into the output's staging folder itself. */
  staged(emitter: string, files: readonly StagedFile[]): Promise<void>;
}

export interface Lane {
  /**
   * Hands the worker the IR; it runs its emitters one after another. Settles when the worker is done and its files
   * taken; rejects with the first emitter's error, as the run would fail with it in this thread.
   */
  start(ir: IR, listener: LaneListener): Promise<void>;
  /** Stops the worker (at once, whatever it is doing): the run failed, or ended. */
  stop(): void;
}

const WORKER_MODULE = new URL(`./lane-worker${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`, import.meta.url);

// Worker code given as text runs as CommonJS, or as an ES module where the process was started with
// `--input-type=module` (workers inherit the flags): it uses dynamic imports only, which both have. From the sources
// (tests, `npm run generate`), the worker loads the TypeScript module through tsx's tsImport, which leaves the
// thread's own loaders as they are.
const BOOTSTRAP = `
(async () => {
  const { parentPort, workerData } = await import("node:worker_threads");
  try {
    const { pathToFileURL } = await import("node:url");
    const lane = workerData.tsx === undefined
      ? await import(workerData.module)
      : await (await import(pathToFileURL(workerData.tsx).href)).tsImport(workerData.module, workerData.module);
    await lane.runLane(workerData, parentPort);
  } catch (error) {
    parentPort.postMessage({ kind: "failed", message: String((error && error.message) || error), stack: error && error.stack });
  }
})();
`;

/** The file of tsx's ESM API (the module its package's exports name for `import`), which has tsImport. */
function tsxApi(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve("tsx/package.json");
  const { exports } = JSON.parse(readFileSync(manifest, "utf8")) as { exports: Record<string, { import: { default: string } }> };
  const entry = exports["./esm/api"]?.import.default;
  if (entry === undefined) throw new Error("tsx's package names no ESM API (./esm/api)");
  return join(dirname(manifest), entry);
}

/**
 * Starts the worker: it loads its languages' modules and builds their emitters while this thread reads and checks
 * the description, then waits for the IR.
 */
export function secondLane(request: LaneRequest): Lane {
  const tsx = WORKER_MODULE.pathname.endsWith(".ts") ? tsxApi() : undefined;
  const worker = new Worker(BOOTSTRAP, { eval: true, workerData: { ...request, module: WORKER_MODULE.href, tsx } });
  // The worker's messages and its end are listened to from the start: it may fail before the IR is handed to it.
  let taken: Promise<void> = Promise.resolve();
  let listener: LaneListener | undefined;
  let failure: Error | undefined;
  let finished = false;
  let done = false; // the worker said it is done: it then ends on its own, which is no failure
  let settle: { resolve: () => void; reject: (error: Error) => void } | undefined;
  const early: LaneMessage[] = [];
  const end = (error?: Error) => {
    if (finished) return;
    finished = true;
    failure = error;
    void worker.terminate();
    if (settle) error ? settle.reject(error) : settle.resolve();
  };
  const receive = (message: LaneMessage) => {
    if (finished) return;
    if (listener === undefined && message.kind !== "failed") {
      early.push(message);
      return;
    }
    if (message.kind === "emitters") listener!.emitters(message.names);
    else if (message.kind === "files" || message.kind === "staged") {
      const batch = message;
      taken = taken.then(() =>
        batch.kind === "files" ? listener!.files(batch.emitter, batch.files) : listener!.staged(batch.emitter, batch.files),
      );
      taken.catch((error: Error) => end(error));
    } else if (message.kind === "done") {
      done = true;
      taken.then(
        () => end(),
        (error: Error) => end(error),
      );
    } else {
      // The emitter's own message, as the run would fail with it in this thread.
      const error = new Error(message.message);
      if (message.stack !== undefined) error.stack = message.stack;
      end(error);
    }
  };
  worker.on("message", receive);
  worker.on("error", (error) => end(error));
  worker.on("exit", (code) => {
    if (!done) end(new Error(`the second lane's worker stopped (exit code ${code}) before its emitters were done`));
  });
  return {
    start: (ir, given) =>
      new Promise<void>((resolve, reject) => {
        if (finished) {
          failure ? reject(failure) : resolve();
          return;
        }
        settle = { resolve, reject };
        listener = given;
        for (const message of early.splice(0)) receive(message);
        worker.postMessage(ir);
      }),
    stop: () => end(),
  };
}
