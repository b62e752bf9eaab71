// The Example functions of the generated Go module of the current release (example_test.go): each has an Output line
// (go test only compiles an Example without one), go test runs them all against the mock and each prints what its
// Output line says; without the variable naming the service they are not run, and go test still passes.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envPrefix } from "../../../generator/emit/env-names.js";
import { generate } from "../../../generator/generate.js";
import { type MockServer, startMock } from "../../../mock/index.js";
import { currentRelease, releaseFile } from "../../../test/support/service-releases.js";
import { generateGo, goRun, writeGoWorkspace } from "./go-module.js";

const LIMIT = 300_000;
const PREFIX = envPrefix("Document Automation Service");

describe("Example functions of the generated Go module", () => {
  let dir = "";
  let mock: MockServer | undefined;
  let source = "";
  let tags: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "go-examples-"));
    await writeGoWorkspace(dir, await generateGo(releaseFile(currentRelease())));
    source = await readFile(join(dir, "go", "example_test.go"), "utf8");
    // The groups: each operation's first tag (every operation of the service has one).
    const { ir } = await generate(releaseFile(currentRelease()), { emitters: [] });
    tags = [...new Set(ir.operations.map((o) => o.tags[0] ?? o.id))];
    mock = await startMock({ holdMs: 1_000, jobDurationMs: 100 });
  }, LIMIT);

  afterAll(async () => {
    await mock?.stop();
    if (dir !== "") await rm(dir, { recursive: true, force: true });
  });

  it("has one Example per tag", () => {
    const examples = [...source.matchAll(/^\/\/ Example\w+ calls \w+, an operation of the tag "([^"]+)"\.$/gm)].map((m) => m[1]);
    expect(tags.length).toBeGreaterThan(1);
    expect(examples.sort()).toEqual([...tags].sort());
  });

  it(
    "runs them against the mock, each with an Output line passing",
    async () => {
      const examples = source.split(/^func /m).filter((f) => f.startsWith("Example"));
      const withOutput = examples.filter((f) => f.includes("// Output:")).length;
      expect(examples.length).toBe(tags.length);
      expect(withOutput, "Examples with an Output line, which go test runs").toBe(examples.length);
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
