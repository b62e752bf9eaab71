// `paperoffice-sdk publish` with the Python target against a pypiserver on 127.0.0.1: a dry run that uploads nothing,
// a run stopped after the runtime went out that completes on rerun without uploading anything twice (the index, like
// PyPI, refuses a file it already holds), an older release published after the newer one, a version that exists with
// other content refused with a clear error, and the published SDK installed back, pinned, calling the mock.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentRelease, listReleases } from "../support/service-releases.js";
import { type MockServer, startMock } from "../../mock/index.js";
import { pythonVersion } from "../../targets/python/emit/view.js";
import { venvBin } from "../../targets/python/test/package.js";
import { buildWheels, freshVenv } from "../../targets/python/test/wheels.js";
import { editedReleases, publishCli, RELEASES, writeConfig } from "./cli.js";
import { pipInstallPinned, pythonSdk } from "./python-sdk.js";
import { type LocalRegistry, startPypiServer } from "./servers.js";

const run = promisify(execFile);
const SDK = "document-automation-service";
const LIMIT = 600_000;
/** This index takes any credentials; twine wants some when it cannot ask. */
const TWINE = { TWINE_USERNAME: "publisher", TWINE_PASSWORD: "unused-by-this-index" };

describe("publish to a Python package index", () => {
  const [older = "", newer = ""] = listReleases().slice(-2);
  let dir: string;
  let project: string;
  let index: LocalRegistry;
  let mock: MockServer;
  const files = async () => (await (await fetch(`${index.url}simple/${SDK}/`)).text()).match(/>[^<]+\.whl</g) ?? [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "publish-python-"));
    project = join(dir, "project");
    await mkdir(project);
    [index, mock] = await Promise.all([startPypiServer(dir), startMock({ holdMs: 1_000, jobDurationMs: 100 })]);
    await writeConfig(project, {
      releases: RELEASES,
      languages: ["python"],
      python: { distribution: SDK, indexUrl: `${index.url}simple/`, uploadUrl: index.url },
    });
  });
  afterAll(async () => {
    await Promise.all([index?.stop(), mock?.stop()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  }, LIMIT);

  it(
    "prints the plan in a dry run and uploads nothing",
    async () => {
      const ran = await publishCli(project, []);
      expect(ran.stderr).toBe("");
      expect(ran.code).toBe(0);
      expect(ran.stdout).toContain(`release ${newer} (the newest):`);
      expect(ran.stdout).toMatch(new RegExp(`PyPI paperoffice-sdk-runtime@0\\.1\\.0 +${index.url}: would publish`));
      expect(ran.stdout).toMatch(new RegExp(`PyPI ${SDK}@${pythonVersion(newer).replaceAll(".", "\\.")} +${index.url}: would publish`));
      expect(ran.stdout).toContain("dry run: nothing was published (--yes publishes the 2 missing)");
      expect(await files()).toEqual([]);
    },
    LIMIT,
  );

  it(
    "completes a publish stopped after the runtime went out, uploading only what is missing",
    async () => {
      // The state a run killed between its two uploads leaves: the runtime's wheel (built the same way: the build is
      // reproducible) in the index, the SDK's not.
      const runtime = (await buildWheels(join(dir, "stopped"), await pythonSdk(newer, join(dir, "stopped", "sdk"))))[0]!;
      await run(`${venvBin}twine`, ["upload", "--non-interactive", "--repository-url", index.url, runtime], {
        env: { ...process.env, ...TWINE },
      });
      const ran = await publishCli(project, ["--yes"], TWINE);
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).toMatch(/paperoffice-sdk-runtime@0\.1\.0 .*: already there, same content \(skipped\)/);
      expect(ran.stdout).toMatch(new RegExp(`${SDK}@\\S+ .*: publishing`));
      expect(ran.stdout).toContain("published 1, skipped 1 already there");
      // Again: nothing left to do (an upload of a file the index holds would fail).
      const again = await publishCli(project, ["--yes"], TWINE);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain("published 0, skipped 2 already there");
    },
    LIMIT,
  );

  it(
    "publishes an older release after the newer one",
    async () => {
      const ran = await publishCli(project, ["--yes", "--release", older], TWINE);
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).toContain(`release ${older} (older than ${newer}):`);
      expect(ran.stdout).toContain("published 1, skipped 1 already there");
      expect((await files()).sort()).toEqual([
        `>${SDK.replaceAll("-", "_")}-${pythonVersion(older)}-py3-none-any.whl<`,
        `>${SDK.replaceAll("-", "_")}-${pythonVersion(newer)}-py3-none-any.whl<`,
      ]);
    },
    LIMIT,
  );

  it(
    "refuses a version the index holds with other content, before uploading anything",
    async () => {
      const edited = await editedReleases(dir, older, newer);
      const other = join(dir, "other");
      await mkdir(other);
      await writeConfig(other, {
        releases: edited,
        languages: ["python"],
        python: { distribution: SDK, indexUrl: `${index.url}simple/`, uploadUrl: index.url },
      });
      for (const args of [[], ["--yes"]]) {
        const ran = await publishCli(other, args, TWINE);
        expect(ran.code).toBe(1);
        expect(ran.stderr).toMatch(
          new RegExp(
            `^error: PyPI ${SDK}@${pythonVersion(newer).replaceAll(".", "\\.")} already exists in ${index.url} with other content`,
            "m",
          ),
        );
        expect(ran.stderr).toContain("a published version is never replaced");
        expect(ran.stderr).not.toMatch(/\n\s+at /);
      }
    },
    LIMIT,
  );

  it("gives each release back pinned from the index, calling the mock", async () => {
    expect(currentRelease()).toBe(newer);
    for (const release of [older, newer]) {
      const python = await freshVenv(join(dir, `user-${release}`), { withoutRuntime: true });
      const pin = `${SDK}==${pythonVersion(release)}`;
      await pipInstallPinned(python, `${index.url}simple/`, pin);
      const script = [
        "import json, sys, document_automation_service as sdk",
        "with sdk.Client('svc_sk_publish', sys.argv[1]) as c: print(json.dumps(c.list_webhooks().status))",
      ].join("\n");
      const { stdout } = await run(python, ["-c", script, mock.url]);
      expect(JSON.parse(stdout)).toBe("success");
    }
  });
});
