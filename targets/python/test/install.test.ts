// The generated Python package installs with pip into a fresh virtual environment and works from there: imported
// from site-packages (not from the repository), its version the release's, a call and a job against the mock.
// The package index is not used (`--no-index`): the package has no dependency. When the venv's setuptools can build
// a wheel offline (70.1 or later, or with the `wheel` package), pip builds and installs the package from its folder
// (`--no-build-isolation`). Older setuptools needs `wheel`, which only the index would supply: then build_wheel.py
// (standard library) makes the wheel from pyproject.toml and pip installs that. The way taken is printed.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pythonVersion } from "../emit/view.js";
import { currentRelease } from "../../../generator/spec/releases.js";
import { type MockServer, startMock } from "../../../mock/index.js";
import { generatedPythonModule, pythonRoot } from "./package.js";

const run = promisify(execFile);

const SCRIPT = `
import asyncio, importlib, json, os, sys
sdk = importlib.import_module(sys.argv[1])
url = sys.argv[2]
client = sdk.Client("svc_sk_install_test", url, poll_interval=(0.05, 0.1), job_deadline=30.0)
webhooks = client.list_webhooks()
job = client.submit_job("workflow", {"template": "pdf_ai_split", "file": sdk.FileUpload(b"%PDF-1.4\\n", "in.pdf", "application/pdf")})
async def run():
    async with sdk.AsyncClient("svc_sk_install_test", url) as c:
        return await c.list_webhooks()
awaited = asyncio.run(run())
print(json.dumps({"file": sdk.__file__, "webhooks": webhooks["status"], "job": job.status, "async": awaited["status"]}))
`;

describe("pip install of the generated Python package", () => {
  let dir: string;
  let mock: MockServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "py-install-"));
    mock = await startMock({ holdMs: 1_000, jobDurationMs: 100 });
  });
  afterAll(async () => {
    await mock?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("installs into a fresh venv without the package index, imports from there and calls the mock", async () => {
    const source = join(dir, "source");
    // A copy: building writes build/ and *.egg-info next to pyproject.toml.
    cpSync(pythonRoot, source, { recursive: true });
    await run("python3", ["-m", "venv", join(dir, "venv")]);
    const python = join(dir, "venv", "bin", "python");
    const pip = ["-m", "pip", "install", "--no-index", "--disable-pip-version-check", "--no-cache-dir"];
    // setuptools builds wheels by itself from 70.1 on; before, only with the wheel package installed.
    const probe =
      "import importlib.util, setuptools; v = tuple(int(x) for x in setuptools.__version__.split('.')[:2]); print(v >= (70, 1) or importlib.util.find_spec('wheel') is not None)";
    const canBuild = await run(python, ["-c", probe]).then(
      ({ stdout }) => stdout.trim() === "True",
      () => false,
    );
    let built: string;
    if (canBuild) {
      await run(python, [...pip, "--no-build-isolation", source], { timeout: 200_000 });
      built = "pip with the venv's setuptools";
    } else {
      const { stdout: wheel } = await run(python, [fileURLToPath(new URL("./build_wheel.py", import.meta.url)), source, dir]);
      await run(python, [...pip, wheel.trim()], { timeout: 200_000 });
      built = "build_wheel.py, then pip (the venv's setuptools cannot build a wheel without the wheel package)";
    }
    console.log(`python package installed by ${built}`);

    const module = generatedPythonModule();
    const { stdout: shown } = await run(python, ["-m", "pip", "show", module.replaceAll("_", "-")], {
      env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1" },
    });
    expect(shown).toMatch(new RegExp(`^Version: ${pythonVersion(currentRelease()).replaceAll(".", "\\.")}$`, "m"));

    const env: NodeJS.ProcessEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: "1" };
    delete env.PYTHONPATH;
    const { stdout } = await run(python, ["-c", SCRIPT, module, mock.url], { cwd: dir, env, timeout: 60_000 });
    const report = JSON.parse(stdout) as { file: string; webhooks: string; job: string; async: string };
    expect(report.file.startsWith(join(dir, "venv"))).toBe(true);
    expect(report.file).toContain("site-packages");
    expect(report).toMatchObject({ webhooks: "success", job: "completed", async: "success" });
  }, 240_000);
});
