// The Python runtime package's own gates, run from the repository's Python tool environment (.venv/): its pytest
// suite, mypy --strict for the interpreter of the environment and for Python 3.9, pyright strict, and ruff.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensurePythonEnv, type PythonEnv } from "../../../scripts/setup/python-env.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const RUNTIME = join(ROOT, "targets", "python", "runtime");
const LIMIT = 300_000;

let env: PythonEnv;
let cache: string;

interface Outcome {
  status: number | null;
  output: string;
}

function run(command: string, args: readonly string[]): Outcome {
  const result = spawnSync(command, args, {
    cwd: RUNTIME,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: LIMIT - 10_000,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", NO_COLOR: "1" },
  });
  const output = [`$ ${command} ${args.join(" ")}`, result.error?.message ?? "", result.stdout, result.stderr].join("\n");
  return { status: result.status, output };
}

const tool = (name: string): string => join(env.bin, process.platform === "win32" ? `${name}.exe` : name);

beforeAll(() => {
  env = ensurePythonEnv();
  cache = mkdtempSync(join(tmpdir(), "python-runtime-mypy-"));
}, LIMIT);

afterAll(() => {
  if (cache !== undefined) rmSync(cache, { recursive: true, force: true });
});

describe("Python runtime package", () => {
  it("leaves an environment that is up to date alone", () => {
    const started = Date.now();
    const again = ensurePythonEnv();
    expect(again.changed).toBe(false);
    expect(again.python).toBe(env.python);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it(
    "passes its pytest suite",
    () => {
      const outcome = run(tool("pytest"), ["-q", "-p", "no:cacheprovider"]);
      expect(outcome.status, outcome.output).toBe(0);
      expect(outcome.output, outcome.output).toMatch(/\d+ passed/);
    },
    LIMIT,
  );

  it(
    "passes mypy --strict (source and tests)",
    () => {
      const outcome = run(tool("mypy"), ["--strict", "--cache-dir", join(cache, "current"), "src", "tests"]);
      expect(outcome.status, outcome.output).toBe(0);
    },
    LIMIT,
  );

  it(
    "passes mypy --strict for Python 3.9 (the package's oldest supported Python)",
    () => {
      const outcome = run(tool("mypy"), ["--strict", "--python-version", "3.9", "--cache-dir", join(cache, "py39"), "src"]);
      expect(outcome.status, outcome.output).toBe(0);
    },
    LIMIT,
  );

  it(
    "passes pyright strict",
    () => {
      const pyright = join(ROOT, "node_modules", ".bin", process.platform === "win32" ? "pyright.cmd" : "pyright");
      const outcome = run(pyright, ["-p", join(RUNTIME, "pyrightconfig.json")]);
      expect(outcome.status, outcome.output).toBe(0);
      expect(outcome.output, outcome.output).toMatch(/0 errors/);
    },
    LIMIT,
  );

  it(
    "passes ruff check and ruff format --check",
    () => {
      const check = run(tool("ruff"), ["check", "--no-cache", "."]);
      expect(check.status, check.output).toBe(0);
      const format = run(tool("ruff"), ["format", "--no-cache", "--check", "."]);
      expect(format.status, format.output).toBe(0);
    },
    LIMIT,
  );
});
