// The release diff measured whole, as users run it: a pair of consecutive published GitHub descriptions
// (@octokit/openapi 23.0.1, fetched once with npm pack into .tmp/bench, and 23.0.2, the installed devDependency),
// and the service's own two releases with the type-level test.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { fmt, log, median, ROOT, table, verdict } from "./lib.js";
import { measureProcess, type ProcessRun } from "./processes.js";

const run = promisify(execFile);
const PREVIOUS = "23.0.1";
const FILE = join("package", "generated", "api.github.com.json");

/** The previous published version's description, from the npm registry through npm itself, cached. */
async function previousGithub(): Promise<string> {
  const dir = join(ROOT, ".tmp", "bench", `octokit-openapi-${PREVIOUS}`);
  const file = join(dir, FILE);
  if (existsSync(file)) return file;
  await mkdir(dir, { recursive: true });
  const { stdout } = await run("npm", ["pack", `@octokit/openapi@${PREVIOUS}`, "--silent", "--pack-destination", dir], { cwd: dir });
  await run("tar", ["-xzf", stdout.trim().split("\n").at(-1)!, FILE], { cwd: dir });
  return file;
}

const diffArgs = (...rest: string[]) => ["--import", "tsx", "generator/cli.ts", "diff", ...rest];

/** Runs both pairs `rounds` times, adds summary rows and returns the section. */
export async function benchDiff(
  row: (...cells: [string, string, string, string, string, string]) => void,
  rounds: number,
): Promise<string> {
  const old = await previousGithub();
  const next = join(ROOT, "node_modules", "@octokit", "openapi", "generated", "api.github.com.json");
  const pairs = [
    { name: `GitHub ${PREVIOUS} -> installed`, args: diffArgs(old, next, "--no-types", "--format", "json", "--allow-breaking") },
    { name: "the service's two releases, type-level test included", args: diffArgs("R20261120.0900", "R20261127.0900") },
  ];
  const results: { name: string; runs: ProcessRun[] }[] = [];
  for (const pair of pairs) {
    log(`diff: ${pair.name} x${rounds} ...`);
    const runs: ProcessRun[] = [];
    for (let i = 0; i < rounds; i++) {
      const r = await measureProcess(process.execPath, pair.args);
      if (r.code !== 0) throw new Error(`diff ${pair.name} exited ${r.code}: ${r.stderr.split("\n")[0]}`);
      runs.push(r);
    }
    results.push({ name: pair.name, runs });
  }
  const [github, service] = results as [(typeof results)[0], (typeof results)[0]];
  const wall = (runs: ProcessRun[]) => median(runs.map((r) => r.wallMs));
  const rss = (runs: ProcessRun[]) => Math.max(...runs.map((r) => r.peakRssMiB));
  row("release diff, GitHub pair (wall, median)", fmt.ms(wall(github.runs)), "", "", "<= 8 s", verdict(wall(github.runs), 8000));
  row("release diff, GitHub pair (peak RSS, worst)", fmt.mib(rss(github.runs)), "", "", "<= 400 MiB", verdict(rss(github.runs), 400));
  row(
    "release diff, service pair with types (wall, median)",
    fmt.ms(wall(service.runs)),
    "",
    "",
    "<= 8 s",
    verdict(wall(service.runs), 8000),
  );
  const rows = results.flatMap(({ name, runs }) =>
    runs.map((r, i) => [name, String(i + 1), fmt.ms(r.wallMs), fmt.ms(r.cpuMs), fmt.mib(r.peakRssMiB), r.load.toFixed(2)]),
  );
  return `## Release diff\n\n${table(["pair", "run", "wall", "CPU (user + system)", "peak RSS", "load (1 min)"], rows)}`;
}
