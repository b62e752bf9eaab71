// The generated Go client of the current release: gofmt, go vet, staticcheck and go build clean, and a Go test
// program (e2e/client_e2e_test.go, in its own module beside the generated one) calling the mock service: plain
// operations, jobs through a pipeline variant with its payload typed, checks before sending, typed errors; and, against
// a local server, the description's unions sent as their members.
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentRelease, releaseFile } from "../../../test/support/service-releases.js";
import { type MockServer, startMock } from "../../../mock/index.js";
import { ensureGoTools } from "../../../scripts/setup/go-tools.mjs";
import { goNames } from "../emit/view.js";
import { generateGo, goRun, writeGoWorkspace } from "./go-module.js";

const LIMIT = 300_000;
const here = fileURLToPath(new URL("./", import.meta.url));

describe("generated Go client of the service", () => {
  let dir = "";
  let env: Record<string, string> = {};
  let staticcheck = "";
  let mock: MockServer | undefined;

  beforeAll(async () => {
    staticcheck = (await ensureGoTools()).staticcheck ?? "";
    dir = await mkdtemp(join(tmpdir(), "go-client-"));
    const files = await generateGo(releaseFile(currentRelease()));
    // Written first: writing the generated files replaces the folder.
    await writeGoWorkspace(dir, files, ["e2e"]);
    await mkdir(join(dir, "e2e"), { recursive: true });
    await copyFile(join(here, "e2e", "client_e2e_test.go"), join(dir, "e2e", "client_e2e_test.go"));
    const { module } = goNames("Document Automation Service");
    await writeFile(join(dir, "e2e", "go.mod"), `module example.com/e2e\n\ngo 1.22\n\nrequire ${module} v0.0.0\n`);
    env = { GOWORK: join(dir, "go.work") };
    mock = await startMock({ holdMs: 1_000, jobDurationMs: 100 });
  }, LIMIT);

  afterAll(async () => {
    await mock?.stop();
    if (dir !== "") await rm(dir, { recursive: true, force: true });
  });

  it("is gofmt-clean", async () => {
    const outcome = await goRun(join(dir, "go"), "gofmt", ["-l", "."], env);
    expect(outcome.code, outcome.output).toBe(0);
    expect(outcome.output.trim(), "files gofmt would change").toBe("");
  });

  it(
    "builds, and passes go vet and staticcheck",
    async () => {
      for (const [command, args] of [
        ["go", ["build", "./..."]],
        ["go", ["vet", "./..."]],
        [staticcheck, ["./..."]],
      ] as const) {
        const outcome = await goRun(join(dir, "go"), command, args, env);
        expect(outcome.code, `${command} ${args.join(" ")}\n${outcome.output}`).toBe(0);
      }
    },
    LIMIT,
  );

  it(
    "calls the mock: operations, jobs through pipeline variants, checks before sending, typed errors",
    async () => {
      const outcome = await goRun(join(dir, "e2e"), "go", ["test", "-count=1", "-v", "./..."], {
        ...env,
        SERVICE_MOCK_URL: mock!.url,
      });
      expect(outcome.code, outcome.output).toBe(0);
      const passed = outcome.output.split("\n").filter((l) => l.startsWith("--- PASS: "));
      expect(passed.length, outcome.output).toBe(12);
      expect(mock!.stats.invalidResponses).toEqual([]);
    },
    LIMIT,
  );
});
