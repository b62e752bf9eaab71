// The Go clients of the media descriptions of test/matrix (a urlencoded-only write; JSON under */* and
// application/*; a merge-patch body) sending to a local server, by the Go test program e2e/media_e2e_test.go in a module beside them.
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
  "media-form-urlencoded": "example.com/media-form-sdk-go",
  "media-star-json": "example.com/media-star-sdk-go",
  "media-json-suffix": "example.com/media-json-suffix-sdk-go",
};

describe("media types on the wire (Go)", () => {
  let base = "";

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "go-media-"));
    for (const name of Object.keys(MODULES)) await writeFiles(join(base, name), await generateGo(join(DESCRIPTIONS, `${name}.yaml`)));
    await mkdir(join(base, "e2e"));
    await copyFile(join(here, "e2e", "media_e2e_test.go"), join(base, "e2e", "media_e2e_test.go"));
    const requires = Object.values(MODULES).map((m) => `require ${m} v0.0.0\n`);
    await writeFile(join(base, "e2e", "go.mod"), `module example.com/e2e\n\ngo 1.22\n\n${requires.join("")}`);
    const uses = [...Object.keys(MODULES).map((n) => `./${n}/go`), relative(base, GO_RUNTIME).split("\\").join("/"), "./e2e"];
    await writeFile(join(base, "go.work"), `go 1.22\n\nuse (\n${uses.map((u) => `\t${u}\n`).join("")})\n`);
  }, LIMIT);

  afterAll(async () => {
    if (base !== "") await rm(base, { recursive: true, force: true });
  });

  it(
    "sends a urlencoded-only body urlencoded, keeps multipart where both forms are declared, decodes JSON under */*",
    async () => {
      const outcome = await goRun(join(base, "e2e"), "go", ["test", "-count=1", "-v", "./..."], { GOWORK: join(base, "go.work") });
      expect(outcome.code, outcome.output).toBe(0);
      for (const test of [
        "TestUrlencodedOnlyBodyTravelsUrlencoded",
        "TestBothFormsKeepMultipart",
        "TestJSONUnderMediaRangesIsDecoded",
        "TestBinaryUnderStarStaysADownload",
        "TestMergePatchTravelsAsItsMediaType",
      ]) {
        expect(outcome.output).toContain(`--- PASS: ${test}`);
      }
    },
    LIMIT,
  );
});
