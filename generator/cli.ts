#!/usr/bin/env node
import { relative } from "node:path";
import { parseArgs } from "node:util";
import { generate, runtimeModuleFor, writeFiles } from "./generate.js";
import { SpecError } from "./spec/problems.js";
import { currentRelease, releaseFile } from "./spec/releases.js";

const USAGE = `Usage: generate [--spec <file|url> | --release <R<yyyymmdd>.<hhmm>> | --add <file|url>] [--out <folder>]
       diff <old> <new> [options]   (diff --help for its options)

Validates a description, builds its intermediate model and writes the client, types, fixtures and IR.
  --spec      a description file or http(s) URL (default: the release from --release)
  --release   a release in spec/releases (default: the current one, the newest)
  --add       a new release's description, file or http(s) URL: validated, saved as spec/releases/<info.version>.yaml
              (a release id not yet there; earlier files are not touched), then generated
  --out       the output folder (default: generated)
Exit code 0 on success, 1 when the description is invalid or the options are wrong.`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  // The release diff loads the TypeScript compiler for its types check: only a diff or the help loads it.
  const diff = () => import("./diff/command.js");
  if (command === "--help" || command === "-h" || command === "help") {
    console.log(`${USAGE}\n\n${(await diff()).DIFF_USAGE}`);
    return 0;
  }
  if (command === "diff") return (await diff()).runDiff(rest);
  const { values } = parseArgs({
    args: [...rest],
    options: {
      spec: { type: "string" },
      release: { type: "string" },
      add: { type: "string" },
      out: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (command !== "generate") {
    console.error(`unknown command "${command ?? ""}"\n\n${USAGE}\n\n${(await diff()).DIFF_USAGE}`);
    return 1;
  }
  if ([values.spec, values.release, values.add].filter(Boolean).length > 1) throw new Error("give one of --spec, --release and --add");
  const started = performance.now();
  const added = values.add === undefined ? undefined : await (await import("./releases/add.js")).addRelease(values.add);
  if (added) {
    const note = added.current ? "now the current release" : `older than the current release ${added.previous}, which stays current`;
    console.log(`added release ${added.id} as spec/releases/${added.id}.yaml (${note})`);
  }
  const source = added?.file ?? values.spec ?? releaseFile(values.release ?? currentRelease());
  const out = values.out ?? "generated";
  const { ir, files } = await generate(source, { runtimeModule: runtimeModuleFor(out) });
  await writeFiles(out, files);
  const pipelines = ir.operations.flatMap((o) => o.variants?.pipelines ?? []);
  const shown = (p: string) => (p.startsWith("http") ? p : relative(process.cwd(), p) || p);
  console.log(`${shown(source)} -> ${shown(out)}: ${ir.info.title} ${ir.info.version}`);
  console.log(
    `  ${ir.operations.length} operations, ${pipelines.length} pipelines, ${pipelines.reduce((n, p) => n + p.variants.length, 0)} variants, ${ir.webhooks.length} events, ${ir.errors.length} error codes, ${ir.schemas.length} schemas`,
  );
  for (const f of files) console.log(`  wrote ${f.path} (${Buffer.byteLength(f.content)} bytes)`);
  console.log(`  ${files.length} files in ${Math.round(performance.now() - started)} ms`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Problems with the input are reported as lines, never as a stack trace.
    console.error(error instanceof SpecError ? error.message : `error: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
