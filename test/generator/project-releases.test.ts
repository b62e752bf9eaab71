// Another API's project: every command resolves its releases from the project it runs in. Its configuration names
// its own description (`spec: pets.yaml`); its releases are stored beside it, named after info.version (semver), and
// release, diff, generate --release compare and read those, never the toolchain's own.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareReleases, listReleases } from "../../generator/spec/releases.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);

async function cli(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(join(root, "node_modules/.bin/tsx"), [join(root, "generator/cli.ts"), ...args], { cwd });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The pets API at a version; `extra` adds an operation (a compatible change), `withoutList` removes one (breaking). */
function pets(version: string, { extra = false, withoutList = false } = {}): string {
  const list = `
  /pets:
    get:
      operationId: listPets
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/Pet" } } } } }`;
  const more = `
  /pets/{id}:
    get:
      operationId: getPet
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Pet" } } } }`;
  return `openapi: 3.1.0
info: { title: Pets, version: ${JSON.stringify(version)} }
servers: [{ url: "http://127.0.0.1:1" }]
paths:${withoutList ? "" : list}${extra || withoutList ? more : ""}
components:
  schemas:
    Pet: { type: object, required: [name], properties: { name: { type: string } } }
`;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "project-releases-"));
  await writeFile(
    join(dir, "paperoffice-sdk.config.json"),
    JSON.stringify({ spec: "pets.yaml", out: "sdk", languages: ["go"], outputs: { fixtures: false, ir: false } }),
  );
  await writeFile(join(dir, "pets.yaml"), pets("2.4.0"));
  await writeFile(join(dir, "pets-2.5.0.yaml"), pets("2.5.0", { extra: true }));
  await writeFile(join(dir, "pets-3.0.0.yaml"), pets("3.0.0", { withoutList: true }));
  await writeFile(join(dir, "pets-dated.yaml"), pets("R20270101.0900", { extra: true }));
  await writeFile(join(dir, "pets-v4.yaml"), pets("v4", { extra: true }));
});
afterAll(async () => {
  const { rm } = await import("node:fs/promises");
  await rm(dir, { recursive: true, force: true });
});

describe("a project of its own", { timeout: 300_000 }, () => {
  it("stores its first release beside its description, named after info.version", async () => {
    const first = await cli(dir, "release", "pets.yaml");
    expect(first.stderr).toBe("");
    expect(first.code, first.stdout).toBe(0);
    expect(first.stdout).toContain("stored 2.4.0 in releases/2.4.0.yaml");
    expect(first.stdout).toContain("changelog: CHANGELOG.md, first release");
    expect(await readdir(join(dir, "releases"))).toEqual(["2.4.0.yaml"]);
  });

  it("compares a compatible version with the project's previous release, not the toolchain's", async () => {
    const next = await cli(dir, "release", "pets-2.5.0.yaml");
    expect(next.code, `${next.stdout}${next.stderr}`).toBe(0);
    expect(next.stdout).toContain("stored 2.5.0 in releases/2.5.0.yaml");
    const changelog = await readFile(join(dir, "CHANGELOG.md"), "utf8");
    expect(changelog).toMatch(/^## 2\.5\.0, from 2\.4\.0$/m);
    expect(changelog).not.toMatch(/R2026/);
    // The newer section above the older one.
    expect(changelog.indexOf("## 2.5.0")).toBeLessThan(changelog.indexOf("## 2.4.0"));
  });

  it("refuses a breaking version, storing nothing, then releases it with --allow-breaking", async () => {
    const refused = await cli(dir, "release", "pets-3.0.0.yaml");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/breaking change\(s\) from 2\.5\.0 to 3\.0\.0; nothing was stored \(--allow-breaking/);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(listReleases(join(dir, "releases"))).toEqual(["2.4.0", "2.5.0"]);
    const allowed = await cli(dir, "release", "pets-3.0.0.yaml", "--allow-breaking");
    expect(allowed.code, `${allowed.stdout}${allowed.stderr}`).toBe(0);
    expect(listReleases(join(dir, "releases"))).toEqual(["2.4.0", "2.5.0", "3.0.0"]);
  });

  it("diffs two of its releases by id", async () => {
    const diff = await cli(dir, "diff", "2.4.0", "3.0.0", "--no-types");
    expect(diff.code).toBe(1);
    expect(diff.stdout).toMatch(/^## 3\.0\.0, from 2\.4\.0$/m);
    const unknown = await cli(dir, "diff", "2.4.0", "9.9.9", "--no-types");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/release 9\.9\.9 is not in .*releases \(known: 2\.4\.0, 2\.5\.0, 3\.0\.0\)/);
  });

  it("says so when the configured description is older than the newest release", async () => {
    const stale = await cli(dir, "generate", "--out", "stale");
    expect(stale.code, stale.stderr).toBe(0);
    expect(stale.stderr).toMatch(
      /^warning: pets\.yaml is 2\.4\.0, older than the project's newest release 3\.0\.0 \(releases\/3\.0\.0\.yaml\); --release 3\.0\.0 generates that one$/m,
    );
    const pinned = await cli(dir, "generate", "--release", "2.4.0", "--out", "stale");
    expect(pinned.stderr).toBe("");
  });

  it("generates an older release of its own by id", async () => {
    const old = await cli(dir, "generate", "--release", "2.4.0", "--out", "old");
    expect(old.code, old.stderr).toBe(0);
    // The summary counts what the API has: no pipelines, variants, events or error codes of another API.
    expect(old.stdout).toMatch(/: Pets 2\.4\.0: 1 operations, 1 schemas; \d+ files/);
    const unknown = await cli(dir, "generate", "--release", "R20261127.0900", "--out", "old");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/release R20261127\.0900 is not in .*releases \(known: 2\.4\.0, 2\.5\.0, 3\.0\.0\)/);
  });

  it("refuses an info.version of another kind or of no kind, naming /info/version, before comparing", async () => {
    const dated = await cli(dir, "release", "pets-dated.yaml");
    expect(dated.code).toBe(1);
    expect(dated.stderr).toMatch(/\/info\/version: "R20270101\.0900" is not of the kind of .*releases's releases \(2\.4\.0\)/);
    expect(dated.stdout).not.toContain("## R20270101.0900");
    const none = await cli(dir, "release", "pets-v4.yaml");
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/\/info\/version: "v4" is neither a semver version/);
    expect(listReleases(join(dir, "releases"))).toEqual(["2.4.0", "2.5.0", "3.0.0"]);
  });

  it("names what to do when a project has no description at all", async () => {
    const empty = await mkdtemp(join(tmpdir(), "project-empty-"));
    const result = await cli(empty, "generate");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no description to generate: give --spec <file\|url>, set "spec" in paperoffice-sdk\.config\.json/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(await readdir(empty)).toEqual([]);
  });
});

describe("the order of release ids", () => {
  it.each([
    ["1.2.0", "1.10.0"],
    ["1.0.0-alpha", "1.0.0"],
    ["1.0.0-alpha", "1.0.0-alpha.1"],
    ["1.0.0-alpha.2", "1.0.0-alpha.10"],
    ["1.0.0-1", "1.0.0-alpha"],
    ["1.0.0-beta", "1.0.0-rc.1"],
    ["R20261120.0900", "R20261127.0900"],
    ["R20991231.2359", "0.0.1"],
  ])("%s comes before %s", (a, b) => {
    expect(compareReleases(a, b)).toBeLessThan(0);
    expect(compareReleases(b, a)).toBeGreaterThan(0);
  });
});
