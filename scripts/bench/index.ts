// `npm run bench`: every benchmark in one run, printed as markdown (docs/benchmarks.md keeps a copy).
// Options: --quick (seconds: the service's description once, a few hundred requests, the bundles; what the test runs)
//          --only=generation,requests,bundle,tsc,python  --rounds=N (rounds over the large descriptions, default 3)
//          --only=cold (the service's description alone: the built CLI with no tool cache and --force against
//          openapi-typescript's CLI, whole processes interleaved; `generation` includes it)
//          --no-graph (leave out MS Graph, the slowest), --graph-rounds=N (default: rounds, at most 2)  --profile (CPU profiles of in-process generation and requests)
//          --only=upstream (not in the default set: what the changes proposed to dependencies would give, on changed copies)
import { readdir, rm } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { benchBundles } from "./bundle.js";
import { benchDiff } from "./diff.js";
import {
  commandSummary,
  commandTables,
  type Description,
  GITHUB,
  GRAPH,
  installedVersion,
  ownDescription,
  runCommands,
  type ToolKey,
} from "./commands.js";
import { generationTable, runGeneration } from "./generation.js";
import { fmt, lastJson, log, machine, ROOT, runNode, table, verdict } from "./lib.js";
import { measureProcess } from "./processes.js";
import { hotSpots, hotSpotTables, inclusiveSpots, inclusiveTable } from "./profile.js";
import { benchPython, PYTHON_FULL, PYTHON_QUICK } from "./python.js";
import { benchRequests, type RequestOptions, requestTable } from "./requests.js";
import { benchTsc } from "./tsc.js";
import { benchOpenapiTypescript, benchUpstream, UPSTREAM_FULL } from "./upstream.js";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean" },
    only: { type: "string" },
    rounds: { type: "string" },
    "no-graph": { type: "boolean" },
    "graph-rounds": { type: "string" },
    profile: { type: "boolean" },
  },
});
const quick = values.quick === true;
const only = new Set((values.only ?? (quick ? "generation,requests,bundle" : "generation,requests,bundle,tsc,python")).split(","));
const rounds = Number(values.rounds ?? (quick ? 1 : 3));
const sequential: RequestOptions = quick ? { rounds: 1, perRound: 100, warmup: 20 } : { rounds: 10, perRound: 2000, warmup: 500 };
const parallel: RequestOptions = quick
  ? { rounds: 1, perRound: 100, warmup: 20, inflight: 64 }
  : { rounds: 5, perRound: 2000, warmup: 500, inflight: 64 };

const loadAtStart = loadavg();
const summary: string[][] = [];
const sections: string[] = [];
const row = (metric: string, ours: string, reference: string, ratio: string, target: string, result: string) =>
  summary.push([metric, ours, reference, ratio, target, result]);
const own = ownDescription();
const versions = {
  node: process.version,
  "openapi-typescript": installedVersion("openapi-typescript"),
  "@hey-api/openapi-ts": installedVersion("@hey-api/openapi-ts"),
  "openapi-fetch": installedVersion("openapi-fetch"),
  typescript: installedVersion("typescript"),
  esbuild: installedVersion("esbuild"),
};

