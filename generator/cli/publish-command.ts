// `paperoffice-sdk publish`: a release's SDKs and the runtimes they require, to each target's registry. It generates
// the release into a folder of its own, refuses when a check fails, asks each registry what it holds, and (with --yes)
// uploads only what is missing; without --yes it prints the plan and publishes nothing.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../config/load.js";
import { loadTarget } from "../languages.js";
import { BIN } from "../names.js";
import { writeOutput } from "../output.js";
import { carryOut, planLine, planPublication, type Publication, refuseDifferent } from "../publish/plan.js";
import { problemsReport, type TargetProblem } from "../publish/prerequisites.js";
import { releaseProblem } from "../releases/version.js";
import { compareReleases, listReleases } from "../spec/releases.js";
import { UsageError, withUsageErrors } from "./args.js";
import { resolveRun, runSource } from "./generate-command.js";
import { progress } from "./progress.js";

export const PUBLISH_USAGE = `Usage: ${BIN} publish [options]

Publishes a release: each SDK paperoffice-sdk.config.json names, and the runtime packages whose version the registry
does not hold yet. A dry run unless --yes: it prints what would be published where. A version the registry holds
with the same content is skipped (so a run stopped half-way completes when run again); one it holds with other content
stops the run before anything is uploaded. Registries and credentials come from each ecosystem's own configuration:
npm's (.npmrc, NODE_AUTH_TOKEN), twine's (TWINE_USERNAME, TWINE_PASSWORD; the python block's uploadUrl and indexUrl),
and the go block's proxy folder.
  --release <id>        a release of the project's releases folder, by its id (default: the configuration's release,
                        else its spec, else the newest release)
  --config <file>       the configuration file (default: ./paperoffice-sdk.config.json when it exists)
  --languages <list>    comma-separated: publish only these targets (default: the configuration's)
  --yes                 publish (without it, a dry run)
  -h, --help            this text
Exit code 0 when published (or, in a dry run, publishable), 1 otherwise.`;

const OPTIONS = {
  release: { type: "string" },
  config: { type: "string" },
  languages: { type: "string" },
  yes: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export async function runPublish(args: readonly string[]): Promise<number> {
  const { values } = withUsageErrors("publish", Object.keys(OPTIONS), () => parseArgs({ args: [...args], options: OPTIONS, strict: true }));
  if (values.help) {
    console.log(PUBLISH_USAGE);
    return 0;
  }
  const { config } = await loadConfig(process.cwd(), values.config);
  const dir = config.releases;
  const known = listReleases(dir);
  if (values.release !== undefined && !known.includes(values.release)) {
    throw new UsageError(`--release: ${values.release} is not a release of ${dir} (known: ${known.join(", ") || "none"})`, "publish");
  }
  const chosen = runSource(config, { release: values.release });
  const dryRun = values.yes !== true;
  const work = await mkdtemp(join(tmpdir(), "paperoffice-publish-"));
  const bar = progress();
  try {
    const out = join(work, "out");
    const { source, options } = resolveRun(
      config,
      { spec: chosen, out, ...(values.languages !== undefined && { languages: values.languages }) },
      dir,
    );
    // Every target's prerequisites at once, before the slow generation and builds: one run lists every problem.
    bar.step("checking what publishing needs");
    const problems: TargetProblem[] = [];
    const targets = await Promise.all(
      (options.languages ?? []).map(async (language) => {
        const target = await loadTarget(language);
        const readiness = await target.publishPrerequisites?.(options.targets?.[language] ?? {}, { env: process.env });
        return { language, target, readiness };
      }),
    );
    for (const { language, readiness } of targets) {
      for (const warning of readiness?.warnings ?? []) console.error(`warning: ${language}: ${warning}`);
      problems.push(...(readiness?.problems ?? []).map((p) => ({ target: language, ...p })));
    }
    if (problems.length > 0) {
      bar.done();
      console.error(problemsReport(problems));
      return 1;
    }
    bar.step(`generating ${source}`);
    const { generate } = await import("../generate.js");
    const { ir, files } = await generate(source, { ...options, outDir: out, onStep: bar.step });
    await writeOutput(out, files);
    // The version published is the description's own: its info.version, a release id.
    const release = ir.info.version;
    const problem = releaseProblem(release);
    if (problem) throw new UsageError(`${source}: /info/version: ${problem}; a published package needs one`, "publish");
    const newest = [...known, release].sort(compareReleases).at(-1)!;

    const publications: Publication[] = [];
    const unbuilt: string[] = [];
    const failed: string[] = [];
    for (const { language, target } of targets) {
      if (target.publish === undefined) {
        console.log(`${language}: this target publishes nothing`);
        continue;
      }
      // Built first: a package's build installs what its check resolves (the TypeScript runtime, say). A build that
      // fails is reported with the others' once every target was tried.
      bar.step(`building the ${language} packages`);
      const context = { release, newest: release === newest, work: join(work, language), env: process.env };
      try {
        publications.push(await target.publish(out, options.targets?.[language] ?? {}, context));
      } catch (error) {
        unbuilt.push(`${language}: ${(error instanceof Error ? error.message : String(error)).replaceAll("\n", "\n    ")}`);
        continue;
      }
      bar.step(`checking the ${language} package`);
      const problems = target.check === undefined ? [] : await target.check(out, ir);
      if (problems === undefined) console.log(`check ${language}: skipped (the tool it needs is not on PATH)`);
      else if (problems.length > 0) failed.push(`${language}: ${problems.slice(0, 5).join("; ")}`);
    }
    if (unbuilt.length > 0 || failed.length > 0) {
      bar.done();
      if (unbuilt.length > 0)
        console.error(`error: the packages of release ${release} could not be built; nothing was published:\n  ${unbuilt.join("\n  ")}`);
      if (failed.length > 0) console.error(`error: release ${release} failed its checks; nothing was published:\n  ${failed.join("\n  ")}`);
      return 1;
    }
    bar.step("asking the registries");
    const plan = await planPublication(publications);
    bar.done();
    console.log(`release ${release}${release === newest ? " (the newest)" : ` (older than ${newest})`}:`);
    if (dryRun) {
      for (const p of plan) console.log(`  ${planLine(p, true)}`);
      refuseDifferent(plan);
      console.log(`dry run: nothing was published (--yes publishes the ${plan.filter((p) => p.state === "missing").length} missing)`);
      return 0;
    }
    // PAPEROFFICE_SDK_PUBLISH_KILL_AFTER=<n>: the process kills itself (SIGKILL, nothing cleaned up) after its n-th
    // upload, as a publish stopped half-way is; the tests use it to show that a rerun completes it.
    const killAfter = Number(process.env.PAPEROFFICE_SDK_PUBLISH_KILL_AFTER ?? Number.NaN);
    const uploaded = await carryOut(
      plan,
      (line) => console.log(`  ${line}`),
      (count) => {
        if (count === killAfter) process.kill(process.pid, "SIGKILL");
      },
    );
    console.log(`published ${uploaded}, skipped ${plan.length - uploaded} already there`);
    return 0;
  } finally {
    bar.done();
    await rm(work, { recursive: true, force: true });
  }
}
