// The Example functions of the generated Go module of the current release (example_test.go): go test runs them
// against the mock, and each one with an Output line prints what it says; without the variable naming the service
// they are not run, and go test still passes.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envPrefix } from "../../../generator/emit/env-names.js";
import { type MockServer, startMock } from "../../../mock/index.js";
import { currentRelease, releaseFile } from "../../../test/support/service-releases.js";
import { generateGo, goRun, writeGoWorkspace } from "./go-module.js";

const LIMIT = 300_000;
const PREFIX = envPrefix("Document Automation Service");

describe("Example functions of the generated Go module", () => {
  let dir = "";
  let mock: MockServer | undefined;
  let source = "";

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "go-examples-"));
    await writeGoWorkspace(dir, await generateGo(releaseFile(currentRelease())));
    source = await readFile(join(dir, "go", "example_test.go"), "utf8");
    mock = await startMock({ holdMs: 1_000, jobDurationMs: 100 });
  }, LIMIT);

  afterAll(async () => {
    await mock?.stop();
    if (dir !== "") await rm(dir, { recursive: true, force: true });
  });

  it("has one Example per tag", () => {
    const examples = [...source.matchAll(/^func (Example\w+)\(\)/gm)].map((m) => m[1]);
    expect(examples).toHaveLength(4);
  });

  it(
    "runs them against the mock, each with an Output line passing",
    async () => {
      const withOutput = source.split(/^func /m).filter((f) => f.startsWith("Example") && f.includes("// Output:")).length;
      expect(withOutput).toBeGreaterThan(0);
      const outcome = await goRun(join(dir, "go"), "go", ["test", "-count=1", "-v", "-run", "^Example", "./..."], {
        GOWORK: join(dir, "go.work"),
        [`${PREFIX}_EXAMPLE_BASE_URL`]: mock!.url,
        [`${PREFIX}_TOKEN`]: "svc_sk_go_examples",
      });
      expect(outcome.code, outcome.output).toBe(0);
      const passed = outcome.output.split("\n").filter((l) => l.startsWith("--- PASS: Example"));
      expect(passed, outcome.output).toHaveLength(withOutput);
      expect(mock!.stats.invalidResponses).toEqual([]);
    },
    LIMIT,
  );

  it(
    "runs none, and passes, without the variable naming the service",
    async () => {
      const outcome = await goRun(join(dir, "go"), "go", ["test", "-count=1", "-v", "./..."], {
        GOWORK: join(dir, "go.work"),
        [`${PREFIX}_EXAMPLE_BASE_URL`]: "",
      });
      expect(outcome.code, outcome.output).toBe(0);
      expect(outcome.output).toContain(`examples not run: ${PREFIX}_EXAMPLE_BASE_URL is not set`);
    },
    LIMIT,
  );
});
