// `paperoffice-sdk release`: in a project of its own (a releases folder, a configuration), the one step that stores a
// release, generates the SDKs, writes the changelog section and runs each package's checks; a breaking change
// stops it before anything is stored.
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { insertSection } from "../../generator/cli/release-command.js";
import { listReleases } from "../support/service-releases.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);
const [older, newer] = listReleases().slice(-2) as [string, string];

async function release(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(join(root, "node_modules/.bin/tsx"), [join(root, "generator/cli.ts"), "release", ...args], {
      cwd,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A project whose releases folder holds the older release, generating TypeScript and Python without extras. */
async function project(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "release-"));
  await mkdir(join(dir, "releases"));
  await copyFile(join(root, "spec", "releases", `${older}.yaml`), join(dir, "releases", `${older}.yaml`));
  await writeFile(
    join(dir, "paperoffice-sdk.config.json"),
    JSON.stringify({
      releases: "releases",
      out: "sdk",
      languages: ["typescript", "python"],
      outputs: { fixtures: false, ir: false },
      // The check type-checks the client; it finds the runtime's sources here (a user's project installs the package).
      typescript: { runtimeSources: join(root, "targets", "typescript", "runtime") },
    }),
  );
  await writeFile(join(dir, "CHANGELOG.md"), `# Changelog\n\nNotes.\n\n## ${older}\n\nThe first.\n`);
  return dir;
}

describe("the release command", { timeout: 400_000 }, () => {
  it("stores the release, generates, writes the changelog section above the previous one, and checks each package", async () => {
    const dir = await project();
    const result = await release(dir, join(root, "spec", "releases", `${newer}.yaml`));
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`stored ${newer} in releases/${newer}.yaml`);
    expect(result.stdout).toMatch(/generated sdk: \d+ files/);
    expect(result.stdout).toContain("check typescript: passed");
    expect(result.stdout).toMatch(/check python: (passed|skipped \(python3 is not on PATH\))/);
    expect((await readdir(join(dir, "releases"))).sort()).toEqual([`${older}.yaml`, `${newer}.yaml`]);
    expect(await readdir(join(dir, "sdk"))).toEqual(expect.arrayContaining(["index.ts", "python", "manifest.json"]));
    const changelog = await readFile(join(dir, "CHANGELOG.md"), "utf8");
    expect(changelog.indexOf(`## ${newer}`)).toBeGreaterThan(changelog.indexOf("Notes."));
    expect(changelog.indexOf(`## ${newer}`)).toBeLessThan(changelog.indexOf(`## ${older}\n`));
    expect(changelog).toMatch(new RegExp(`## ${newer.replace(".", "\\.")} \\(package [\\d.]+\\), from ${older.replace(".", "\\.")}`));
  });

  it("stops at a breaking change, storing and writing nothing", async () => {
    const dir = await project();
    const doc = parse(await readFile(join(root, "spec", "releases", `${newer}.yaml`), "utf8")) as { paths: Record<string, unknown> };
    const first = Object.keys(doc.paths).find((p) => !p.includes("{"));
    delete doc.paths[first!];
    await writeFile(join(dir, "next.yaml"), stringify(doc));
    const result = await release(dir, join(dir, "next.yaml"));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: \d+ breaking change\(s\) from .* nothing was stored \(--allow-breaking to release anyway\)/);
    expect(await readdir(join(dir, "releases"))).toEqual([`${older}.yaml`]);
    expect(await readdir(dir)).not.toContain("sdk");
  });
});

describe("insertSection", () => {
  it.each([
    { given: "", want: "# Changelog\n\n## R2\n" },
    { given: "# Changelog\n\nNotes.\n", want: "# Changelog\n\nNotes.\n\n## R2\n" },
    { given: "# Changelog\n\n## R20260101.0000\n\nold\n", want: "# Changelog\n\n## R2\n\n## R20260101.0000\n\nold\n" },
  ])("$given", ({ given, want }) => {
    expect(insertSection(given, "## R2\n")).toBe(want);
  });
});
