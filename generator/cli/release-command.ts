// `paperoffice-sdk release <file|url>`: the one step of a release. Diff the description against the current
// release (refusing a breaking change unless allowed), store it as a release, generate the SDKs, write the
// changelog section, and run each package's checks.
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../config/load.js";
import { buildFoldersOf, loadTarget } from "../languages.js";
import { BIN } from "../names.js";
import { writeOutput } from "../output.js";
import { listReleases } from "../spec/releases.js";
import { UsageError, withUsageErrors } from "./args.js";
import { resolveRun } from "./generate-command.js";
import { progress } from "./progress.js";

export const RELEASE_USAGE = `Usage: ${BIN} release <file|url> [options]

The one step of a release: compares the description with the project's current release, the newest of its releases
folder (breaking changes stop it unless allowed), stores it there as a new release named after its info.version
(a semver version, or R<yyyymmdd>.<hhmm>), generates the SDKs as paperoffice-sdk.config.json says, writes the release's
changelog section, and runs each package's check, as its target defines it (a strict type-check, every module compiled...).
  --config <file>       the configuration file (default: ./paperoffice-sdk.config.json when it exists)
  --out <folder>        the output folder (default: the configuration's, else generated)
  --changelog <file>    the changelog to add the section to (default: CHANGELOG.md beside the configuration file)
  --allow-breaking      release even when something breaks
  --verbose             list every file written
  -h, --help            this text
Exit code 0 when released and every check passes, 1 otherwise.`;

const OPTIONS = {
  config: { type: "string" },
  out: { type: "string" },
  changelog: { type: "string" },
  "allow-breaking": { type: "boolean" },
  verbose: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Puts a release's section above the newest release section (after any notes not tied to a release). */
export function insertSection(changelog: string, section: string): string {
  if (changelog.trim() === "") return `# Changelog\n\n${section}`;
  const at = changelog.search(/^## (R\d{8}\.\d{4}|\d+\.\d+\.\d+)/m);
  if (at < 0) return `${changelog.trimEnd()}\n\n${section}`;
  return `${changelog.slice(0, at)}${section}\n${changelog.slice(at)}`;
}

export async function runRelease(args: readonly string[]): Promise<number> {
  const { values, positionals } = withUsageErrors("release", Object.keys(OPTIONS), () =>
    parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: true }),
  );
  if (values.help) {
    console.log(RELEASE_USAGE);
    return 0;
  }
  const [source, ...extra] = positionals;
  if (source === undefined || extra.length > 0) throw new UsageError("give one description: release <file|url>", "release");
  const { config, file } = await loadConfig(process.cwd(), values.config);
  const dir = config.releases;
  const previous = listReleases(dir).at(-1);
  const bar = progress();
  try {
    bar.step("comparing with the current release");
    const [{ diffReleases, loadRelease }, { makeReport, toMarkdown }] = await Promise.all([
      import("../diff/index.js"),
      import("../diff/report.js"),
    ]);
    const next = await loadRelease(source);
    // Its id is checked first: a release that could not be stored is not compared.
    const { newReleaseId } = await import("../releases/add.js");
    newReleaseId(source, next.document, dir);
    const report = previous === undefined ? undefined : makeReport(previous, next.id, diffReleases(await loadRelease(previous, dir), next));
    if (report && report.breaking > 0 && !values["allow-breaking"]) {
      bar.done();
      process.stdout.write(toMarkdown(report));
      console.error(
        `error: ${report.breaking} breaking change(s) from ${previous} to ${next.id}; nothing was stored (--allow-breaking to release anyway)`,
      );
      return 1;
    }
    bar.step("storing the release");
    const { addRelease } = await import("../releases/add.js");
    const added = await addRelease(source, dir);
    console.log(
      `stored ${added.id} in ${relative(process.cwd(), added.file)}${added.current ? "" : ` (older than ${added.previous}, which stays current)`}`,
    );

    const { out, options } = resolveRun(config, { release: added.id, ...(values.out !== undefined && { out: values.out }) }, dir);
    const { generate } = await import("../generate.js");
    const { ir, files } = await generate(added.file, { ...options, onStep: bar.step });
    bar.step(`writing ${out}`);
    const written = await writeOutput(out, files, {
      ...(options.languages && { languages: options.languages }),
      buildFolders: await buildFoldersOf(options.languages ?? []),
    });
    console.log(
      `generated ${relative(process.cwd(), out) || out}: ${files.length} files (${written.written.length} written, ${written.unchanged.length} unchanged)`,
    );
    if (values.verbose) for (const path of written.written) console.log(`  wrote ${path}`);

    const changelog = resolve(values.changelog ?? resolve(file === undefined ? process.cwd() : dirname(file), "CHANGELOG.md"));
    const section = report ? toMarkdown(report) : `## ${added.id}\n\nThe first release.\n`;
    const text = existsSync(changelog) ? await readFile(changelog, "utf8") : "";
    await writeFile(changelog, insertSection(text, section));
    console.log(
      `changelog: ${relative(process.cwd(), changelog)}, ${report ? `${report.changes.length} changes, ${report.breaking} breaking` : "first release"}`,
    );

    let failed = 0;
    for (const language of options.languages ?? []) {
      bar.step(`checking the ${language} package`);
      const check = (await loadTarget(language)).check;
      const problems = check === undefined ? undefined : await check(out, ir);
      failed += problems === undefined || problems.length === 0 ? 0 : 1;
      const skipped = check === undefined ? "no check for this language" : "the tool it needs is not on PATH";
      console.log(`check ${language}: ${problems === undefined ? `skipped (${skipped})` : problems.length === 0 ? "passed" : "FAILED"}`);
      for (const problem of problems ?? []) console.log(`  ${problem}`);
    }
    return failed === 0 ? 0 : 1;
  } finally {
    bar.done();
  }
}
