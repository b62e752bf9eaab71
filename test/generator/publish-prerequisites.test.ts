// What `paperoffice-sdk publish` needs, asked of every target before anything is generated or built: one run lists
// every problem of every target, each with its fix, and exits 1 without a stack trace; the Go module path's
// placeholder is refused (generate keeps it), and names guessed rather than configured are warned about.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { problemsReport } from "../../generator/publish/prerequisites.js";
import { goNames } from "../../targets/go/emit/view.js";
import { goPrerequisites } from "../../targets/go/publish/prerequisites.js";
import { pythonPrerequisites } from "../../targets/python/publish/prerequisites.js";
import { venvBin } from "../../targets/python/test/package.js";
import { typescriptPrerequisites } from "../../targets/typescript/publish/prerequisites.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TSX = pathToFileURL(join(ROOT, "node_modules", "tsx", "dist", "loader.mjs")).href;
const RELEASES = join(ROOT, "spec", "releases");

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "publish-prerequisites-"));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function publish(cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ["--import", TSX, join(ROOT, "generator", "cli.ts"), "publish"],
      {
        cwd,
        env: { ...process.env, ...env },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout?: string; stderr?: string };
    return { code: e.code, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

describe("publish's prerequisites", () => {
  it("are all listed in one run, each with its fix, before anything is generated", async () => {
    const project = join(dir, "nothing-set");
    const emptyPath = join(dir, "no-tools");
    await mkdir(project);
    await mkdir(emptyPath);
    const out = join(project, "out");
    await writeFile(
      join(project, "paperoffice-sdk.config.json"),
      JSON.stringify({ releases: RELEASES, out, typescript: { runtimePackage: "no-such-runtime.tgz" } }),
    );
    // No npm, python3 or go on PATH, no package names, no proxy folder, a runtime package that is not there.
    const ran = await publish(project, { PATH: emptyPath, GOPROXY: "" });
    expect(ran.code).toBe(1);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toMatch(/^error: publish cannot start, 7 problems to fix first \(nothing was generated or published\):$/m);
    const listed = [...ran.stderr.matchAll(/^ {2}(\w+): (.*)\n {4}fix: (.+)$/gm)].map(([, target, problem]) => `${target}: ${problem}`);
    expect(listed).toEqual([
      "typescript: npm is not on PATH",
      "typescript: typescript.package is not set, so the TypeScript SDK is not a package",
      `typescript: typescript.runtimePackage names ${join(project, "no-such-runtime.tgz")}, which does not exist`,
      "python: python3 is not on PATH",
      "go: go.module is not set, so the module path is the placeholder example.com/<title-slug>-sdk-go, which `go get` can never fetch by its name",
      "go: no module proxy folder to publish to",
      "go: go is not on PATH (module zips and their hashes come from golang.org/x/mod, run with go)",
    ]);
    expect(ran.stderr).toMatch(/^ {4}fix: set go\.module in the configuration to the module's real path/m);
    expect(ran.stderr).toMatch(/^ {4}fix: set typescript\.package in the configuration/m);
    expect(ran.stderr).toMatch(/^warning: python: python\.distribution is not set: .*set python\.distribution in the configuration/m);
    expect(ran.stderr).not.toMatch(/\n\s+at /);
    await expect(readdir(out)).rejects.toThrow(/ENOENT/);
  });

  it("format one entry a problem, its fix below it", () => {
    expect(problemsReport([{ target: "t", problem: "p", fix: "f" }])).toBe(
      "error: publish cannot start, 1 problem to fix first (nothing was generated or published):\n  t: p\n    fix: f",
    );
  });
});

describe("publish's tools", () => {
  it("a python3 without build, twine and the runtime's pinned build backend is one problem, with the install line", async () => {
    const bare = join(dir, "bare-venv");
    await promisify(execFile)("python3", ["-m", "venv", "--without-pip", bare]);
    const { problems } = await pythonPrerequisites(
      { distribution: "acme-pets" },
      { env: { ...process.env, PATH: `${join(bare, "bin")}:${process.env.PATH ?? ""}` } },
    );
    expect(problems).toEqual([
      {
        problem: expect.stringMatching(
          /^python3 \(3\.\d+\) lacks build, twine, hatchling==[\d.]+, which building and uploading the wheels need$/,
        ),
        fix: expect.stringMatching(/^python3 -m pip install 'build' 'twine' 'hatchling==[\d.]+' /),
      },
    ]);
  });

  it("a go older than modproxy's go.mod asks for is a problem when GOTOOLCHAIN keeps the local one", async () => {
    const tools = join(dir, "old-go");
    await mkdir(tools);
    // Stands for an installed Go 1.22: `go env GOVERSION GOTOOLCHAIN` prints its version and "local".
    await writeFile(join(tools, "go"), "#!/bin/sh\nprintf 'go1.22.5\\nlocal\\n'\n", { mode: 0o755 });
    const options = { module: "github.com/acme/pets-sdk-go", proxy: join(dir, "proxy") };
    const { problems } = await goPrerequisites(options, { env: { ...process.env, PATH: `${tools}:${process.env.PATH ?? ""}` } });
    expect(problems).toEqual([
      {
        problem: expect.stringMatching(/^go is go1\.22\.5, older than the go 1\.\d+\.\d+ modproxy \(golang\.org\/x\/mod\) requires$/),
        fix: expect.stringMatching(/^install Go 1\.\d+\.\d+ or later, or set GOTOOLCHAIN=auto/),
      },
    ]);
  });
});

describe("placeholder names", () => {
  const env = { ...process.env, PATH: `${venvBin}:${process.env.PATH ?? ""}` };

  it("generate keeps the Go placeholder module path for local use", () => {
    expect(goNames("Pet Store").module).toBe("example.com/pet-store-sdk-go");
  });

  it("publish refuses the Go placeholder, with the key to set", async () => {
    const { problems } = await goPrerequisites({ proxy: join(dir, "proxy") }, { env });
    expect(problems.map((p) => p.fix)).toEqual([expect.stringMatching(/^set go\.module in the configuration/)]);
  });

  it("publish takes a configured module path, warning when it is below a domain reserved for examples", async () => {
    const real = await goPrerequisites({ module: "github.com/acme/pets-sdk-go", proxy: join(dir, "proxy") }, { env });
    expect(real).toEqual({ problems: [], warnings: [] });
    const example = await goPrerequisites(
      { module: "example.com/acme/pets-sdk-go" },
      { env: { ...env, GOPROXY: pathToFileURL(dir).href } },
    );
    expect(example.problems).toEqual([]);
    expect(example.warnings).toEqual([
      expect.stringMatching(/^go\.module example\.com\/acme\/pets-sdk-go is below a domain reserved for examples/),
    ]);
  });

  it("a guessed Python distribution name is a warning naming python.distribution; a configured one is not", async () => {
    const guessed = await pythonPrerequisites({}, { env });
    expect(guessed.problems).toEqual([]);
    expect(guessed.warnings).toEqual([expect.stringContaining("set python.distribution in the configuration")]);
    expect(await pythonPrerequisites({ distribution: "acme-pets" }, { env })).toEqual({ problems: [], warnings: [] });
  });

  it("an npm package name is required, never guessed", async () => {
    const runtimePackage = join(dir, "runtime.tgz");
    await writeFile(runtimePackage, "");
    const unset = await typescriptPrerequisites({ runtimePackage }, { env });
    expect(unset.problems.map((p) => p.fix)).toEqual([expect.stringMatching(/^set typescript\.package in the configuration/)]);
    expect(await typescriptPrerequisites({ package: "@acme/pets", runtimePackage }, { env })).toEqual({ problems: [], warnings: [] });
  });
});
