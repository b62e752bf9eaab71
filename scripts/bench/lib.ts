// Shared helpers of the benchmarks: statistics, child processes, machine facts, markdown.
import { spawn } from "node:child_process";
import { cpus, totalmem } from "node:os";
import { fileURLToPath } from "node:url";

/** The repository root (scripts/bench/../..). */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function min(values: readonly number[]): number {
  return Math.min(...values);
}

export function max(values: readonly number[]): number {
  return Math.max(...values);
}

/** The machine, as the report's header states it. */
export function machine(): string {
  const cpu = cpus();
  const gib = (totalmem() / 2 ** 30).toFixed(1);
  return `${cpu.length} cores (${cpu[0]?.model.trim() ?? "unknown cpu"}), ${gib} GiB memory, Node ${process.version}, ${process.platform}/${process.arch}`;
}

export interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
  wallMs: number;
}

/** Runs node with the given arguments from the repository root; resolves when it exits. */
export function runNode(args: readonly string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...args], {
      cwd: ROOT,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, wallMs: performance.now() - started }));
  });
}

/** The last line of a child's stdout that parses as a JSON object. */
export function lastJson<T>(stdout: string): T {
  const lines = stdout.trim().split("\n").reverse();
  for (const line of lines) {
    if (!line.startsWith("{")) continue;
    try {
      return JSON.parse(line) as T;
    } catch {
      // not the result line
    }
  }
  throw new Error(`no JSON result line in the child's output:\n${stdout.slice(-2000)}`);
}

export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

export const fmt = {
  ms: (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`),
  us: (us: number) => `${us.toFixed(1)} µs`,
  mib: (mib: number) => `${mib.toFixed(0)} MiB`,
  kb: (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`,
  ratio: (r: number) => `${r.toFixed(2)}x`,
};

/** "met" or "MISSED by N%" for a value that must stay at or below a limit. */
export function verdict(value: number, limit: number): string {
  if (value <= limit) return "met";
  return `MISSED (by ${(((value - limit) / limit) * 100).toFixed(0)}%)`;
}

export function log(message: string): void {
  process.stderr.write(`${message}\n`);
}