if (only.has("generation") || only.has("cold")) {
  const plan: { description: Description; tools: ToolKey[]; maxRounds?: number }[] = [];
  if (quick) {
    // The built CLI needs `npm run build` (tens of seconds): the quick run measures the command users run from sources.
    plan.push({ description: own, tools: ["npm", "ots"] });
  } else {
    await buildCli("generation");
    if (!only.has("generation")) {
      // --only=cold: the service's description only, the built CLI cold against openapi-typescript's CLI.
      plan.push({ description: own, tools: ["cold", "ots"] });
    } else {
      plan.push({ description: own, tools: ["cli", "cold", "again", "npm", "ots", "hey"] });
      plan.push({ description: GITHUB, tools: ["cli", "ts", "py", "go", "ots", "hey"] });
    }
    if (only.has("generation") && !values["no-graph"])
      plan.push({
        description: GRAPH,
        tools: ["cli", "ts", "py", "go", "ots", "hey"],
        maxRounds: Number(values["graph-rounds"] ?? Math.min(rounds, 2)),
      });
  }
  log(`generation: whole processes, ${rounds} rounds ...`);
  const bench = await runCommands(plan, rounds, log);
  summary.push(...commandSummary(bench, own));
  const inProcess: string[] = [];
  if (!quick && only.has("generation")) {
    log("generation: in-process generate() on the service's description ...");
    const mine = await runGeneration(own.file, ["ours", "ots"], 3);
    inProcess.push(
      "",
      "### In-process (not what users run)",
      "",
      "`generate()` and `openapiTS()` timed inside a child process from the call to the output text: module loading, " +
        "writing files and process start-up excluded. Shown only to compare with earlier reports, which gave these figures.",
      "",
      generationTable(mine),
    );
  }
  sections.push(
    [
      "## Generation as users run it (whole processes)",
      "",
      `Each run is one command, measured from spawn to exit: wall time; CPU time (user + system) and peak RSS of every node process it starts ` +
        `(npm, tsx's child, the CLI; worker threads count in their process; peak RSS is the largest process's), and the 1-minute load average when it started. ` +
        `Rounds are interleaved: in each round every tool runs once on every description, the tools' order rotating. Output goes to a fresh temporary folder.`,
      "",
      commandTables(bench),
      ...inProcess,
    ].join("\n"),
  );
  if (values.profile) sections.push(await generationProfile());
}

if (only.has("requests")) {
  const blocks: string[] = [];
  for (const options of [sequential, parallel]) {
    const label = (options.inflight ?? 1) > 1 ? `${options.inflight} in flight` : "sequential";
    log(`requests: ${label}, ${options.rounds * options.perRound} per client ...`);
    const bench = await benchRequests(options);
    const raw = bench.perRequestUs["raw fetch"]!;
    const of = bench.perRequestUs["openapi-fetch"]!;
    const ours = bench.perRequestUs["our client (getJob)"]!;
    row(
      `per-request time, loopback GET, ${label}`,
      fmt.us(ours),
      `raw fetch ${fmt.us(raw)}`,
      fmt.ratio(ours / raw),
      "<= 1.10x",
      verdict(ours / raw, 1.1),
    );
    row(
      `per-request time, ${label}`,
      fmt.us(ours),
      `openapi-fetch ${fmt.us(of)}`,
      fmt.ratio(ours / of),
      "<= 1.02x",
      verdict(ours / of, 1.02),
    );
    blocks.push(`### ${label}\n\n${requestTable(bench, options)}`);
  }
  sections.push(`## Per-request overhead\n\n${blocks.join("\n\n")}`);
  if (values.profile) sections.push(await requestsProfile());
}

if (only.has("bundle")) {
  let heyDir: string | undefined;
  if (!quick) {
    log("bundle: @hey-api/openapi-ts's client of the service's description ...");
    heyDir = ".tmp/bench/hey-own";
    await rm(join(ROOT, heyDir), { recursive: true, force: true });
    const hey = await runNode(["node_modules/@hey-api/openapi-ts/bin/run.js", "-i", own.file, "-o", heyDir, "-s", "--no-log-file"]);
    if (hey.code !== 0) heyDir = undefined;
  }
  log("bundle: esbuild ...");
  const b = await benchBundles(heyDir);
  summary.push(...b.summary);
  sections.push(
    [
      "## Browser bundle size",
      "",
      "esbuild (bundle, minify, ESM, platform browser, es2022, no externals) of each entry, then gzip level 9. A build that fails " +
        "without externals (a `node:*` import a browser cannot load) is shown as failing, with its size when `node:*` is left external beside it.",
      "",
      b.table,
    ].join("\n"),
  );
}

if (only.has("tsc")) {
  log("tsc: 3 runs per program (GitHub's client generated first) ...");
  const t = await benchTsc(3, GITHUB.file);
  const tscRows = [
    ["strict tsc, the service's client (a project's) vs openapi-typescript's types", t.ratio],
    ["strict tsc, GitHub's client (a project's) vs openapi-typescript's types", t.githubRatio ?? Number.NaN],
    ["strict tsc, generated/ with the runtime's sources (this repository's check)", t.sourcesRatio],
  ] as const;
  for (const [label, ratio] of tscRows) row(label, "", "", fmt.ratio(ratio), "<= 1.30x", verdict(ratio, 1.3));
  sections.push(`## Type-check time\n\n${t.table}`);
}

