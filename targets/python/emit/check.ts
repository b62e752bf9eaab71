// The release check of the Python package: every module compiled by Python itself.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

/** Problems of the package below `<out>/python` ([] when it compiles), undefined when python3 is not on PATH. */
export async function checkPythonPackage(out: string): Promise<string[] | undefined> {
  // Nothing written: compileall would leave __pycache__ behind.
  const script =
    "import pathlib, sys\nfor p in sorted(pathlib.Path(sys.argv[1]).rglob('*.py')): compile(p.read_text('utf-8'), str(p), 'exec')";
  try {
    await promisify(execFile)("python3", ["-c", script, join(out, "python")]);
    return [];
  } catch (error) {
    const { code, stdout = "", stderr = "" } = error as { code?: string | number; stdout?: string; stderr?: string };
    if (code === "ENOENT") return undefined;
    return `${stdout}${stderr}`.trim().split("\n").slice(0, 20);
  }
}
