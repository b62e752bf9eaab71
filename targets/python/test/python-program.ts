// Running a Python program against a generated package, as the Python target's wire tests do.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { venvPython } from "./package.js";

const run = promisify(execFile);

/**
 * Runs `program` (`python -c`) with `args` in `cwd`, the folder `pythonPath` importable, and returns its stdout; a
 * failure throws the last lines of the program's output, the Python error rather than a bare exit status.
 */
export async function runPython(program: string, args: readonly string[], cwd: string, pythonPath: string): Promise<string> {
  try {
    const { stdout } = await run(venvPython, ["-c", program, ...args], {
      cwd,
      env: { ...process.env, PYTHONPATH: pythonPath, PYTHONDONTWRITEBYTECODE: "1" },
      timeout: 60_000,
    });
    return stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(`${failed.stdout ?? ""}${failed.stderr ?? ""}`.trim().split("\n").slice(-4).join("\n"));
  }
}
