// Generation time and peak memory: our full generate() vs openapi-typescript alone vs @hey-api/openapi-ts, each run in a
// child process of its own per repetition (peak RSS is the child's maxRSS), in alternating order.
import { mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { fmt, lastJson, median, ROOT, runNode, table, verdict } from "./lib.js";

export const LARGE = "node_modules/@octokit/openapi/generated/api.github.com.json";

export async function ownDescription(): Promise<string> {
  const releases = (await readdir(join(ROOT, "spec", "releases"))).filter((f) => /^R\d{8}\.\d{4}\.ya?ml$/.test(f)).sort();
  const newest = releases.at(-1);
  if (newest === undefined) throw new Error("no release in spec/releases");
  return `spec/releases/${newest}`;
}

export const TOOLS = {
  ours: "our generate() (IR + all emitters, incl. openapi-typescript)",
  ots: "openapi-typescript alone (openapiTS + astToString)",
  hey: "@hey-api/openapi-ts (default plugins: types, sdk, fetch client)",
} as const;
export type Tool = keyof typeof TOOLS;

interface ChildReport {
  tool: Tool;
  ms: number;
  maxRssMiB: number;
  outputBytes: number;
}

export interface GenerationResult {
  file: string;
  perTool: Partial<Record<Tool, { ms: number[]; wallMs: number[]; rss: number[]; outputBytes: number }>>;
  failures: Partial<Record<Tool, string>>;
}

export async function runGeneration(
  file: string,
  tools: readonly Tool[],
  reps: number,
  options: { profileDir?: string } = {},
): Promise<GenerationResult> {
  const result: GenerationResult = { file, perTool: {}, failures: {} };
  for (let rep = 0; rep < reps; rep++) {
    for (const tool of rep % 2 === 0 ? tools : [...tools].reverse()) {
      if (result.failures[tool] !== undefined) continue;
      const profile =
        options.profileDir !== undefined && rep === 0 && tool === "ours" ? ["--cpu-prof", "--cpu-prof-dir", options.profileDir] : [];
      if (profile.length > 0) {
        // Profiles of earlier runs would be read as this run's.
        await rm(options.profileDir!, { recursive: true, force: true });
        await mkdir(options.profileDir!, { recursive: true });
      }
      const child = await runNode([...profile, "--import", "tsx", "scripts/bench/gen-child.ts", tool, file]);
      if (child.code !== 0) {
        result.failures[tool] = (
          child.stderr
            .trim()
            .split("\n")
            .find((l) => /error/i.test(l)) ??
          child.stderr.trim().split("\n")[0] ??
          ""
        ).slice(0, 300);
        continue;
      }
      // A profiled run is slower: it only serves the profile, not the table.
      if (profile.length > 0) continue;
      const report = lastJson<ChildReport>(child.stdout);
      const entry = result.perTool[tool] ?? { ms: [], wallMs: [], rss: [], outputBytes: report.outputBytes };
      result.perTool[tool] = entry;
      entry.ms.push(report.ms);
      entry.wallMs.push(child.wallMs);
      entry.rss.push(report.maxRssMiB);
    }
  }
  return result;
}

export function generationTable(large: GenerationResult, own: GenerationResult, reps: { large: number; own: number }): string {
  const rows: string[][] = [];
  const ots = large.perTool.ots;
  const baseMs = ots === undefined ? Number.NaN : median(ots.ms);
  for (const [tool, label] of Object.entries(TOOLS) as [Tool, string][]) {
    const r = large.perTool[tool];
    if (r === undefined) {
      rows.push([label, "did not run", "", "", "", "", large.failures[tool] ?? "not measured"]);
      continue;
    }
    const ms = median(r.ms);
    rows.push([
      label,
      fmt.ms(ms),
      fmt.ms(median(r.wallMs)),
      fmt.mib(median(r.rss)),
      fmt.mib(Math.max(...r.rss)),
      fmt.ratio(ms / baseMs),
      `${(r.outputBytes / 1e6).toFixed(1)} MB`,
    ]);
  }
  const ours = large.perTool.ours;
  const hey = large.perTool.hey;
  const lines = [
    `\`${large.file}\`, ${reps.large} runs per tool in alternating order, one child process per run; medians (peak RSS: median and worst).`,
    "",
    table(["tool", "generation time", "child wall time", "peak RSS", "worst peak RSS", "time vs openapi-typescript", "output"], rows),
    "",
  ];
  if (ours !== undefined && ots !== undefined) {
    const ratio = median(ours.ms) / baseMs;
    lines.push(`Ours vs openapi-typescript: ${fmt.ratio(ratio)} (target <= 1.5x: ${verdict(ratio, 1.5)}).`);
    const worst = Math.max(...ours.rss);
    lines.push(`Our peak RSS: median ${fmt.mib(median(ours.rss))}, worst ${fmt.mib(worst)} (target < 1024 MiB: ${verdict(worst, 1024)}).`);
  }
  if (ours !== undefined && hey !== undefined) {
    const faster = median(ours.ms) < median(hey.ms);
    lines.push(
      `Ours vs @hey-api/openapi-ts: ${fmt.ratio(median(ours.ms) / median(hey.ms))} of its time (target: faster: ${faster ? "met" : "MISSED"}).`,
    );
  } else if (large.failures.hey !== undefined) {
    lines.push(`@hey-api/openapi-ts did not run: ${large.failures.hey}`);
  }
  const mine = own.perTool.ours;
  if (mine !== undefined) {
    const ms = median(mine.ms);
    lines.push(
      "",
      `The service's own description \`${own.file}\`, ${reps.own} runs: generate() ${fmt.ms(ms)} (target < 1 s: ${verdict(ms, 1000)}), ` +
        `child wall time with node + tsx start-up ${fmt.ms(median(mine.wallMs))}, peak RSS ${fmt.mib(median(mine.rss))}.`,
    );
  }
  return lines.join("\n");
}