if (only.has("python")) {
  const p = await benchPython(quick ? PYTHON_QUICK : PYTHON_FULL);
  summary.push(...p.summary);
  sections.push(p.section);
}

if (only.has("upstream")) {
  log("upstream: openapi-fetch as installed and as proposed, loopback GETs ...");
  sections.push(await benchUpstream(quick ? { turns: 2, perTurn: 100, warmup: 20 } : UPSTREAM_FULL));
  if (!quick) {
    await buildCli("upstream");
    sections.push(await benchOpenapiTypescript(Math.min(rounds, 2)));
  }
}

if (values.only === undefined || only.has("diff")) sections.push(await benchDiff(row, rounds));

const loadAtEnd = loadavg();
const la = (l: number[]) => l.map((n) => n.toFixed(2)).join(" / ");
console.log(
  [
    `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${machine()}${quick ? " (quick mode)" : ""}.`,
    `Load average (1 / 5 / 15 min): ${la(loadAtStart)} at the start, ${la(loadAtEnd)} at the end${only.has("generation") ? "; each generation run's own is in its table" : ""}.`,
    `Versions: ${Object.entries(versions)
      .map(([name, version]) => `${name} ${version}`)
      .join(", ")}.`,
    "",
    table(["benchmark", "ours", "peer (same run)", "ratio", "goal", "result"], summary),
    "",
    ...sections.flatMap((s) => [s, ""]),
  ].join("\n"),
);

/** `npm run build`: the sections that measure the built CLI build it first. */
async function buildCli(section: string): Promise<void> {
  log(`${section}: npm run build (the built CLI is measured) ...`);
  const built = await measureProcess("npm", ["run", "--silent", "build"]);
  if (built.code !== 0) throw new Error(`npm run build failed:\n${built.stderr.slice(-2000)}`);
}

async function generationProfile(): Promise<string> {
  log("generation: phase times and CPU profile (in-process, GitHub's description) ...");
  const profileDir = join(ROOT, ".tmp", "bench", "prof-generation");
  await runGeneration(GITHUB.file, ["ours"], 1, { profileDir });
  type Phases = { phases: Record<string, number>; rssMiB: Record<string, number> };
  const p = lastJson<Phases>((await runNode(["--import", "tsx", "scripts/bench/gen-child.ts", "phases", GITHUB.file])).stdout);
  const phaseRows = Object.entries(p.phases).map(([name, ms]) => [
    name.startsWith("  ") ? `&nbsp;&nbsp;${name.trim()}` : name,
    fmt.ms(ms),
    fmt.mib(p.rssMiB[name] ?? 0),
  ]);
  // Node names profiles CPU.<date>.<time>.<pid>.<thread id>.<n>.cpuprofile; the main thread's id is 0.
  const main = (await readdir(profileDir)).find((f) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f));
  return [
    "### Where in-process generation spends its time (GitHub's description)",
    "",
    table(["phase", "time", "RSS after it"], phaseRows),
    ...(main === undefined
      ? []
      : [
          "",
          hotSpotTables(await hotSpots(join(profileDir, main)), 15),
          "",
          inclusiveTable(await inclusiveSpots(join(profileDir, main), (where) => where.startsWith("generator/")), 15),
        ]),
  ].join("\n");
}

async function requestsProfile(): Promise<string> {
  log("requests: CPU profile of our client ...");
  const dir = join(ROOT, ".tmp", "bench", "prof-requests");
  const { stat } = await import("node:fs/promises");
  await rm(dir, { recursive: true, force: true });
  await runNode([
    "--cpu-prof",
    "--cpu-prof-dir",
    dir,
    "--import",
    "tsx",
    "scripts/bench/requests-profile.ts",
    "our client (getJob)",
    "20000",
  ]);
  const files = await Promise.all((await readdir(dir)).map(async (f) => ({ f, size: (await stat(join(dir, f))).size })));
  const file = join(dir, files.sort((a, b) => b.size - a.size)[0]!.f);
  return [
    "### Where our client's request time goes",
    "",
    hotSpotTables(await hotSpots(file), 20),
    "",
    inclusiveTable(await inclusiveSpots(file, (where) => where.startsWith("runtime/") || where.startsWith("openapi-fetch/")), 15),
  ].join("\n");
}
