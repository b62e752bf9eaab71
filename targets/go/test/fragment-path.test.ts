// The Go client of test/matrix's wire3-fragment-path.yaml (path keys that differ by a #fragment only) sending to a
// local server, by the Go test program e2e/fragment_e2e_test.go in a module beside it.
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFiles } from "../../../generator/generate.js";
import { REPO_ROOT } from "../../../scripts/setup/go-tools.mjs";
import { GO_RUNTIME, generateGo, goRun } from "./go-module.js";

const LIMIT = 600_000;
const here = fileURLToPath(new URL("./", import.meta.url));
const DESCRIPTION = join(REPO_ROOT, "test", "matrix", "descriptions", "wire3-fragment-path.yaml");
const MODULE = "example.com/wire3-fragment-sdk-go";

describe("path keys with a #fragment on the wire (Go)", () => {
  let base = "";

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "go-fragment-"));
    await writeFiles(join(base, "fragment"), await generateGo(DESCRIPTION));
    await mkdir(join(base, "e2e"));
    await copyFile(join(here, "e2e", "fragment_e2e_test.go"), join(base, "e2e", "fragment_e2e_test.go"));
    await writeFile(join(base, "e2e", "go.mod"), `module example.com/e2e\n\ngo 1.22\n\nrequire ${MODULE} v0.0.0\n`);
    const uses = ["./fragment/go", relative(base, GO_RUNTIME).split("\\").join("/"), "./e2e"];
    await writeFile(join(base, "go.work"), `go 1.22\n\nuse (\n${uses.map((u) => `\t${u}\n`).join("")})\n`);
  }, LIMIT);

  afterAll(async () => {
    if (base !== "") await rm(base, { recursive: true, force: true });
  });

  it(
    "sends the path before `#` with the query after it, for two operations that share it and one with a path parameter",
    async () => {
      const outcome = await goRun(join(base, "e2e"), "go", ["test", "-count=1", "-v", "./..."], { GOWORK: join(base, "go.work") });
      expect(outcome.code, outcome.output).toBe(0);
      expect(outcome.output).toContain("--- PASS: TestFragmentPathIsSentWithoutItsFragment");
    },
    LIMIT,
  );
});
