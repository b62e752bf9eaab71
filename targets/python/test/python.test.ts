// The generated Python client: strict pyright over generated/python, the unittest suite against the mock service,
// and deterministic generation.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitPython } from "../emit/index.js";
import { generate } from "../../../generator/generate.js";
import { currentRelease, releaseFile } from "../../../test/support/service-releases.js";
import { type MockServer, startMock } from "../../../mock/index.js";
import { generatedPythonModule, pythonRoot, venvBin, venvPython } from "./package.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../", import.meta.url));
const here = fileURLToPath(new URL("./", import.meta.url));

describe("python client", () => {
  it("type-checks strictly with pyright (zero errors)", async () => {
    const { stdout } = await run("npx", ["--no-install", "pyright", "-p", `${here}pyrightconfig.json`, "--outputjson"], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
    const report = JSON.parse(stdout) as {
      summary: { filesAnalyzed: number; errorCount: number; warningCount: number };
      generalDiagnostics: { file: string; range: { start: { line: number } }; message: string }[];
    };
    const problems = report.generalDiagnostics.map((d) => `${d.file.slice(root.length)}:${d.range.start.line + 1} ${d.message}`);
    expect(problems).toEqual([]);
    expect(report.summary.filesAnalyzed).toBeGreaterThanOrEqual(5);
    expect(report.summary.errorCount).toBe(0);
  }, 120_000);

  it("type-checks with mypy --strict (zero errors)", async () => {
    const result = await run(
      `${venvBin}mypy`,
      ["--strict", "--no-incremental", "--cache-dir", "/dev/null", "--python-version", "3.10", generatedPythonModule()],
      { cwd: pythonRoot, maxBuffer: 16 * 1024 * 1024, timeout: 240_000 },
    ).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: `${error.stdout ?? ""}${error.stderr ?? ""}`, stderr: "" }));
    expect(result.stdout).toMatch(/^Success: no issues found in \d+ source files/m);
  }, 300_000);

  it("is formatted by ruff format and clean under ruff check, lines of 120 columns at most", async () => {
    const ruff = `${venvBin}ruff`;
    const format = await run(ruff, ["format", "--no-cache", "--check", "."], { cwd: pythonRoot }).catch(
      (error: { stdout?: string; stderr?: string }) => ({ stdout: `${error.stdout ?? ""}${error.stderr ?? ""}`, stderr: "" }),
    );
    expect(format.stdout).toMatch(/files? already formatted/);
    expect(format.stdout).not.toMatch(/would reformat/);
    const check = await run(ruff, ["check", "--no-cache", "--output-format", "concise", "."], { cwd: pythonRoot }).catch(
      (error: { stdout?: string; stderr?: string }) => ({ stdout: `${error.stdout ?? ""}${error.stderr ?? ""}`, stderr: "" }),
    );
    expect(check.stdout.trim()).toBe("All checks passed!");
    // E501 is off for the one-line generated-file header; every other line fits in 120 columns.
    const long: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith(".py")) {
          readFileSync(path, "utf8")
            .split("\n")
            .forEach((line, i) => {
              if (i > 0 && line.length > 120) long.push(`${path.slice(pythonRoot.length)}:${i + 1} (${line.length})`);
            });
        }
      }
    };
    walk(pythonRoot);
    expect(long).toEqual([]);
  }, 120_000);

  it("lists in each module's __all__ every public function and class the module defines", async () => {
    const program = `import importlib, inspect, pkgutil
pkg = importlib.import_module(${JSON.stringify(generatedPythonModule())})
missing = []
for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
    module = importlib.import_module(info.name)
    listed = getattr(module, "__all__", None)
    if listed is None:
        continue
    for name, value in vars(module).items():
        defined = (inspect.isfunction(value) or inspect.isclass(value)) and getattr(value, "__module__", None) == module.__name__
        if defined and not name.startswith("_") and name not in listed:
            missing.append(module.__name__ + "." + name)
print("\\n".join(missing))
`;
    const { stdout } = await run(venvPython, ["-c", program], { cwd: pythonRoot });
    expect(stdout.trim().split("\n").filter(Boolean)).toEqual([]);
  });

  it("imports its asyncio client, its webhooks and asyncio only when first used, under the names of __all__", async () => {
    const sdk = generatedPythonModule();
    const program = `import importlib, json, sys
pkg = importlib.import_module(${JSON.stringify(sdk)})
lazy = [pkg.__name__ + ".aio", pkg.__name__ + ".webhooks", "asyncio"]
before = [name for name in lazy if name in sys.modules]
from ${sdk} import AsyncClient, verify, webhooks
import ${sdk}.webhooks as direct
star = {}
exec("from ${sdk} import *", star)
imported = [name for name in lazy if name in sys.modules]
AsyncClient(token="t", base_url="http://127.0.0.1:9/latest")
print(json.dumps({
    "before": before,
    "imported": imported,
    "used": [name for name in lazy if name in sys.modules],
    "same": [AsyncClient is sys.modules[pkg.__name__ + ".aio"].AsyncClient, verify is webhooks.verify, direct is webhooks],
    "missing": sorted(set(pkg.__all__) - set(star)),
}))
`;
    const { stdout } = await run(venvPython, ["-c", program], { cwd: pythonRoot });
    const out = JSON.parse(stdout) as Record<string, unknown>;
    expect(out).toEqual({
      before: [],
      // The asyncio client's module needs asyncio only once a client is made.
      imported: [`${sdk}.aio`, `${sdk}.webhooks`],
      used: [`${sdk}.aio`, `${sdk}.webhooks`, "asyncio"],
      same: [true, true, true],
      missing: [],
    });
  });

  it("generates byte-identical Python twice", async () => {
    const source = releaseFile(currentRelease());
    const [a, b] = await Promise.all([generate(source, { emitters: [emitPython] }), generate(source, { emitters: [emitPython] })]);
    const files = (g: typeof a) => g.files.filter((f) => f.path.startsWith("python/"));
    expect(files(a).map((f) => f.path)).toEqual([
      "python/README.md",
      ...[
        "__init__.py",
        "aio.py",
        "client.py",
        "errors.py",
        "model.py",
        "models/__init__.py",
        "models/_base.py",
        "models/_models_a.py",
        "models/_models_v.py",
        "py.typed",
        "types/__init__.py",
        "types/_base.py",
        "types/_models_a.py",
        "types/_models_v.py",
        "webhooks.py",
      ].map((f) => `python/${generatedPythonModule()}/${f}`),
      "python/pyproject.toml",
    ]);
    expect(files(a)).toEqual(files(b));
    for (const f of files(a)) {
      const first = f.content.split("\n")[0];
      if (f.path.endsWith(".md")) expect(first).toMatch(/^<!-- Code generated by paperoffice-sdk .* DO NOT EDIT\. -->$/);
      else expect(first).toMatch(/^# Code generated by paperoffice-sdk .* DO NOT EDIT\.$/);
    }
  });
});

