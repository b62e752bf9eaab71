// The Python packages through a package index as users get them: the runtime's wheel and the SDK's of two releases,
// built by `python -m build`, uploaded by `twine upload` to a pypiserver on 127.0.0.1, then `pip install <sdk>==<version>`
// from that index into a fresh virtual environment, and a sync and an async call against the mock.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listReleases } from "../support/service-releases.js";
import { type MockServer, startMock } from "../../mock/index.js";
import { pythonVersion } from "../../targets/python/emit/view.js";
import { generatedPythonModule, venvBin } from "../../targets/python/test/package.js";
import { buildWheels, freshVenv } from "../../targets/python/test/wheels.js";
import { pipInstallPinned, pythonSdk } from "./python-sdk.js";
import { type LocalRegistry, startPypiServer } from "./servers.js";

const run = promisify(execFile);

const SCRIPT = `
import asyncio, importlib, json, sys
from importlib.metadata import version
import paperoffice_runtime
sdk = importlib.import_module(sys.argv[1])
with sdk.Client("svc_sk_pypi_test", sys.argv[2]) as client:
    listed = client.list_webhooks()
async def main():
    async with sdk.AsyncClient("svc_sk_pypi_test", sys.argv[2]) as c:
        return await c.list_webhooks()
awaited = asyncio.run(main())
print(json.dumps({"file": sdk.__file__, "runtime": paperoffice_runtime.__file__, "version": version(sys.argv[3]), "sync": listed.status, "async": awaited.status}))
`;

describe("the Python SDK of two releases through a local package index", () => {
  const releases = listReleases().slice(-2);
  let dir: string;
  let index: LocalRegistry;
  let mock: MockServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "publish-pypi-"));
    [index, mock] = await Promise.all([startPypiServer(dir), startMock({ holdMs: 1_000, jobDurationMs: 100 })]);
  });
  afterAll(async () => {
    await Promise.all([index?.stop(), mock?.stop()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("has two releases to publish", () => {
    expect(releases).toHaveLength(2);
  });

  it("uploads the runtime and each release's SDK with twine, and pip installs each pinned version from the index", async () => {
    const uploaded = new Set<string>();
    for (const release of releases) {
      const work = join(dir, release);
      const sdkRoot = await pythonSdk(release, join(work, "sdk"));
      const wheels = await buildWheels(work, sdkRoot);
      // The runtime's version does not change between the two releases: the index already holds it the second time.
      const fresh = wheels.filter((w) => !uploaded.has(w.split("/").at(-1)!));
      await run(`${venvBin}twine`, ["upload", "--non-interactive", "--repository-url", index.url, ...fresh], {
        env: { ...process.env, TWINE_USERNAME: "publisher", TWINE_PASSWORD: "unused-by-this-index" },
      });
      for (const w of fresh) uploaded.add(w.split("/").at(-1)!);
    }
    const simple = await (await fetch(`${index.url}simple/`)).text();
    expect(simple).toContain("paperoffice-sdk-runtime");

    const module = generatedPythonModule();
    const distribution = module.replaceAll("_", "-");
    for (const release of releases) {
      const version = pythonVersion(release);
      const python = await freshVenv(join(dir, `user-${release}`), { withoutRuntime: true });
      await pipInstallPinned(python, `${index.url}simple/`, `${distribution}==${version}`);
      const env: NodeJS.ProcessEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: "1" };
      delete env.PYTHONPATH;
      const { stdout } = await run(python, ["-c", SCRIPT, module, mock.url, distribution], { env, timeout: 60_000 });
      const report = JSON.parse(stdout) as { file: string; runtime: string; version: string; sync: string; async: string };
      expect(report).toMatchObject({ version, sync: "success", async: "success" });
      // Both from the fresh environment: the runtime came from the index as the SDK's dependency.
      for (const file of [report.file, report.runtime]) expect(file.startsWith(join(dir, `user-${release}`, "venv"))).toBe(true);
    }
  }, 300_000);
});
