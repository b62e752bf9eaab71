// Whole processes as users run them: wall time from spawn to exit, CPU time (user + system) and peak RSS of every node
// process the command starts (npm, tsx's child, the CLI), read from rusage-report.mjs, and the load average around it.
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./lib.js";

const REPORTER = pathToFileURL(join(ROOT, "scripts", "bench", "rusage-report.mjs")).href;

export interface ProcessRun {
  code: number | null;
  wallMs: number;
  userMs: number;
  systemMs: number;
  /** user + system of all the command's node processes. */
  cpuMs: number;
  /** The largest peak RSS of one of its processes (a process's worker threads count in its own). */
  peakRssMiB: number;
  /** How many node processes reported. */
  processes: number;
  /** The 1-minute load average when the run started. */
  load: number;
  stdout: string;
  stderr: string;
}

/** Runs a command (from the repository root unless `cwd` says otherwise) and measures it whole. */
export async function measureProcess(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<ProcessRun> {
  const dir = await mkdtemp(join(tmpdir(), "bench-rusage-"));
  try {
    const load = loadavg()[0]!;
    const nodeOptions = [process.env.NODE_OPTIONS, `--import=${REPORTER}`].filter(Boolean).join(" ");
    const started = performance.now();
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(command, [...args], {
        cwd: options.cwd ?? ROOT,
        env: { ...process.env, ...options.env, NODE_OPTIONS: nodeOptions, BENCH_RUSAGE_DIR: dir },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        out += chunk.length + out.length > 1e6 ? "" : chunk;
      });
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        err += chunk.length + err.length > 1e6 ? "" : chunk;
      });
      child.on("error", reject);
      child.on("close", (exit) => resolve({ code: exit, stdout: out, stderr: err }));
    });
    const wallMs = performance.now() - started;
    let userUs = 0;
    let systemUs = 0;
    let peakKiB = 0;
    const files = await readdir(dir);
    for (const file of files) {
      const report = JSON.parse(await readFile(join(dir, file), "utf8")) as { userUs: number; systemUs: number; maxRssKiB: number };
      userUs += report.userUs;
      systemUs += report.systemUs;
      peakKiB = Math.max(peakKiB, report.maxRssKiB);
    }
    return {
      code,
      wallMs,
      userMs: userUs / 1000,
      systemMs: systemUs / 1000,
      cpuMs: (userUs + systemUs) / 1000,
      peakRssMiB: peakKiB / 1024,
      processes: files.length,
      load,
      stdout,
      stderr,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
