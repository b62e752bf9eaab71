// The generated package and the runtime as users get them: each built into a wheel by `python -m build` (hatchling
// from the tool environment, no build isolation: the package index is not used), checked by `twine check`, and
// installed with pip into a fresh virtual environment. The wheels' third-party dependencies (httpx, pydantic,
// typing_extensions) come from the tool environment through a .pth file, not from the index; the two packages
// themselves are imported from the fresh environment's site-packages, never from the repository.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { pythonRoot, venvBin, venvPython } from "./package.js";

const run = promisify(execFile);
const runtimeRoot = fileURLToPath(new URL("../runtime/", import.meta.url));

export interface Installed {
  /** The fresh environment's interpreter. */
  readonly python: string;
  /** The wheels, runtime first. */
  readonly wheels: readonly string[];
  /** What `twine check` printed for them. */
  readonly twine: string;
}

/** Builds both wheels below `dir` and installs them into `dir/venv`. */
export async function installWheels(dir: string, sdkRoot = pythonRoot): Promise<Installed> {
  const dist = join(dir, "dist");
  mkdirSync(dist, { recursive: true });
  const wheels: string[] = [];
  for (const [name, source] of [
    ["runtime", runtimeRoot],
    ["sdk", sdkRoot],
  ] as const) {
    // A copy: building writes into the project folder.
    const copy = join(dir, "src", name);
    cpSync(source, copy, { recursive: true, filter: (path) => !/(__pycache__|\.ruff_cache|\.mypy_cache|\.pytest_cache)$/.test(path) });
    const before = new Set(readdirSync(dist, { withFileTypes: true }).map((e) => e.name));
    await run(venvPython, ["-m", "build", "--wheel", "--no-isolation", "--outdir", dist, copy], { timeout: 200_000 });
    const built = readdirSync(dist).filter((f) => f.endsWith(".whl") && !before.has(f));
    if (built.length !== 1) throw new Error(`expected one wheel of ${name}, found ${built.join(", ") || "none"}`);
    wheels.push(join(dist, built[0]!));
  }
  const { stdout: twine } = await run(`${venvBin}twine`, ["check", "--strict", ...wheels]);
  await run("python3", ["-m", "venv", join(dir, "venv")]);
  const python = join(dir, "venv", "bin", "python");
  const { stdout: site } = await run(python, ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]);
  const { stdout: tools } = await run(venvPython, ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]);
  // Appended after the fresh site-packages: the installed wheels come first.
  writeFileSync(join(site.trim(), "zz_tool_dependencies.pth"), `${tools.trim()}\n`);
  await run(python, ["-m", "pip", "install", "--no-index", "--no-deps", "--disable-pip-version-check", "--no-cache-dir", ...wheels], {
    timeout: 200_000,
  });
  return { python, wheels, twine };
}
