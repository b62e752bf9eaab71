// What publishing needs before anything is generated or built: each target says what it is missing (a tool on PATH, a
// name the configuration must set, its runtime's files, where its registry is) and what it only warns about (a name
// guessed from the description). The command asks every target first and reports every problem of every target at
// once, each with its fix, so that one run shows all there is to do.
import { execFile } from "node:child_process";

/** A prerequisite of publishing that is not met, and what to do about it. */
export interface PublishProblem {
  /** What is missing or wrong, for example "npm is not on PATH". */
  readonly problem: string;
  /** What to do, for example "install Node.js with npm, or put npm on PATH". */
  readonly fix: string;
}

/** A target's answer: the problems that stop the run, and warnings that do not. */
export interface PublishReadiness {
  readonly problems: readonly PublishProblem[];
  readonly warnings: readonly string[];
}

/** What the command tells a target when it asks for its prerequisites. */
export interface PrerequisiteContext {
  /** The environment the tools will run in. */
  readonly env: NodeJS.ProcessEnv;
}

/** What a probe of a tool saw: whether the command was found, its exit code and output. */
export interface Probe {
  readonly found: boolean;
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a short command to see whether a tool is there and what it says; never throws. */
export function probe(command: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<Probe> {
  return new Promise((resolve) => {
    execFile(command, [...args], { env, cwd, timeout: 60_000, maxBuffer: 2 ** 20 }, (error, stdout, stderr) => {
      if (error === null) {
        resolve({ found: true, code: 0, stdout, stderr });
        return;
      }
      const { code } = error as { code?: unknown };
      if (code === "ENOENT") resolve({ found: false, code: -1, stdout: "", stderr: "" });
      else resolve({ found: true, code: typeof code === "number" ? code : 1, stdout, stderr: stderr || error.message });
    });
  });
}

/** A problem found by one target, as the command lists it. */
export interface TargetProblem extends PublishProblem {
  readonly target: string;
}

/** The report of every unmet prerequisite: one entry a problem, its fix below it. */
export function problemsReport(problems: readonly TargetProblem[]): string {
  const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
  const lines = problems.map((p) => `  ${p.target}: ${p.problem}\n    fix: ${p.fix}`);
  return `error: publish cannot start, ${count} to fix first (nothing was generated or published):\n${lines.join("\n")}`;
}
