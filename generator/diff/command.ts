/** `diff <old> <new>`: the changes between two releases, as a changelog section or JSON. */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../config/load.js";
import { diffReleases, openRelease } from "./index.js";
import { makeReport, toJson, toMarkdown, type TypesSignal } from "./report.js";

export const DIFF_USAGE = `Usage: diff <old> <new> [--format markdown|json] [--fail-on breaking|warning] [--allow-breaking]
            [--types-test <file> | --no-types]

Compares two releases through their intermediate models; each is a release id of the project's releases folder
(paperoffice-sdk.config.json's releases) or a description file or http(s) URL. Prints a changelog section (markdown,
the default) or JSON.
  --config          the configuration file (default: ./paperoffice-sdk.config.json when it exists)
  --format          markdown (default) or json
  --fail-on         breaking (default): exit 1 when something breaks; warning: also when something may break
  --allow-breaking  exit 0 even when something breaks
  --types-test      a type-level test written against generated/, compiled against the new release's client
                    (default: the project's test/generated/client.test-d.ts when it exists)
  --no-types        skip the type-level test
Exit code 0 when nothing breaks, 1 when something breaks (a breaking change or a failing type-level test; with
--fail-on warning, a change that may break too) or the input is wrong.`;

export async function runDiff(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      config: { type: "string" },
      format: { type: "string", default: "markdown" },
      "allow-breaking": { type: "boolean", default: false },
      "fail-on": { type: "string", default: "breaking" },
      "types-test": { type: "string" },
      "no-types": { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(DIFF_USAGE);
    return 0;
  }
  const [from, to, ...extra] = positionals;
  if (!from || !to || extra.length > 0) throw new Error("give two releases: diff <old> <new> (diff --help for the options)");
  if (values.format !== "markdown" && values.format !== "json") throw new Error(`--format is markdown or json, not "${values.format}"`);
  if (values["fail-on"] !== "breaking" && values["fail-on"] !== "warning")
    throw new Error(`--fail-on is breaking or warning, not "${values["fail-on"]}"`);
  if (values["no-types"] && values["types-test"]) throw new Error("give --types-test or --no-types, not both");
  const loaded = await loadConfig(process.cwd(), values.config);
  const project = loaded.file === undefined ? process.cwd() : dirname(loaded.file);
  const DEFAULT_TYPES_TEST = join(project, "test", "generated", "client.test-d.ts");
  const typesTest = values["no-types"]
    ? undefined
    : (values["types-test"] ?? (existsSync(DEFAULT_TYPES_TEST) ? DEFAULT_TYPES_TEST : undefined));
  if (typesTest !== undefined && !existsSync(typesTest)) throw new Error(`the type-level test ${typesTest} does not exist`);

  const progress = progressLine();
  progress(`reading ${from} and ${to}`);
  const [a, b] = await Promise.all([openRelease(from, loaded.config.releases), openRelease(to, loaded.config.releases)]);
  progress("comparing");
  const changes = diffReleases(a.release, b.release);
  progress("waiting for the OpenAPI-schema checks");
  for (const verdict of [a.verdict, b.verdict]) {
    const failure = await verdict;
    if (failure) throw failure;
  }
  const [old, next] = [a.release, b.release];
  if (typesTest !== undefined) progress("compiling the type-level test against the new client");
  // The target whose type-level tests end as this one does compiles it (loaded only when used: it brings the
  // generator and the language's compiler).
  const types: TypesSignal | undefined = typesTest === undefined ? undefined : await typeTestOf(typesTest, next.source, project);
  const report = makeReport(old.id, next.id, changes, types);
  progress();
  process.stdout.write(values.format === "json" ? toJson(report) : toMarkdown(report));
  const broken = report.breaking > 0 || (types?.failures.length ?? 0) > 0 || (values["fail-on"] === "warning" && report.warnings > 0);
  return broken && !values["allow-breaking"] ? 1 : 0;
}

async function typeTestOf(testFile: string, source: string, root: string): Promise<TypesSignal> {
  const { allTargets } = await import("../languages.js");
  const targets = [...(await allTargets()).values()];
  const found = targets.find((t) => t.typeTest?.extensions.some((ending) => testFile.endsWith(ending)));
  if (found?.typeTest === undefined) {
    const known = targets.flatMap((t) => t.typeTest?.extensions ?? []);
    throw new Error(`no target compiles the type-level test ${testFile} (type-level tests end in ${known.join(", ")})`);
  }
  return found.typeTest.check(source, testFile, root);
}

/** What the diff is doing, on one line of a terminal's stderr (rewritten in place); nothing when not a terminal. */
function progressLine(): (step?: string) => void {
  if (!process.stderr.isTTY) return () => {};
  const started = performance.now();
  return (step) => {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stderr.write(step === undefined ? "\r\x1b[K" : `\r\x1b[Kdiff: ${step} (${seconds} s)`);
  };
}
