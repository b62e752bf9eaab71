// GitHub's description (@octokit/openapi: 800+ paths, ~1,000 schemas) generates a Go module that builds and passes
// go vet. Slow (a large package to compile), so it runs with the contract tests (CONTRACT in test/layers.ts).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../scripts/setup/go-tools.mjs";
import { generateGo, goRun, writeGoWorkspace } from "./go-module.js";

const LIMIT = 900_000;
const SPEC = join(REPO_ROOT, "node_modules", "@octokit", "openapi", "generated", "api.github.com.json");

describe("Go module of GitHub's description", () => {
  let base = "";

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "go-github-"));
    await writeGoWorkspace(base, await generateGo(SPEC));
  }, LIMIT);

  afterAll(async () => {
    if (base !== "") await rm(base, { recursive: true, force: true });
  });

  it(
    "is gofmt-clean, builds and passes go vet",
    async () => {
      const cwd = join(base, "go");
      const env = { GOWORK: join(base, "go.work") };
      const gofmt = await goRun(cwd, "gofmt", ["-l", "."], env);
      expect(gofmt.code, gofmt.output).toBe(0);
      expect(gofmt.output.trim(), "files gofmt would change").toBe("");
      for (const args of [
        ["build", "./..."],
        ["vet", "./..."],
      ]) {
        const outcome = await goRun(cwd, "go", args, env, LIMIT);
        expect(outcome.code, `go ${args.join(" ")}\n${outcome.output}`).toBe(0);
      }
    },
    LIMIT,
  );
});
