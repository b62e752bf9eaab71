// The repository's Python tool environment: a virtual environment in .venv/ at the repository root with the pinned,
// hash-checked tools of targets/python/requirements-dev.txt and the Python runtime package installed from its folder.
// A stamp file holds the sha256 of what was installed, so a second call with nothing changed returns at once.
// Plain Node ESM so that `npm ci` can run it (the root package's prepare script) before any TypeScript tooling exists.
// prepare, not postinstall: npm runs a dependency's postinstall when the packed toolchain is installed elsewhere, where
// this script is not shipped; it runs prepare only for the project itself (npm install, npm ci, npm pack).
// It reports on stderr: `npm pack --json` runs prepare too, and its stdout must stay JSON.
// PAPEROFFICE_SKIP_PYTHON_ENV=1 skips it (for installs that never run the Python checks); PYTHON names the interpreter.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const REQUIREMENTS = join(ROOT, "targets", "python", "requirements-dev.txt");
const RUNTIME = join(ROOT, "targets", "python", "runtime");
const VENV = join(ROOT, ".venv");
const STAMP = join(VENV, ".requirements.sha256");

/** The venv's interpreter path (Scripts\python.exe on Windows). */
export function venvPython(venv = VENV) {
  return process.platform === "win32" ? join(venv, "Scripts", "python.exe") : join(venv, "bin", "python");
}

/** The venv's folder of console scripts (pytest, mypy, ruff...). */
export function venvBin(venv = VENV) {
  return process.platform === "win32" ? join(venv, "Scripts") : join(venv, "bin");
}

/** sha256 of the pinned requirements and of the runtime's project file: what the environment is built from. */
function fingerprint() {
  const hash = createHash("sha256");
  for (const file of [REQUIREMENTS, join(RUNTIME, "pyproject.toml")]) {
    hash.update(file.slice(ROOT.length));
    hash.update("\0");
    hash.update(readFileSync(file));
    hash.update("\0");
  }
  return hash.digest("hex");
}

function run(command, args, what) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  if (result.error !== undefined) {
    throw new Error(`${what} failed: cannot run ${command} (${result.error.message})`);
  }
  if (result.status !== 0) {
    throw new Error(`${what} failed (exit ${result.status}): ${command} ${args.join(" ")}\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

/** The interpreter that creates the venv: $PYTHON, else python3 (python on Windows); at least 3.9. */
function basePython() {
  const candidates = process.env.PYTHON ? [process.env.PYTHON] : process.platform === "win32" ? ["python", "py"] : ["python3"];
  for (const candidate of candidates) {
    const probe = spawnSync(candidate, ["-c", "import sys, venv; print('%d.%d' % sys.version_info[:2])"], { encoding: "utf8" });
    if (probe.error !== undefined || probe.status !== 0) continue;
    const [major, minor] = probe.stdout.trim().split(".").map(Number);
    if (major === 3 && minor >= 9) return candidate;
    throw new Error(`${candidate} is Python ${probe.stdout.trim()}; the Python tool environment needs Python 3.9 or later`);
  }
  throw new Error(
    `Python 3 with its venv module was not found (tried ${candidates.join(", ")}). Install Python 3.9 or later ` +
      "(on Debian or Ubuntu: apt-get install python3 python3-venv), or set PYTHON to its path; " +
      "set PAPEROFFICE_SKIP_PYTHON_ENV=1 to install without the Python tools.",
  );
}

/** Whether .venv/ holds what the requirements and the runtime's project file say. */
function upToDate(python, expected) {
  return existsSync(python) && existsSync(STAMP) && readFileSync(STAMP, "utf8").trim() === expected;
}

/** A lock held while the environment is built, so that two processes (npm pack's prepare, a test) take turns. */
const LOCK = join(tmpdir(), `python-env-${createHash("sha256").update(ROOT).digest("hex").slice(0, 16)}.lock`);
const LOCK_STALE_MS = 15 * 60_000;

function withLock(work) {
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if (error?.code !== "EEXIST") throw error;
      let age = 0;
      try {
        age = Date.now() - statSync(LOCK).mtimeMs;
      } catch {
        continue;
      }
      // A lock left by a process that died while building is taken over.
      if (age > LOCK_STALE_MS) rmdirSync(LOCK, { recursive: false });
      else if (Date.now() - started > LOCK_STALE_MS) throw new Error(`waited too long for ${LOCK}`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    return work();
  } finally {
    rmdirSync(LOCK);
  }
}

/**
 * Creates or updates .venv/ and returns its interpreter and script folder. Nothing is run when the stamp matches
 * the current requirements and the interpreter is there.
 */
export function ensurePythonEnv({ log = () => {} } = {}) {
  const python = venvPython();
  const expected = fingerprint();
  if (upToDate(python, expected)) return { python, bin: venvBin(), venv: VENV, changed: false };
  return withLock(() => build(python, expected, log));
}

function build(python, expected, log) {
  // Another process may have built it while this one waited for the lock.
  if (upToDate(python, expected)) return { python, bin: venvBin(), venv: VENV, changed: false };
  if (!existsSync(python)) {
    const base = basePython();
    log(`creating ${VENV} with ${base}`);
    run(base, ["-m", "venv", VENV], "creating the Python virtual environment");
  }
  const pip = [python, "-m", "pip", "--disable-pip-version-check", "--no-input", "install", "--quiet"];
  log("installing the pinned Python tools");
  run(pip[0], [...pip.slice(1), "--require-hashes", "-r", REQUIREMENTS], "installing targets/python/requirements-dev.txt");
  log("installing the Python runtime package");
  // Its build backend is among the pinned tools, so nothing unpinned is downloaded to build it.
  run(pip[0], [...pip.slice(1), "--no-deps", "--no-build-isolation", "-e", RUNTIME], "installing targets/python/runtime");
  writeFileSync(STAMP, `${expected}\n`);
  return { python, bin: venvBin(), venv: VENV, changed: true };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.env.PAPEROFFICE_SKIP_PYTHON_ENV === "1") {
    console.error("python-env: skipped (PAPEROFFICE_SKIP_PYTHON_ENV=1)");
  } else {
    try {
      const started = Date.now();
      const env = ensurePythonEnv({ log: (message) => console.error(`python-env: ${message}`) });
      const took = ((Date.now() - started) / 1000).toFixed(1);
      console.error(`python-env: ${env.changed ? "ready" : "up to date"} in ${took} s (${env.python})`);
    } catch (error) {
      console.error(`python-env: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    }
  }
}
