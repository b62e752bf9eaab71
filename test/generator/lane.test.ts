// The second lane (generator/lane.ts): a worker thread runs every language but the first, and the optional
// outputs, beside the main thread. A run with it makes the same files as one without, into memory or into an output
// folder (where the worker writes its own files), and an emitter's error in the worker fails the run as it would
// in the main thread.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { generate, generateInto } from "../../generator/generate.js";
import { laneSplit } from "../../generator/lane.js";
import { LANGUAGE_NAMES } from "../../generator/languages.js";
import { openOutput, writeOutput } from "../../generator/output.js";

const root = join(import.meta.dirname, "../..");
const releases = join(root, "spec", "releases");
const SPEC = join(
  releases,
  readdirSync(releases)
    .filter((f) => /^R\d{8}\.\d{4}\.ya?ml$/.test(f))
    .sort()
    .at(-1)!,
);

const folders: string[] = [];
const folder = async () => {
  const made = await mkdtemp(join(tmpdir(), "lane-"));
  folders.push(made);
  return made;
};
afterAll(async () => {
  for (const f of folders) await rm(f, { recursive: true, force: true });
});

/** Every file below a folder, by path, with its content. */
function contents(dir: string, prefix = ""): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) for (const [p, c] of contents(path, `${prefix}${name}/`)) found.set(p, c);
    else found.set(`${prefix}${name}`, readFileSync(path, "utf8"));
  }
  return found;
}

describe("laneSplit", () => {
  const two = availableParallelism() > 1;
  it.each([
    {
      languages: ["typescript", "python", "go"],
      outputs: ["fixtures", "ir"],
      here: { languages: ["typescript"], outputs: ["ir"] },
      there: { languages: ["python", "go"], outputs: ["fixtures"] },
    },
    {
      languages: ["python"],
      outputs: ["ir", "fixtures"],
      here: { languages: ["python"], outputs: ["ir"] },
      there: { languages: [], outputs: ["fixtures"] },
    },
    {
      languages: ["go", "typescript"],
      outputs: [],
      here: { languages: ["go"], outputs: [] },
      there: { languages: ["typescript"], outputs: [] },
    },
    { languages: ["python"], outputs: ["ir"], here: undefined, there: undefined },
    { languages: ["python"], outputs: [], here: undefined, there: undefined },
    { languages: [], outputs: ["fixtures", "ir"], here: undefined, there: undefined },
  ] as const)("$languages and $outputs: $here here, $there in the worker", ({ languages, outputs, here, there }) => {
    const split = laneSplit(languages, outputs);
    if (!two || here === undefined) expect(split).toBeUndefined();
    else expect(split).toEqual({ here, there });
  });
});

describe.skipIf(availableParallelism() < 2)("a run with a second lane", () => {
  it("makes the same files as a run without, in the same order, the manifest last", async () => {
    const steps: string[] = [];
    const alone = await generate(SPEC, { parallel: false });
    const shared = await generate(SPEC, { parallel: true, onStep: (step) => steps.push(step) });
    // This thread starts on its own emitters; the worker's are named once it has built them.
    const emitting = steps.filter((s) => s.startsWith("emitting"));
    expect(emitting[0]).toMatch(/^emitting types, .*readme, irjson$/);
    // Every registered language but the first runs in the worker (its emitters named once built), then the fixtures.
    const worker = emitting.find((s) => s.startsWith(`emitting ${LANGUAGE_NAMES[1]}`));
    expect(worker, emitting.join(" | ")).toMatch(/, go, .*fixtures$/);
    expect(shared.files.map((f) => f.path)).toEqual(alone.files.map((f) => f.path));
    expect(shared.files).toEqual(alone.files);
    expect(alone.files.some((f) => f.path.startsWith("python/"))).toBe(true);
    expect(alone.files.some((f) => f.path.startsWith("fixtures/"))).toBe(true);
  }, 120_000);

  it("writes into an output folder what a run without writes, the worker's files among them", async () => {
    const alone = await generate(SPEC, { parallel: false });
    const expected = await folder();
    await writeOutput(expected, alone.files);
    const out = join(await folder(), "out");
    const output = await openOutput(out);
    // What the worker wrote itself reaches the output through record(); this thread's files through add().
    const recorded: string[] = [];
    const record: typeof output.record = (files) => {
      recorded.push(...files.map((f) => f.path));
      output.record(files);
    };
    const run = await generateInto(SPEC, { ...output, record }, { parallel: true });
    const report = await output.commit();
    expect(recorded.length).toBeGreaterThan(0);
    // The worker's: every registered language's but the first (TypeScript, at the top), and the fixtures.
    const workerFolders = new RegExp(`^(${[...LANGUAGE_NAMES.slice(1), "fixtures"].join("|")})/|^ir\\.json$`);
    expect(recorded.filter((p) => !workerFolders.test(p))).toEqual([]);
    expect(run.files).toBe(alone.files.length);
    expect(report.written.length).toBe(alone.files.length);
    expect(contents(out)).toEqual(contents(expected));
    // A second run into the same folder: every file, the worker's too, is found unchanged.
    const again = await openOutput(out);
    await generateInto(SPEC, again, { parallel: true });
    const second = await again.commit();
    expect(second.written).toEqual([]);
    expect(second.unchanged.length).toBe(alone.files.length);
  }, 120_000);

  it("fails with the error of an emitter that fails in the worker, as without it", async () => {
    // The Go target's package name is checked when its emitter runs; Go runs in the worker.
    const options = { targets: { go: { package: "Not-Go" } } } as const;
    const alone = await generate(SPEC, { ...options, parallel: false }).then(
      () => "passed",
      (error: Error) => error.message,
    );
    const shared = await generate(SPEC, { ...options, parallel: true }).then(
      () => "passed",
      (error: Error) => error.message,
    );
    expect(alone).toMatch(/go: the package name "Not-Go" is not a lowercase Go identifier/);
    expect(shared).toBe(alone);
  }, 120_000);

  it("stops the worker when a target of this thread fails to load, so that the process can end", async () => {
    // The TypeScript target, this thread's, refuses runtimeSources without an output folder; the worker, which loads
    // the other languages, would otherwise wait for the IR and hold the process open until the timeout kills it.
    // The flag --input-type=module, which workers inherit, also shows the worker's code loading as an ES module.
    const script = `
      const { generate } = await import(${JSON.stringify(pathToFileURL(join(root, "generator/generate.ts")).href)});
      await generate(${JSON.stringify(SPEC)}, { parallel: true, targets: { typescript: { runtimeSources: "runtime" } } }).then(
        () => console.log("generated"),
        (error) => console.log("failed: " + error.message),
      );`;
    const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) =>
      execFile(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: root, timeout: 60_000 }, (error, out) =>
        error ? reject(error) : resolve({ stdout: out }),
      ),
    );
    expect(stdout).toMatch(/failed: typescript\.runtimeSources needs the output folder/);
  }, 90_000);
});
