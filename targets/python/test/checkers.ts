// The Python type checkers as the tests run them on generated packages: strict pyright over folders (one run, JSON
// report) and mypy --strict over modules, with the repository's tool environment, nothing cached between runs.
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { venvBin } from "./package.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../", import.meta.url));

/** One of pyright's findings. */
export interface PyrightDiagnostic {
  readonly file: string;
  readonly severity: string;
  readonly range?: { readonly start: { readonly line: number } };
  readonly message: string;
}

export interface PyrightReport {
  readonly summary: { readonly filesAnalyzed: number; readonly errorCount: number };
  readonly generalDiagnostics: readonly PyrightDiagnostic[];
}

/**
 * Strict pyright over `include` (folders below `cwd`), for Python 3.10, with a pyrightconfig.json written into `cwd`.
 * Its report as pyright gives it, whatever its exit code.
 */
export async function pyrightStrict(cwd: string, include: readonly string[]): Promise<PyrightReport> {
  const config = join(cwd, "pyrightconfig.json");
  await writeFile(config, JSON.stringify({ include, typeCheckingMode: "strict", pythonVersion: "3.10", venvPath: root, venv: ".venv" }));
  const { stdout } = await run(join(root, "node_modules/.bin/pyright"), ["-p", config, "--outputjson"], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 240_000,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
  return JSON.parse(stdout) as PyrightReport;
}

/** A diagnostic as one line: `<file relative to base>:<line> <first line of the message>`. */
export const diagnosticLine = (base: string, d: PyrightDiagnostic): string =>
  `${relative(base, d.file)}:${(d.range?.start.line ?? -1) + 1} ${d.message.split("\n")[0]}`;

/** mypy --strict for Python 3.10 over `targets` (modules or files) from `cwd`: its output, and whether it found nothing. */
export async function mypyStrict(cwd: string, targets: readonly string[]): Promise<{ readonly clean: boolean; readonly output: string }> {
  const args = ["--strict", "--no-incremental", "--cache-dir", "/dev/null", "--python-version", "3.10", ...targets];
  const output = await run(`${venvBin}mypy`, args, { cwd, maxBuffer: 16 * 1024 * 1024, timeout: 240_000 }).then(
    ({ stdout }) => stdout,
    (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ""}${error.stderr ?? ""}`,
  );
  return { clean: /^Success: no issues found/m.test(output), output };
}
