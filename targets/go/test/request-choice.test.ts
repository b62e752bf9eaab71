// The Go clients of two descriptions of test/matrix (a body offering JSON beside both forms; a header parameter
// named User-Agent) sending to a local server, by the Go test program e2e/request_choice_e2e_test.go in a module
// beside them.
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
const DESCRIPTIONS = join(REPO_ROOT, "test", "matrix", "descriptions");
const MODULES: Readonly<Record<string, string>> = {
  "wire2-json-or-form": "example.com/wire2-json-form-sdk-go",
  "wire2-user-agent-param": "example.com/wire2-agent-sdk-go",
};
const PROGRAM = "request_choice_e2e_test.go";

describe("request body media and header parameters on the wire (Go)", () => {
  let base = "";

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "go-request-choice-"));
    for (const name of Object.keys(MODULES)) await writeFiles(join(base, name), await generateGo(join(DESCRIPTIONS, `${name}.yaml`)));
    await mkdir(join(base, "e2e"));
    await copyFile(join(here, "e2e", PROGRAM), join(base, "e2e", PROGRAM));
    const requires = Object.values(MODULES).map((m) => `require ${m} v0.0.0\n`);
    await writeFile(join(base, "e2e", "go.mod"), `module example.com/e2e\n\ngo 1.22\n\n${requires.join("")}`);
    const uses = [...Object.keys(MODULES).map((n) => `./${n}/go`), relative(base, GO_RUNTIME).split("\\").join("/"), "./e2e"];
    await writeFile(join(base, "go.work"), `go 1.22\n\nuse (\n${uses.map((u) => `\t${u}\n`).join("")})\n`);
  }, LIMIT);

  afterAll(async () => {
    if (base !== "") await rm(base, { recursive: true, force: true });
  });

  it(
    "sends a body offering JSON and forms as JSON, and a User-Agent header parameter as the caller gave it",
    async () => {
      const outcome = await goRun(join(base, "e2e"), "go", ["test", "-count=1", "-v", "./..."], { GOWORK: join(base, "go.work") });
      expect(outcome.code, outcome.output).toBe(0);
      for (const test of ["TestBodyOfferingJSONAndFormsTravelsAsJSON", "TestUserAgentParameterIsSentAsGiven"]) {
        expect(outcome.output).toContain(`--- PASS: ${test}`);
      }
    },
    LIMIT,
  );
});