describe("python client against the mock service", () => {
  let mock: MockServer;
  let limited: MockServer;
  beforeAll(async () => {
    mock = await startMock({ holdMs: 1_000, jobDurationMs: 100 });
    limited = await startMock({ holdMs: 1_000, jobDurationMs: 100, rateLimits: { second: 1 } });
  });
  afterAll(async () => {
    await Promise.all([mock?.stop(), limited?.stop()]);
  });

  it("passes the unittest suite (python3 -m unittest)", async () => {
    const result = await run(venvPython, ["-m", "unittest", "-v", "test_client"], {
      cwd: here,
      env: {
        ...process.env,
        PYTHONPATH: `${root}generated/python`,
        PYTHONDONTWRITEBYTECODE: "1",
        SDK_MODULE: generatedPythonModule(),
        SERVICE_MOCK_URL: mock.url,
        SERVICE_MOCK_LIMITED_URL: limited.url,
      },
      timeout: 90_000,
    }).catch((error: { stdout?: string; stderr?: string; code?: number }) => ({ ...error, failed: true }));
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
    expect("failed" in result ? output : "ok").toBe("ok");
    expect(output).toMatch(/Ran \d+ tests/);
    expect(output).toMatch(/\nOK\s*$/);
    expect(mock.stats.invalidResponses).toEqual([]);
  }, 120_000);
});
