// Runs the soak of one language: a mock with every fault kind at a share of the requests and compressed time, the
// language's soak driver in a process of its own, then the judge over the driver's report and the mock's request
// log. soak.test.ts runs a small count in `npm test`; soak-contract.test.ts the full count in the contract tests.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { FAULT_KINDS, type FaultRule, type MockServer, startMock } from "../../mock/index.js";
import { generatedPythonModule } from "../../targets/python/test/package.js";
import { buildGoDriver } from "./go-drivers.js";
import { judgeSoak, type SoakConfig, type SoakJob, type SoakReport, type Stall } from "./soak.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const here = fileURLToPath(new URL("./", import.meta.url));
/** The repository's Python tool environment, where the runtime is installed from its source. */
const venvPython = join(root, ".venv", "bin", "python");

export const SOAK_LANGUAGES = ["typescript", "python-sync", "python-async", "go"] as const;
export type SoakLanguage = (typeof SOAK_LANGUAGES)[number];

/** The share of requests a fault is injected into, spread evenly over every kind the mock has. */
export const FAULT_SHARE = 0.05;

export interface SoakOutcome {
  language: SoakLanguage;
  report: SoakReport;
  /** From the driver's start to its exit. */
  wallMs: number;
  stderr: string;
}

/**
 * Compressed time: holds of 200 ms (the service's are minutes), jobs of 20 to 600 ms so that some end within the hold
 * and others after its 202, slow and trickled answers of 300 ms; calls' deadlines of 4 s, 1.5 s and 0.6 s.
 */
export function soakMockOptions(seed: number) {
  const faults: FaultRule[] = FAULT_KINDS.map((kind) => ({ kind, rate: FAULT_SHARE / FAULT_KINDS.length }));
  return {
    holdMs: 200,
    jobDurationMs: [20, 600] as const,
    slowHeadersMs: 300,
    seed,
    faults,
    recordRequests: true,
    // Neither the request windows nor the credits are under test here: the 429 fault stands for the former.
    rateLimits: { second: 1_000_000, minute: 10_000_000, hour: 100_000_000, day: 1_000_000_000 },
    credits: 1_000_000_000,
  };
}

function configOf(language: SoakLanguage, mock: MockServer, jobs: number): SoakConfig {
  const config: SoakConfig = {
    baseUrl: mock.url,
    token: "svc_sk_soak_0001",
    prefix: `soak-${language}`,
    jobs,
    concurrency: 16,
    // Most calls have time to spare; one in five has a deadline that can fall during a hold, a slow answer or a
    // job's run, so that deadlines end calls in flight too.
    deadlinesMs: [4_000, 4_000, 4_000, 1_500, 600],
    pollMs: [20, 60],
    maxRetries: 3,
    baseDelayMs: 20,
    maxDelayMs: 200,
    maxRetryAfterMs: 2_000,
    pipeline: "workflow",
    modes: ["start", "held", "submit", "submit"],
  };
  if (language === "python-sync" || language === "python-async") {
    config.mode = language === "python-async" ? "async" : "sync";
    config.module = generatedPythonModule();
  }
  return config;
}

interface Command {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cleanup?: () => Promise<void>;
}

/** The Go soak driver, built once (go-drivers.ts; the soak tests build it in a hook). */
async function goCommand(): Promise<Command> {
  const { binary, env } = await buildGoDriver("./soak");
  return { file: binary, args: [], env };
}

async function commandOf(language: SoakLanguage): Promise<Command> {
  if (language === "typescript") {
    return { file: process.execPath, args: ["--import", "tsx", join(here, "drivers", "soak.ts")], env: process.env };
  }
  if (language === "go") return goCommand();
  const env: NodeJS.ProcessEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: "1", PYTHONPATH: join(root, "generated", "python") };
  return { file: venvPython, args: [join(here, "drivers", "python_soak.py")], env };
}

interface Driven {
  jobs: SoakJob[];
  stalls: Stall[];
  stderr: string;
  wallMs: number;
}

function drive(command: Command, config: SoakConfig, timeoutMs: number): Promise<Driven> {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const child = spawn(command.file, command.args, { env: command.env, stdio: ["pipe", "pipe", "pipe"] });
    const jobs: SoakJob[] = [];
    const stalls: Stall[] = [];
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      if (line.trim() === "") return;
      const parsed = JSON.parse(line) as SoakJob | { stalls: Stall[] };
      if ("stalls" in parsed) stalls.push(...(parsed.stalls ?? []));
      else jobs.push(parsed);
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const wallMs = Math.round(performance.now() - began);
      if (code !== 0) reject(new Error(`the soak driver exited with ${code ?? signal} after ${wallMs} ms\n${stderr.slice(-4000)}`));
      else resolve({ jobs, stalls, stderr, wallMs });
    });
    child.stdin.end(JSON.stringify(config));
  });
}

export async function runSoak(language: SoakLanguage, jobs: number, seed: number, timeoutMs: number): Promise<SoakOutcome> {
  const command = await commandOf(language);
  const mock = await startMock(soakMockOptions(seed));
  try {
    const config = configOf(language, mock, jobs);
    const run = await drive(command, config, timeoutMs);
    return { language, report: judgeSoak(config, run.jobs, mock.requestLog(), run.stalls), wallMs: run.wallMs, stderr: run.stderr };
  } finally {
    await mock.stop();
    await command.cleanup?.();
  }
}

/** One line per language: what the issue asks the soak to show. */
export function summary(outcome: SoakOutcome): string {
  const r = outcome.report;
  const faults = FAULT_KINDS.map((k) => `${k} ${r.faults[k] ?? 0}`).join(", ");
  const errors = Object.entries(r.errors)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  return (
    `soak ${outcome.language}: ${r.jobs} jobs (${r.ok} completed, errors: ${errors || "none"}), ${r.requests} requests, ` +
    `${r.faulted} faults (${((100 * r.faulted) / Math.max(1, r.requests)).toFixed(1)}%: ${faults}), ` +
    `${r.created} jobs created (at most ${r.maxSubmissionsPerJob} submissions read for one), ${r.duplicates.length} duplicate submissions, ${r.lost.length} lost, ${r.overruns.length} overruns ` +
    `(max wait overrun ${r.maxOverrunMs} ms${r.maxStallMs > 0 ? `, of which the driver's process stalled up to ${r.maxStallMs} ms` : ""}), ${r.earlyRetries.length} retries before Retry-After, ${r.wrong.length} other problems, wall ${(outcome.wallMs / 1000).toFixed(1)} s`
  );
}
