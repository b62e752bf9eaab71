// One generation in its own process, so that its peak memory is its own. Prints one JSON line:
// { tool, ms, maxRssMiB, outputBytes }. Usage: node --import tsx scripts/bench/gen-child.ts <ours|ots|hey> <description>
import { rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./lib.js";

const [tool, file] = process.argv.slice(2);
if (tool === undefined || file === undefined) throw new Error("usage: gen-child.ts <ours|ots|hey> <description>");
const source = resolve(ROOT, file);

async function run(): Promise<number> {
  if (tool === "ours") {
    const { generate } = await import("../../generator/generate.js");
    const started = performance.now();
    const { files } = await generate(source);
    const ms = performance.now() - started;
    report(
      ms,
      files.reduce((n, f) => n + Buffer.byteLength(f.content), 0),
    );
    return 0;
  }
  if (tool === "phases") {
    // The same work as generate(), one phase at a time and the emitters one after another, timed separately.
    const { emitters: EMITTERS } = await (await import("../../generator/languages.js")).emittersFor();
    const { readDescription } = await import("../../generator/spec/read.js");
    const { checkDescription } = await import("../../generator/spec/load.js");
    const { checkRefs } = await import("../../generator/spec/refs.js");
    const { checkVariants } = await import("../../generator/spec/variants.js");
    const { buildIR } = await import("../../generator/ir/build.js");
    const { createKit } = await import("../../generator/emit/kit.js");
    const phases: Record<string, number> = {};
    const rss: Record<string, number> = {};
    const timed = async <T>(name: string, work: () => T | Promise<T>): Promise<T> => {
      const started = performance.now();
      const value = await work();
      phases[name] = performance.now() - started;
      rss[name] = process.memoryUsage().rss / 2 ** 20;
      return value;
    };
    const raw = await timed("readDescription (read; JSON.parse, or yaml for YAML)", () => readDescription(source));
    await timed("  of which checkRefs", () => checkRefs(raw.document));
    await timed("  of which checkVariants", () => checkVariants(raw.document as never));
    // generate() builds the IR and emits while a large description's swagger-parser check runs in a worker.
    const description = await timed("checkDescription (refs, variants, swagger-parser: in a worker from 1 MB)", () =>
      checkDescription(raw),
    );
    const ir = await timed("buildIR", () => buildIR(description));
    const kit = createKit();
    for (const [i, emit] of EMITTERS.entries()) await timed(emit.name || `emitter #${i + 1} (anonymous)`, () => emit(ir, kit));
    console.log(JSON.stringify({ tool, phases, rssMiB: rss, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));
    return 0;
  }
  if (tool === "ots") {
    const { default: openapiTS, astToString } = await import("openapi-typescript");
    const started = performance.now();
    const text = astToString(await openapiTS(pathToFileURL(source), { silent: true }));
    const ms = performance.now() - started;
    report(ms, Buffer.byteLength(text));
    return 0;
  }
  if (tool === "hey") {
    const { createClient } = await import("@hey-api/openapi-ts");
    const out = join(ROOT, ".tmp", "bench", `hey-out-${process.pid}`);
    const started = performance.now();
    // Default plugins: types, SDK functions and the fetch client; hey-api writes its files, it has no in-memory mode.
    await createClient({ input: source, output: { path: out }, logs: { level: "silent" } });
    const ms = performance.now() - started;
    const { stat, readdir } = await import("node:fs/promises");
    let bytes = 0;
    for (const entry of await readdir(out, { recursive: true })) {
      const s = await stat(join(out, entry));
      if (s.isFile()) bytes += s.size;
    }
    report(ms, bytes);
    await rm(out, { recursive: true, force: true });
    return 0;
  }
  throw new Error(`unknown tool ${tool}`);
}

function report(ms: number, outputBytes: number): void {
  // maxRSS is in kilobytes (KiB).
  console.log(JSON.stringify({ tool, ms, maxRssMiB: process.resourceUsage().maxRSS / 1024, outputBytes }));
}

process.exitCode = await run();
