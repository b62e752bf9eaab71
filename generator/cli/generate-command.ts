// `paperoffice-sdk generate`: the configuration file, overridden by flags, then one run and a one-line summary.
import { relative } from "node:path";
import { parseArgs } from "node:util";
import { CONFIG_FILE, type Config, loadConfig } from "../config/load.js";
import type { GenerateOptions } from "../generate.js";
import { allTargets, buildFoldersOf, LANGUAGE_NAMES, type LanguageName, OPTIONAL_OUTPUT_NAMES, type OptionalOutput } from "../languages.js";
import { BIN } from "../names.js";
import { openOutput } from "../output.js";
import { compareReleases, isReleaseId, listReleases, releaseFile } from "../spec/releases.js";
import { pluginCommand } from "../plugins/plugin.js";
import type { TargetFlag } from "../target.js";
import { listFlag, UsageError, withUsageErrors } from "./args.js";
import { onInterrupt } from "./interrupt.js";
import { progress } from "./progress.js";

/** The flags targets add, by flag name, with the target that owns each. */
async function targetFlags(): Promise<ReadonlyMap<string, TargetFlag & { readonly target: LanguageName }>> {
  const flags = new Map<string, TargetFlag & { readonly target: LanguageName }>();
  for (const [name, target] of await allTargets())
    for (const [flag, definition] of Object.entries(target.flags ?? {})) flags.set(flag, { ...definition, target: name });
  return flags;
}

/** `generate --help`: the core's flags, then those the targets add. */
export async function generateUsage(): Promise<string> {
  const flags = [...(await targetFlags())].map(([flag, d]) => `  ${`--${flag} <value>`.padEnd(22)}${d.help}`);
  return `Usage: ${BIN} generate [options]

Validates a description, builds its intermediate model and writes the SDKs into the output folder. Without flags it
does what paperoffice-sdk.config.json (in the current folder) says; each flag overrides the file.
  --config <file>       the configuration file (default: ./paperoffice-sdk.config.json when it exists)
  --spec <file|url>     a description file or http(s) URL (default: the configuration's, else the newest release)
  --release <id>        a release of the project's releases folder, by its id (its info.version)
  --add <file|url>      a new release's description: validated, stored in the releases folder, then generated
  --out <folder>        the output folder (default: generated)
  --languages <list>    comma-separated, of ${LANGUAGE_NAMES.join(", ")} (default: all)
  --outputs <list>      optional outputs, of ${OPTIONAL_OUTPUT_NAMES.join(", ")}, or none (default: all)
  --plugin <name>=<command>
                        a generator as a program (repeatable): the command reads the IR as JSON on stdin and answers
                        the files, written below <out>/<name>/ (docs/plugins.md); the configuration's plugins too
${flags.join("\n")}
  --prune               remove the output of languages an earlier run into the folder wrote and this run does not
                        (without it, such a run is refused)
  --force               generate even when nothing changed since the last run into the folder
  --verbose             list every file: written, unchanged or removed
  -h, --help            this text
Files whose content did not change are not rewritten; a failed or interrupted run leaves the output folder as it was.
Exit code 0 on success, 1 when the description, the configuration or the options are wrong.`;
}

