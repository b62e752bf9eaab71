// The Go module of each hostile description (test/hostile/descriptions: reserved words, colliding names, recursion,
// comment and string breakers in texts): generated twice byte-identically, gofmt-clean, and clean under go vet
// (which builds it) and staticcheck.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, ensureGoTools } from "../../../scripts/setup/go-tools.mjs";
import { generateGo, goRun, writeGoWorkspace } from "./go-module.js";

const LIMIT = 600_000;
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
      await writeGoWorkspace(join(base, theme), a);
    }
  }, LIMIT);

  afterAll(async () => {
    if (base !== "") await rm(base, { recursive: true, force: true });
  });

  it.each(THEMES)("%s generates byte-identical output twice", (theme) => {
    expect(twice.get(theme)).toBe(true);
  });

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
