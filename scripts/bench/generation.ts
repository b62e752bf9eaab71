// In-process generation time (not what users run: module loading and writing excluded): our generate() vs
// openapi-typescript's openapiTS(), each run in a child process of its own per repetition, in alternating order.
import { mkdir, rm } from "node:fs/promises";
import { fmt, lastJson, median, runNode, table } from "./lib.js";

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

export function generationTable(result: GenerationResult): string {
  const rows: string[][] = [];
  const ots = result.perTool.ots;
  const baseMs = ots === undefined ? Number.NaN : median(ots.ms);
  for (const [tool, r] of Object.entries(result.perTool) as [Tool, NonNullable<GenerationResult["perTool"][Tool]>][]) {
    const ms = median(r.ms);
    rows.push([
      TOOLS[tool],
      fmt.ms(ms),
      fmt.ms(median(r.wallMs)),
      fmt.mib(median(r.rss)),
      fmt.ratio(ms / baseMs),
      `${(r.outputBytes / 1e6).toFixed(2)} MB`,
    ]);
  }
  for (const [tool, failure] of Object.entries(result.failures)) rows.push([TOOLS[tool as Tool], `failed: ${failure}`, "", "", "", ""]);
  return [
    `\`${result.file}\`, ${Math.max(...Object.values(result.perTool).map((r) => r.ms.length))} runs per tool in alternating order, one child process per run; medians.`,
    "",
    table(["tool (in-process)", "time of the call", "child wall time", "peak RSS", "time vs openapi-typescript", "output"], rows),
  ].join("\n");
}