const OPTIONS = {
  config: { type: "string" },
  spec: { type: "string" },
  release: { type: "string" },
  add: { type: "string" },
  out: { type: "string" },
  languages: { type: "string" },
  outputs: { type: "string" },
  plugin: { type: "string", multiple: true },
  force: { type: "boolean" },
  prune: { type: "boolean" },
  verbose: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** The flags of a run that override the configuration file. */
export interface RunFlags {
  readonly spec?: string | undefined;
  readonly release?: string | undefined;
  readonly out?: string | undefined;
  readonly languages?: string | undefined;
  readonly outputs?: string | undefined;
  /** `--plugin <name>=<command>` flags: each adds a plugin, or replaces the configuration's of that name. */
  readonly plugin?: readonly string[] | undefined;
  /** Flags targets add, each setting one option of its target. */
  readonly targetFlags?: Readonly<Record<string, { readonly target: string; readonly option: string; readonly value: string }>>;
}

/**
 * The description a run reads: a flag's (--spec, --release), else the configuration's (release, then spec), else the
 * newest release of the project's releases folder.
 */
export function runSource(config: Config, flags: Pick<RunFlags, "spec" | "release">, dir: string | undefined = config.releases): string {
  if (flags.spec !== undefined) return flags.spec;
  const release = flags.release ?? config.release;
  if (release !== undefined) {
    if (dir === undefined) throw new UsageError(`--release ${release}: the configuration names no releases folder`);
    return releaseFile(release, dir);
  }
  if (config.spec !== undefined) return config.spec;
  const newest = dir === undefined ? undefined : listReleases(dir).at(-1);
  if (newest === undefined || dir === undefined) {
    throw new UsageError(
      `no description to generate: give --spec <file|url>, set "spec" in ${CONFIG_FILE}, or store a release with \`${BIN} release <file>\`` +
        (dir === undefined ? "" : ` (${dir} holds none)`),
    );
  }
  return releaseFile(newest, dir);
}

/** What a run reads, where it writes and with which options: the configuration, each field overridden by its flag. */
export function resolveRun(
  config: Config,
  flags: RunFlags,
  dir: string | undefined = config.releases,
): { source: string; out: string; options: GenerateOptions } {
  const languages: LanguageName[] =
    flags.languages === undefined ? [...(config.languages ?? LANGUAGE_NAMES)] : listFlag("languages", flags.languages, LANGUAGE_NAMES);
  const outputs: OptionalOutput[] =
    flags.outputs === undefined
      ? OPTIONAL_OUTPUT_NAMES.filter((o) => config.outputs?.[o] !== false)
      : listFlag("outputs", flags.outputs, OPTIONAL_OUTPUT_NAMES);
  const source = runSource(config, flags, dir);
  if (flags.out?.trim() === "") throw new UsageError("--out is empty: give the output folder");
  const out = flags.out ?? config.out ?? "generated";
  const targets: Record<string, Record<string, unknown>> = {};
  for (const [name, block] of Object.entries(config.targets ?? {})) targets[name] = { ...block };
  for (const { target, option, value } of Object.values(flags.targetFlags ?? {})) targets[target] = { ...targets[target], [option]: value };
  const plugins = new Map((config.plugins ?? []).map((p) => [p.name, p]));
  for (const flag of flags.plugin ?? []) {
    const at = flag.indexOf("=");
    if (at <= 0 || flag.slice(at + 1).trim() === "") throw new UsageError(`--plugin ${JSON.stringify(flag)}: give <name>=<command>`);
    const name = flag.slice(0, at);
    plugins.set(name, { ...plugins.get(name), name, command: pluginCommand(flag.slice(at + 1), process.cwd()) });
  }
  const options: GenerateOptions = {
    languages,
    outputs,
    targets,
    outDir: out,
    ...(plugins.size > 0 && { plugins: [...plugins.values()] }),
  };
  return { source, out, options };
}

export async function runGenerate(args: readonly string[]): Promise<number> {
  const extra = await targetFlags();
  const options = { ...OPTIONS, ...Object.fromEntries([...extra.keys()].map((flag) => [flag, { type: "string" } as const])) };
  const { values } = withUsageErrors("generate", Object.keys(options), () => parseArgs({ args: [...args], options, strict: true }));
  if (values.help) {
    console.log(await generateUsage());
    return 0;
  }
  if ([values.spec, values.release, values.add].filter(Boolean).length > 1) throw new UsageError("give one of --spec, --release and --add");
  const started = performance.now();
  const shown = (p: string) => (/^https?:/.test(p) ? p : relative(process.cwd(), p) || p);
  const upToDateLine = (source: string, out: string): number => {
    console.log(
      `${shown(source)} -> ${shown(out)}: up to date (same description, options and toolchain as the last run; ` +
        `--force regenerates) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    return 0;
  };
  const given = [...extra].flatMap(([flag, d]) => {
    const value = (values as Record<string, unknown>)[flag];
    return typeof value === "string" ? [[flag, { target: d.target, option: d.option, value }] as const] : [];
  });
  const flags: RunFlags = { ...(values as Omit<RunFlags, "targetFlags">), targetFlags: Object.fromEntries(given) };
  // Nothing changed since the last run into this folder: no generator to load, nothing to write. The configuration
  // file is only parsed here: a file the last (checked) run read with the same text needs no check, and Ajv no load.
  const { runKey, upToDate, remember } = await import("./up-to-date.js");
  if (values.add === undefined && !values.force) {
    const early = await (async () => {
      const { config, text } = await loadConfig(process.cwd(), values.config, { check: false });
      const run = resolveRun(config, flags);
      // A plugin is a program whose changes no key sees: a run with plugins is never taken as up to date.
      if (run.options.plugins !== undefined) return undefined;
      const key = await runKey(run.source, run.options, text);
      return key !== undefined && (await upToDate(run.out, key)) ? run : undefined;
    })().catch(() => undefined); // a file that does not parse or resolve: the checked load below reports it
    if (early) return upToDateLine(early.source, early.out);
  }
  const { config, text } = await loadConfig(process.cwd(), values.config);
  const dir = config.releases;
  const added = values.add === undefined ? undefined : await (await import("../releases/add.js")).addRelease(values.add, dir);
  if (added) {
    const note = added.current ? "now the current release" : `older than the current release ${added.previous}, which stays current`;
    console.log(`added release ${added.id} as ${relative(process.cwd(), added.file)} (${note})`);
  }
  const run = resolveRun(config, { ...flags, ...(added && { spec: added.file }) }, dir);
  const { source, out } = run;
  // The key is taken before the run: a description edited while it runs is generated again next time.
  const key = run.options.plugins === undefined ? await runKey(source, run.options, text) : undefined;
  // An added release the last run already generated (the same description stored again).
  if (added && key !== undefined && !values.force && (await upToDate(out, key))) return upToDateLine(source, out);
  const bar = progress();
  try {
    // The generator's modules (typescript, swagger-parser, handlebars...) load only now that the options are right.
    bar.step("loading the generator");
    const { generateInto } = await import("../generate.js");
    // Each emitter's files are written (into a folder beside the output, swapped in at the end) as soon as they are
    // made: a large description's output is never held whole.
    const output = await openOutput(out, {
      buildFolders: await buildFoldersOf(run.options.languages ?? []),
      ...(run.options.languages && { languages: [...run.options.languages, ...(run.options.plugins ?? []).map((p) => p.name)] }),
      prune: values.prune === true,
    });
    const stopInterrupted = onInterrupt(async (signal) => {
      await output.abort();
      bar.done();
      console.error(`interrupted (${signal}): ${shown(out)} is left as it was; the partial output was removed`);
    });
    const generated = await generateInto(source, output, { ...run.options, onStep: bar.step }).catch(async (error: unknown) => {
      stopInterrupted();
      await output.abort();
      throw error;
    });
    stopInterrupted();
    const { ir } = generated;
    bar.step(`writing ${out}`);
    const report = await output.commit();
    if (key !== undefined) await remember(out, key);
    bar.done();
    const pipelines = ir.operations.flatMap((o) => o.variants?.pipelines ?? []);
    const changes = [`${report.written.length} written`, `${report.unchanged.length} unchanged`];
    if (report.removed.length > 0) changes.push(`${report.removed.length} removed`);
    if (output.pruned.length > 0) changes.push(`the ${output.pruned.join(", ")} output pruned`);
    // What the description has: the counts of what it lacks are left out (most APIs have no pipelines or events).
    const counts = [
      [ir.operations.length, "operations"],
      [pipelines.length, "pipelines"],
      [pipelines.reduce((n, p) => n + p.variants.length, 0), "variants"],
      [ir.webhooks.length, "events"],
      [ir.errors.length, "error codes"],
      [ir.schemas.length, "schemas"],
    ] as const;
    const has = counts.filter(([n, what], i) => n > 0 || i === 0 || what === "schemas").map(([n, what]) => `${n} ${what}`);
    console.log(
      `${shown(source)} -> ${shown(out)}: ${ir.info.title} ${ir.info.version}: ${has.join(", ")}; ` +
        `${generated.files} files (${changes.join(", ")}) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    // A configured description older than the project's newest release is generated as asked, but never silently.
    const newest = listReleases(dir).at(-1);
    const configuredSpec =
      values.spec === undefined && values.release === undefined && !added && config.release === undefined && config.spec !== undefined;
    if (configuredSpec && newest !== undefined && isReleaseId(ir.info.version) && compareReleases(ir.info.version, newest) < 0) {
      console.error(
        `warning: ${shown(source)} is ${ir.info.version}, older than the project's newest release ${newest} ` +
          `(${shown(releaseFile(newest, dir))}); --release ${newest} generates that one`,
      );
    }
    if (values.verbose) {
      // In path order, the manifest last, as the files were listed when a run held them all.
      const order = (list: readonly string[]) =>
        [...list].sort((a, b) => (a === "manifest.json" ? 1 : b === "manifest.json" ? -1 : a < b ? -1 : a > b ? 1 : 0));
      for (const path of order(report.written)) console.log(`  wrote ${path} (${output.sizes.get(path)} bytes)`);
      for (const path of order(report.unchanged)) console.log(`  unchanged ${path}`);
      for (const path of report.removed) console.log(`  removed ${path}`);
    }
    return 0;
  } finally {
    bar.done();
  }
}
