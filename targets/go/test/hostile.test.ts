// The Go module of each hostile description (test/hostile/descriptions: reserved words, colliding names, recursion,
// comment and string breakers in texts): generated twice byte-identically, gofmt-clean, and clean under go vet
// (which builds it) and staticcheck.
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, ensureGoTools } from "../../../scripts/setup/go-tools.mjs";
import { generateGo, goRun, writeGoWorkspace } from "./go-module.js";

const LIMIT = 600_000;
const here = fileURLToPath(new URL("./", import.meta.url));
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
        await mkdir(join(base, theme, "e2e"));
        await copyFile(join(here, "e2e", program.file), join(base, theme, "e2e", program.file));
        await writeFile(join(base, theme, "e2e", "go.mod"), `module example.com/e2e\n\ngo 1.22\n\nrequire ${program.module} v0.0.0\n`);
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
      const outcome = await goRun(join(base, "locations", "e2e"), "go", ["test", "-count=1", "-v", "./..."], {
        GOWORK: join(base, "locations", "go.work"),
      });
      expect(outcome.code, outcome.output).toBe(0);
      expect(outcome.output).toContain("--- PASS: TestParametersTravelWhereTheyAreDeclared");
    },
    LIMIT,
  );

  it.each(THEMES)(
    "%s is gofmt-clean and passes go vet and staticcheck",
    async (theme) => {
      const cwd = join(base, theme, "go");
      const env = { GOWORK: join(base, theme, "go.work") };
      const gofmt = await goRun(cwd, "gofmt", ["-l", "."], env);
      expect(gofmt.code, gofmt.output).toBe(0);
      expect(gofmt.output.trim(), "files gofmt would change").toBe("");
      for (const [command, args] of [
        ["go", ["vet", "./..."]],
        [staticcheck, ["./..."]],
      ] as const) {
        const outcome = await goRun(cwd, command, args, env);
        expect(outcome.code, `${command} ${args.join(" ")}\n${outcome.output}`).toBe(0);
      }
    },
    LIMIT,
  );
});
