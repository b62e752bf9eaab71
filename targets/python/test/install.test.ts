// The generated Python package as users install it: built into a wheel by `python -m build` beside the runtime's
// wheel, both clean under `twine check`, installed with pip into a fresh virtual environment (see wheels.ts), and
// working from there: imported from site-packages (not from the repository), its version the release's, requiring
// the runtime by a compatible range, and a call, a job and an asyncio call against the mock.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pythonVersion } from "../emit/view.js";
import { currentRelease } from "../../../test/support/service-releases.js";
import { type MockServer, startMock } from "../../../mock/index.js";
import { generatedPythonModule } from "./package.js";
import { installWheels } from "./wheels.js";

const run = promisify(execFile);

const SCRIPT = `
import asyncio, importlib, json, sys
import paperoffice_runtime
sdk = importlib.import_module(sys.argv[1])
url = sys.argv[2]
with sdk.Client("svc_sk_install_test", url, poll_interval=(0.05, 0.1), job_deadline=30.0) as client:
    webhooks = client.list_webhooks()
    job = client.submit_job("workflow", {"template": "pdf_ai_split", "file": sdk.FileUpload("in.pdf", b"%PDF-1.4\\n", "application/pdf")})
async def run():
    async with sdk.AsyncClient("svc_sk_install_test", url) as c:
        return await c.list_webhooks()
awaited = asyncio.run(run())
print(json.dumps({
    "file": sdk.__file__,
    "runtime": paperoffice_runtime.__file__,
    "webhooks": webhooks.status,
    "job": job.job_id,
    "async": awaited.status,
}))
`;

describe("the generated Python package, installed from its wheel", () => {
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

  it("builds both wheels, passes twine check, installs into a fresh venv and calls the mock from there", async () => {
    const { python, wheels, twine } = await installWheels(dir);
    expect(wheels.map((w) => w.split("/").at(-1))).toEqual([
      "paperoffice_sdk_runtime-0.1.0-py3-none-any.whl",
      `${generatedPythonModule()}-${pythonVersion(currentRelease())}-py3-none-any.whl`,
    ]);
    // Each wheel passed.
    expect(twine.match(/PASSED/g)).toHaveLength(2);
    expect(twine).not.toMatch(/FAILED|WARNING/);

    const module = generatedPythonModule();
    const { stdout: shown } = await run(python, ["-m", "pip", "show", module.replaceAll("_", "-")], {
      env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1" },
    });
    expect(shown).toMatch(new RegExp(`^Version: ${pythonVersion(currentRelease()).replaceAll(".", "\\.")}$`, "m"));
    expect(shown).toMatch(/^Requires: .*paperoffice-sdk-runtime/m);

    const env: NodeJS.ProcessEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: "1" };
    delete env.PYTHONPATH;
    const { stdout } = await run(python, ["-c", SCRIPT, module, mock.url], { cwd: dir, env, timeout: 60_000 });
    const report = JSON.parse(stdout) as { file: string; runtime: string; webhooks: string; job: string; async: string };
    for (const file of [report.file, report.runtime]) {
      expect(file.startsWith(join(dir, "venv"))).toBe(true);
      expect(file).toContain("site-packages");
    }
    expect(report).toMatchObject({ webhooks: "success", async: "success" });
    expect(report.job).toMatch(/^job_/);
  }, 300_000);
});
