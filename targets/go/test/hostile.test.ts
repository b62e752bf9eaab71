// The Go module of each hostile description (test/hostile/descriptions: reserved words, colliding names, recursion,
// comment and string breakers in texts): generated twice byte-identically, gofmt-clean, and clean under go vet
// (which builds it) and staticcheck.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, ensureGoTools } from "../../../scripts/setup/go-tools.mjs";
import { expectGoClean, generateGo, goTestE2e, writeE2eModule, writeGoWorkspace } from "./go-module.js";

const LIMIT = 600_000;
/** A Go test program per theme, in a module beside the generated one: what the client must send. */
const PROGRAMS: Readonly<Record<string, { file: string; module: string }>> = {
  locations: { file: "locations_e2e_test.go", module: "example.com/locations-sdk-go" },
};
const DESCRIPTIONS = join(REPO_ROOT, "test", "hostile", "descriptions");
const THEMES = (await readdir(DESCRIPTIONS)).filter((f) => f.endsWith(".yaml")).map((f) => f.slice(0, -".yaml".length));

describe("Go modules of the hostile descriptions", () => {
  let base = "";
  let staticcheck = "";
  const twice = new Map<string, boolean>();

  beforeAll(async () => {
    staticcheck = (await ensureGoTools()).staticcheck ?? "";
    base = await mkdtemp(join(tmpdir(), "go-hostile-"));
    for (const theme of THEMES) {
      const source = join(DESCRIPTIONS, `${theme}.yaml`);
      const [a, b] = [await generateGo(source), await generateGo(source)];
      twice.set(theme, JSON.stringify(a) === JSON.stringify(b));
      const program = PROGRAMS[theme];
      await writeGoWorkspace(join(base, theme), a, program ? ["e2e"] : []);
      if (program) {
        await writeE2eModule(join(base, theme), program.file, [`${program.module} v0.0.0`]);
      }
    }
  }, LIMIT);

  afterAll(async () => {
    if (base !== "") await rm(base, { recursive: true, force: true });
  });

  it.each(THEMES)("%s generates byte-identical output twice", (theme) => {
    expect(twice.get(theme)).toBe(true);
  });

  it(
    "locations: the client sends header, cookie and query parameters and Object.prototype's names as fields",
    async () => {
      const outcome = await goTestE2e(join(base, "locations"));
      expect(outcome.code, outcome.output).toBe(0);
      expect(outcome.output).toContain("--- PASS: TestParametersTravelWhereTheyAreDeclared");
    },
    LIMIT,
  );

  it.each(THEMES)(
    "%s is gofmt-clean and passes go vet and staticcheck",
    async (theme) => {
      await expectGoClean(join(base, theme), staticcheck);
    },
    LIMIT,
  );
});
