// The generated package and the runtime as users get them: each built into a wheel by `python -m build` (hatchling
// from the tool environment, no build isolation: the package index is not used), checked by `twine check`, and
// installed with pip into a fresh virtual environment. The wheels' third-party dependencies (httpx, pydantic,
// typing_extensions) come from the tool environment through a .pth file, not from the index; the two packages
// themselves are imported from the fresh environment's site-packages, never from the repository.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
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

/** Builds the runtime's wheel and the SDK's into `dir/dist` (runtime first), from copies below `dir/src`. */
export async function buildWheels(dir: string, sdkRoot = pythonRoot): Promise<string[]> {
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
  return wheels;
}

/**
 * A fresh virtual environment `dir/venv` whose third-party dependencies (httpx, pydantic...) come from the tool
 * environment through a .pth file: pip counts them as installed, so that only the two packages are installed anew.
 */
export async function freshVenv(dir: string, options: { readonly withoutRuntime?: boolean } = {}): Promise<string> {
  await run("python3", ["-m", "venv", join(dir, "venv")]);
  const python = join(dir, "venv", "bin", "python");
  const { stdout: site } = await run(python, ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]);
  const { stdout: tools } = await run(venvPython, ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]);
  let shared = tools.trim();
  if (options.withoutRuntime) {
    // The tool environment holds the runtime (editable): a folder of links to all of it but the runtime, so that pip
    // takes the runtime from the index the SDK is installed from, as its dependency.
    shared = join(dir, "tool-dependencies");
    mkdirSync(shared);
    for (const entry of readdirSync(tools.trim()))
      if (!/paperoffice_(sdk_)?runtime/i.test(entry)) symlinkSync(join(tools.trim(), entry), join(shared, entry));
  }
  // Appended after the fresh site-packages: the installed wheels come first.
  writeFileSync(join(site.trim(), "zz_tool_dependencies.pth"), `${shared}\n`);
  return python;
}

/** Builds both wheels below `dir` and installs them into `dir/venv`. */
export async function installWheels(dir: string, sdkRoot = pythonRoot): Promise<Installed> {
  const wheels = await buildWheels(dir, sdkRoot);
  const { stdout: twine } = await run(`${venvBin}twine`, ["check", "--strict", ...wheels]);
  const python = await freshVenv(dir);
  await run(python, ["-m", "pip", "install", "--no-index", "--no-deps", "--disable-pip-version-check", "--no-cache-dir", ...wheels], {
    timeout: 200_000,
  });
  return { python, wheels, twine };
}
