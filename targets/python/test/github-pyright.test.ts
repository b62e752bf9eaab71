// SLOW (about a minute of CPU; several minutes of wall time on a loaded machine): the Python client generated from
// GitHub's description (@octokit/openapi: 800+ paths, 2,900 types) passes strict pyright and mypy --strict with zero
// errors, both on the same generated output. Its types are spread over the modules of a `types` package; as one
// module pyright gave up ("code is too complex"). The package is also imported, every TypedDict's annotations
// resolved across its modules, and every pydantic model of the answers built.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitPython } from "../emit/index.js";
import { generate, writeFiles } from "../../../generator/generate.js";
import { venvBin, venvPython } from "./package.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../", import.meta.url));
const spec = join(root, "node_modules/@octokit/openapi/generated/api.github.com.json");

describe("the Python client generated from GitHub's description (slow)", () => {
  let out: string | undefined;
  let module: string | undefined;
  let typeModules: string[] = [];
  let generated = 0;
  const started = Date.now();
  const progress = (step: string) => console.log(`[github python] ${step} after ${((Date.now() - started) / 1000).toFixed(0)} s`);
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), "github-python-"));
    const { files } = await generate(spec, { emitters: [emitPython] });
    await writeFiles(out, files);
    generated = files.length;
    [module] = (await readdir(join(out, "python"), { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    typeModules = (await readdir(join(out, "python", module!, "types"))).filter((f) => f.startsWith("_models_"));
  }, 600_000);
  afterAll(async () => {
    if (out !== undefined) await rm(out, { recursive: true, force: true });
  });

  it("type-checks with strict pyright, zero errors", async () => {
    progress(`generated ${generated} files (${typeModules.length} type modules)`);
    // More than one module: the point of the split. Each is bounded, so pyright can analyse it.
    expect(typeModules.length).toBeGreaterThan(10);
    // At run time the modules import each other at their ends, cycles included: every annotation resolves.
    const resolve = `
import importlib, sys, typing
types = importlib.import_module(sys.argv[1] + ".types")
checked = 0
for name in dir(types):
    value = getattr(types, name)
    if isinstance(value, type) and typing.is_typeddict(value):
        typing.get_type_hints(value)
        checked += 1
models = importlib.import_module(sys.argv[1] + ".models")
for name in dir(models):
    value = getattr(models, name)
    if isinstance(value, type) and hasattr(value, "model_rebuild"):
        value.model_rebuild(raise_errors=True)
print(checked)
`;
    const resolved = await run(venvPython, ["-c", resolve, module!], {
      cwd: join(out!, "python"),
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
      timeout: 300_000,
    });
    expect(Number(resolved.stdout.trim())).toBeGreaterThan(1000);
    progress(`imported, and the annotations of ${resolved.stdout.trim()} TypedDicts resolved`);
    await writeFile(
      join(out!, "pyrightconfig.json"),
      JSON.stringify({
        include: ["python"],
        typeCheckingMode: "strict",
        pythonVersion: "3.10",
        reportMissingModuleSource: "error",
        venvPath: root,
        venv: ".venv",
      }),
    );
    const { stdout } = await run(join(root, "node_modules/.bin/pyright"), ["-p", join(out!, "pyrightconfig.json"), "--outputjson"], {
      cwd: out!,
      maxBuffer: 256 * 1024 * 1024,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
    progress("pyright done");
    const report = JSON.parse(stdout) as {
      summary: { filesAnalyzed: number; errorCount: number };
      generalDiagnostics: { file: string; range?: { start: { line: number } }; message: string }[];
    };
    const problems = report.generalDiagnostics.map(
      (d) => `${d.file.slice(out!.length)}:${(d.range?.start.line ?? -1) + 1} ${d.message.split("\n")[0]}`,
    );
    expect(problems.slice(0, 30)).toEqual([]);
    expect(report.summary.errorCount).toBe(0);
    // The types modules, as many models modules, and ten more (the clients, errors, model, webhooks, the packages).
    expect(report.summary.filesAnalyzed).toBe(typeModules.length * 2 + 10);
  }, 900_000);

  it("type-checks with mypy --strict, zero errors", async () => {
    // The cache goes to the temporary output folder, not the repository.
    const result = await run(
      `${venvBin}mypy`,
      ["--strict", "--python-version", "3.10", "--cache-dir", join(out!, ".mypy_cache"), module!],
      { cwd: join(out!, "python"), maxBuffer: 64 * 1024 * 1024, timeout: 800_000 },
    ).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: `${error.stdout ?? ""}${error.stderr ?? ""}`, stderr: "" }));
    progress("mypy done");
    expect(
      result.stdout
        .split("\n")
        .filter((line) => /: error: /.test(line))
        .slice(0, 30),
    ).toEqual([]);
    // Every module: the types modules, as many models modules, and the ten others pyright counts too.
    expect(result.stdout).toMatch(new RegExp(`^Success: no issues found in ${typeModules.length * 2 + 10} source files`, "m"));
  }, 900_000);
});
