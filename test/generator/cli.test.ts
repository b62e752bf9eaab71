import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { runKey } from "../../generator/cli/up-to-date.js";
import { LANGUAGE_NAMES } from "../../generator/languages.js";
import { toolchainVersions } from "../../generator/version.js";

// biome-ignore lint/suspicious/noExplicitAny: the mutations reach into arbitrary places of a parsed description
type Doc = Record<string, any>;

// Each test spawns its own commands in its own folders: run side by side, they use both cores of a small machine
// and take a larger share of a loaded one.
const CONCURRENT = { timeout: 240_000, concurrent: true } as const;

const root = fileURLToPath(new URL("../../", import.meta.url));
const SMALL = join(root, "test/generator/cases/small/openapi.yaml");
/** The registered languages as the messages list them: registering a target changes no test here. */
const LANGUAGES = LANGUAGE_NAMES.join(", ");
const GITHUB = join(root, "node_modules/@octokit/openapi/generated/api.github.com.json");
const run = promisify(execFile);
/** tsx's loader by its address: the commands also run in folders outside the repository. */
const TSX = pathToFileURL(join(root, "node_modules", "tsx", "dist", "loader.mjs")).href;

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return cliIn(root, ...args);
}

async function cliIn(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return cliWith([], {}, cwd, ...args);
}

/** The modules a command loads, recorded by test/generator/loaded-modules.mjs. */
const LOADED_MODULES = pathToFileURL(join(root, "test/generator/loaded-modules.mjs")).href;

async function cliWith(
  preload: readonly string[],
  env: Readonly<Record<string, string>>,
  cwd: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    // node with tsx's loader, as `npm run generate` does: one process per command instead of the tsx wrapper's two.
    const flags = [...preload.flatMap((m) => ["--import", m]), "--import", TSX];
    const { stdout, stderr } = await run(process.execPath, [...flags, join(root, "generator/cli.ts"), ...args], {
      cwd,
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function brokenCopy(mutate: (doc: Doc) => void): Promise<string> {
  const doc = parse(await readFile(join(root, "test/generator/cases/small/openapi.yaml"), "utf8")) as Doc;
  mutate(doc);
  const dir = await mkdtemp(join(tmpdir(), "cli-"));
  const file = join(dir, "openapi.yaml");
  await writeFile(file, stringify(doc));
  return file;
}

describe("the generate command", CONCURRENT, () => {
  it("prints a summary of what it wrote and exits 0", async () => {
    const out = await mkdtemp(join(tmpdir(), "out-"));
    const result = await cli("generate", "--spec", join(root, "test/generator/cases/small/openapi.yaml"), "--out", out, "--verbose");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/files \(\d+ written, 0 unchanged\)/);
    expect(result.stdout).toMatch(/2 operations, 2 pipelines, 3 variants, 1 events, 1 error codes, 8 schemas/);
    expect(result.stdout).toMatch(/wrote operations\.ts \(\d+ bytes\)/);
    expect(await readFile(join(out, "index.ts"), "utf8")).toContain("export function createClient");
  });

  it("answers --help with its usage", async () => {
    const result = await cli("generate", "--help");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("--spec");
  });

  it.each([
    [
      "a duplicate operationId",
      (d: Doc) => {
        d.paths["/jobs/{kind}"].post.operationId = "getItem";
      },
      '/paths/~1jobs~1{kind}/post/operationId: operationId "getItem" is also used at /paths/~1items~1{item_id}/get/operationId',
    ],
    [
      "a discriminator value the schema does not allow",
      (d: Doc) => {
        d.paths["/jobs/{kind}"].post["x-paperoffice-variants"].pipelines[1].variants[0].discriminator.value = "splitter";
      },
      '/paths/~1jobs~1{kind}/post/x-paperoffice-variants/pipelines/1/variants/0/discriminator/value: "splitter" is not an allowed value',
    ],
    [
      "a variant pointing at a missing schema",
      (d: Doc) => {
        d.paths["/jobs/{kind}"].post["x-paperoffice-variants"].pipelines[0].variants[0].request.$ref = "#/components/schemas/Gone";
      },
      '/paths/~1jobs~1{kind}/post/x-paperoffice-variants/pipelines/0/variants/0/request/$ref: points at "#/components/schemas/Gone", which does not exist',
    ],
    [
      "a webhook subscription mark on a body that is not JSON",
      (d: Doc) => {
        d.paths["/jobs/{kind}"].post["x-paperoffice-webhook-subscription"] = "create";
      },
      "/paths/~1jobs~1{kind}/post/x-paperoffice-webhook-subscription: x-paperoffice-webhook-subscription needs a JSON request body; the body is multipart/form-data",
    ],
    [
      "a webhook subscription mark with an unknown value",
      (d: Doc) => {
        d.paths["/jobs/{kind}"].post["x-paperoffice-webhook-subscription"] = true;
      },
      '/paths/~1jobs~1{kind}/post/x-paperoffice-webhook-subscription: x-paperoffice-webhook-subscription must be "create" or "update", found true',
    ],
  ])("refuses %s with one line naming the JSON pointer, no stack trace, exit 1", async (_name, mutate, line) => {
    const result = await cli("generate", "--spec", await brokenCopy(mutate), "--out", await mkdtemp(join(tmpdir(), "out-")));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(line);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("refuses an empty --languages, and a run that would remove another language's output unless --prune", async () => {
    const out = join(await mkdtemp(join(tmpdir(), "out-")), "sdk");
    const empty = await cli("generate", "--spec", SMALL, "--out", out, "--languages", "");
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/--languages is empty: give a comma-separated list of .*, or none/);
    expect((await cli("generate", "--spec", SMALL, "--out", out)).code).toBe(0);
    const before = (await readdir(out, { recursive: true })).sort();
    const fewer = await cli("generate", "--spec", SMALL, "--out", out, "--languages", "typescript");
    expect(fewer.code).toBe(1);
    expect(fewer.stderr).toMatch(/holds the go, mcp, python output of an earlier run, .*--prune/);
    expect(fewer.stderr).not.toMatch(/\n\s+at /);
    expect((await readdir(out, { recursive: true })).sort()).toEqual(before);
    const pruned = await cli("generate", "--spec", SMALL, "--out", out, "--languages", "typescript", "--prune");
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toMatch(/\d+ removed, the go, mcp, python output pruned\)/);
    expect(await readdir(out)).not.toContain("python");
  });

  it("refuses a run of a target without the target its output imports, in one line, before writing anything", async () => {
    const out = join(await mkdtemp(join(tmpdir(), "out-")), "sdk");
    const alone = await cli("generate", "--spec", SMALL, "--out", out, "--languages", "mcp");
    expect(alone.code).toBe(1);
    expect(alone.stderr.trim()).toBe(
      "error: the mcp target imports the output of typescript, which this run does not write: add typescript to the languages (--languages typescript,mcp)",
    );
    await expect(readdir(out)).rejects.toThrow();
    const both = await cli("generate", "--spec", SMALL, "--out", out, "--languages", "typescript,mcp", "--outputs", "none");
    expect(both.code).toBe(0);
    expect((await readdir(join(out, "mcp"))).sort()).toEqual(["main.ts", "server.ts", "tools.ts"]);
  });

  it("says in words that a folder it may not replace was left as it was", async () => {
    const out = join(await mkdtemp(join(tmpdir(), "out-")), "sdk");
    expect((await cli("generate", "--spec", SMALL, "--out", out, "--languages", "typescript")).code).toBe(0);
    // Immutable (chattr +i): not even root may move it away, as on a read-only mount.
    await run("chattr", ["+i", out]);
    try {
      const result = await cli("generate", "--spec", SMALL, "--out", out, "--languages", "typescript", "--force");
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toMatch(
        /^error: cannot replace .*sdk: permission denied \(on the folder or the one holding it\); the output was left as it was$/,
      );
    } finally {
      await run("chattr", ["-i", out]);
    }
    expect((await readdir(join(out, ".."))).sort()).toEqual(["sdk"]);
    expect(await readdir(out)).toContain("index.ts");
  });

  it("on Ctrl-C removes its partial output, leaves the folder as it was and says so", async () => {
    const parent = await mkdtemp(join(tmpdir(), "out-"));
    const out = join(parent, "sdk");
    expect((await cli("generate", "--spec", SMALL, "--out", out)).code).toBe(0);
    const before = (await readdir(out, { recursive: true })).sort();
    // GitHub's description takes seconds to generate: long enough to interrupt once its staging folder exists.
    const child = spawn(process.execPath, ["--import", TSX, join(root, "generator/cli.ts"), "generate", "--spec", GITHUB, "--out", out], {
      cwd: root,
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const staging = () => readdir(parent).then((names) => names.some((n) => n.startsWith(".sdk.tmp-")));
    for (let i = 0; i < 600 && !(await staging()); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await staging()).toBe(true);
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/interrupted \(SIGINT\): .*sdk is left as it was; the partial output was removed/);
    expect(await readdir(parent)).toEqual(["sdk"]);
    expect((await readdir(out, { recursive: true })).sort()).toEqual(before);
  });

  it("refuses an unknown release and a missing file with one clear line", async () => {
    const release = await cli("generate", "--release", "R19990101.0000");
    expect(release.code).toBe(1);
    expect(release.stderr.trim()).toMatch(/^error: release R19990101\.0000 is not in .*\(known: R\d{8}\.\d{4}/);
    const missing = await cli("generate", "--spec", "nope.yaml", "--out", await mkdtemp(join(tmpdir(), "out-")));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: .*nope\.yaml/);
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("the command's answers", CONCURRENT, () => {
  it("--version prints the toolchain's version, --help names the program and its commands", async () => {
    const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { version: string };
    expect((await cli("--version")).stdout.trim()).toBe(manifest.version);
    const help = await cli("--help");
    expect(help.stdout).toMatch(/^Usage: paperoffice-sdk <command> \[options\]/);
    expect(help.stdout).toMatch(/generate .*\n.*diff /);
    expect((await cli("generate", "--help")).stdout).toMatch(/^Usage: paperoffice-sdk generate \[options\]/);
    expect((await cli("diff", "--help")).stdout).toMatch(/^Usage: paperoffice-sdk diff /);
  });

  it.each([
    [["--spec", "x.yaml"], /^error: missing command before --spec: paperoffice-sdk <generate\|[a-z|]+> --spec x\.yaml\n/],
    [["genrate"], /^error: unknown command "genrate" \(did you mean generate\?\)/],
    [
      ["generate", "--sepc", "x.yaml"],
      /^error: unknown option --sepc for generate \(did you mean --spec\?\)\nrun `paperoffice-sdk generate --help`/,
    ],
    [
      ["generate", "--languages", "pyton"],
      new RegExp(`^error: --languages: "pyton" is not one of ${LANGUAGES} \\(did you mean python\\?\\)`),
    ],
    // Two edits from "go" is no hint for "ts".
    [["generate", "--languages", "ts"], new RegExp(`^error: --languages: "ts" is not one of ${LANGUAGES}\n`)],
    [["generate", "--out", ""], /^error: --out is empty: give the output folder\n/],
    [
      ["generate", "pets.yaml"],
      /^error: unexpected argument "pets\.yaml" for generate \(a description is given with --spec pets\.yaml\)\n/,
    ],
    [["generate", "--spec", "nope.yaml"], /^error: nope\.yaml: no such file\n$/],
  ])(
    "%j: one line naming the cause, exit 1",
    async (args, want) => {
      const result = await cli(...args);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(want);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    },
    240_000,
  );

  it("ends quietly when its reader goes away (| head), with no stack trace", async () => {
    const out = await mkdtemp(join(tmpdir(), "out-"));
    // --verbose writes a line a file after the summary: writes go on after the reader left.
    const args = ["generate", "--spec", SMALL, "--out", join(out, "sdk"), "--verbose"];
    const child = spawn(process.execPath, ["--import", TSX, join(root, "generator/cli.ts"), ...args], { cwd: root });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    // As head does: the first chunk read, then the pipe closed.
    child.stdout.once("data", () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });

  it("names an unreachable address and an invalid description's missing parts", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const unreachable = await cli(
      "generate",
      "--spec",
      `http://127.0.0.1:${port}/openapi.yaml`,
      "--out",
      await mkdtemp(join(tmpdir(), "out-")),
    );
    expect(unreachable.stderr.trim()).toBe(
      `error: http://127.0.0.1:${port}/openapi.yaml: could not be fetched: the connection was refused (ECONNREFUSED)`,
    );
    const dir = await mkdtemp(join(tmpdir(), "cli-"));
    await writeFile(join(dir, "openapi.json"), '{"openapi":"3.1.0"}');
    const invalid = await cli("generate", "--spec", join(dir, "openapi.json"), "--out", join(dir, "out"));
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("/info: missing: the description needs info with its title and version");
    expect(invalid.stderr).toContain("/paths: missing: OpenAPI 3.1 requires at least one of paths, webhooks and components");
    expect(invalid.stderr).not.toContain("[object Object]");
  });

  it("prints one line when not on a terminal, rewrites no unchanged file, and lists files with --verbose", async () => {
    const out = join(await mkdtemp(join(tmpdir(), "out-")), "client");
    const first = await cli("generate", "--spec", SMALL, "--out", out, "--languages", "typescript", "--outputs", "none");
    expect(first.code).toBe(0);
    expect(first.stdout.trim().split("\n")).toHaveLength(1);
    expect(first.stderr).toBe("");
    const before = await stat(join(out, "index.ts"));
    await writeFile(join(out, "errors.ts"), "// edited\n");
    const second = await cli("generate", "--spec", SMALL, "--out", out, "--languages", "typescript", "--outputs", "none", "--verbose");
    expect(second.stdout).toMatch(/\(1 written, \d+ unchanged\)/);
    expect(second.stdout).toContain("  wrote errors.ts (");
    expect(second.stdout).toContain("  unchanged index.ts");
    const after = await stat(join(out, "index.ts"));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(await readdir(out)).not.toContain("fixtures");
  });
});

describe("a run with nothing changed", CONCURRENT, () => {
  it("stops before loading the generator, and runs again when the description, the options or the output changed", async () => {
    const project = await mkdtemp(join(tmpdir(), "up-to-date-"));
    await mkdir(join(project, "node_modules"));
    const spec = join(project, "openapi.yaml");
    await writeFile(spec, await readFile(SMALL, "utf8"));
    const args = ["generate", "--spec", spec, "--out", "client", "--languages", "typescript", "--outputs", "none"];
    const first = await cliIn(project, ...args);
    expect(first.stdout).toMatch(/files \(\d+ written, 0 unchanged\)/);
    const index = await stat(join(project, "client", "index.ts"));
    const second = await cliIn(project, ...args);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(
      /^openapi\.yaml -> client: up to date \(same description, options and toolchain as the last run; --force regenerates\) in \d+\.\d s\n$/,
    );
    expect((await stat(join(project, "client", "index.ts"))).mtimeMs).toBe(index.mtimeMs);
    expect((await cliIn(project, ...args, "--force")).stdout).toMatch(/\(0 written, \d+ unchanged\)/);
    // An output file edited by hand, other options, another description: each is a real run.
    await writeFile(join(project, "client", "errors.ts"), "// edited\n");
    expect((await cliIn(project, ...args)).stdout).toMatch(/\(1 written, \d+ unchanged\)/);
    expect((await cliIn(project, ...args.slice(0, -1), "fixtures")).stdout).toMatch(/written/);
    expect((await cliIn(project, ...args.slice(0, -1), "fixtures")).stdout).toMatch(/up to date/);
    await writeFile(spec, (await readFile(spec, "utf8")).replace("title: Small", "title: Smaller"));
    expect((await cliIn(project, ...args)).stdout).toMatch(/Smaller .* written/);
    // Another description's whole output put in the folder since (as `release` writes one): not up to date.
    expect((await cliIn(project, ...args)).stdout).toMatch(/up to date/);
    const other = join(project, "other.yaml");
    await writeFile(other, (await readFile(spec, "utf8")).replace("title: Smaller", "title: Other"));
    expect((await cliIn(project, "generate", "--spec", other, "--out", "elsewhere", ...args.slice(5))).code).toBe(0);
    await rm(join(project, "client"), { recursive: true });
    await rename(join(project, "elsewhere"), join(project, "client"));
    expect((await cliIn(project, ...args)).stdout).toMatch(/Smaller .* written/);
  });

  it("loads no validator, printer, template engine or parser of the generator, and writes nothing", async () => {
    const project = await mkdtemp(join(tmpdir(), "up-to-date-"));
    await mkdir(join(project, "node_modules"));
    await writeFile(
      join(project, "paperoffice-sdk.config.json"),
      JSON.stringify({ spec: SMALL, out: "client", languages: ["typescript", "python"], outputs: { fixtures: false, ir: false } }),
    );
    const traced = async () => {
      const file = join(project, `loaded-${Math.random().toString(36).slice(2)}.txt`);
      const result = await cliWith([LOADED_MODULES], { LOADED_MODULES: file }, project, "generate");
      return { ...result, loaded: (await readFile(file, "utf8")).split("\n").filter(Boolean) };
    };
    const packages = (loaded: readonly string[]) =>
      new Set(loaded.flatMap((m) => [...m.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)\//g)].map((p) => p[1] ?? "").slice(-1)));
    const first = await traced();
    expect(first.stdout).toMatch(/files \(\d+ written, 0 unchanged\)/);
    // The record sees what a real run loads: the same check below can fail.
    expect([...packages(first.loaded)]).toEqual(expect.arrayContaining(["typescript", "handlebars", "@apidevtools/swagger-parser", "ajv"]));
    // One TypeScript compiler: the generated code is printed with the one openapi-typescript prints the types with.
    expect([...packages(first.loaded)].filter((p) => p === "ts-morph" || p === "@ts-morph/common")).toEqual([]);
    const files = await readdir(join(project, "client"), { recursive: true });
    const times = await Promise.all(files.map(async (f) => (await stat(join(project, "client", f))).mtimeMs));
    const second = await traced();
    expect(second.stdout).toMatch(/^\S+ -> client: up to date \(/);
    const heavy = ["ajv", "@apidevtools/swagger-parser", "ts-morph", "typescript", "handlebars", "openapi-typescript", "yaml"];
    expect([...packages(second.loaded)].filter((p) => heavy.includes(p))).toEqual([]);
    expect(second.loaded.filter((m) => /\/generator\/(generate|ir\/|emit\/|spec\/load)/.test(m))).toEqual([]);
    expect(await readdir(join(project, "client"), { recursive: true })).toEqual(files);
    expect(await Promise.all(files.map(async (f) => (await stat(join(project, "client", f))).mtimeMs))).toEqual(times);
    // A forced run does the work, with the templates the first run compiled: Handlebars' compiler does not load.
    const compiler = (loaded: readonly string[]) => loaded.filter((m) => m.includes("/handlebars/dist/cjs/handlebars/compiler/"));
    expect(compiler(first.loaded)).not.toEqual([]);
    const forced = await cliWith([LOADED_MODULES], { LOADED_MODULES: join(project, "forced.txt") }, project, "generate", "--force");
    expect(forced.stdout).toMatch(/files \(0 written, \d+ unchanged\)/);
    const again = (await readFile(join(project, "forced.txt"), "utf8")).split("\n");
    expect(compiler(again)).toEqual([]);
    // Nor swagger-parser: the same text passed the OpenAPI-schema check in the first run.
    expect([...packages(first.loaded)]).toContain("@apidevtools/swagger-parser");
    expect([...packages(again)]).not.toContain("@apidevtools/swagger-parser");
    expect(again).toEqual(expect.arrayContaining([expect.stringContaining("/handlebars/dist/cjs/handlebars.runtime.js")]));
  });

  it("runs again when the configuration file, the target list or the toolchain's version changed", async () => {
    const project = await mkdtemp(join(tmpdir(), "up-to-date-"));
    await mkdir(join(project, "node_modules"));
    const config = join(project, "paperoffice-sdk.config.json");
    const settings = { spec: SMALL, out: "client", languages: ["typescript"], outputs: { fixtures: false, ir: false } };
    await writeFile(config, JSON.stringify(settings));
    expect((await cliIn(project, "generate")).stdout).toMatch(/written/);
    expect((await cliIn(project, "generate")).stdout).toMatch(/up to date/);
    // One byte more in the configuration file, even one that changes no option: a real run, which checks the file.
    await writeFile(config, `${JSON.stringify(settings)}\n`);
    expect((await cliIn(project, "generate")).stdout).toMatch(/\(0 written, \d+ unchanged\)/);
    await writeFile(config, JSON.stringify({ ...settings, outptus: {} }));
    const wrong = await cliIn(project, "generate");
    expect([wrong.code, wrong.stderr]).toEqual([1, expect.stringContaining('must NOT have additional properties "outptus"')]);
    await writeFile(config, `${JSON.stringify(settings)}\n`);
    expect((await cliIn(project, "generate")).stdout).toMatch(/up to date/);
    // Another list of targets.
    const both = await cliIn(project, "generate", "--languages", "typescript,python");
    expect(both.stdout).toMatch(/files \(\d+ written, \d+ unchanged\)/);
    expect(await readdir(join(project, "client"))).toContain("python");
    expect((await cliIn(project, "generate", "--languages", "typescript,python")).stdout).toMatch(/up to date/);
    // Another version of the toolchain or of a package it generates with: another key.
    const versions = toolchainVersions().split("\n");
    const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { version: string; dependencies: object };
    expect(versions[0]).toBe(`@paperoffice/sdk-toolchain@${manifest.version}`);
    expect(versions.slice(1).map((v) => v.replace(/@[^@]+$/, ""))).toEqual(Object.keys(manifest.dependencies).sort());
    expect(versions.filter((v) => v.endsWith("@missing"))).toEqual([]);
    const options = { languages: ["typescript"] as const, outDir: "client" };
    const key = await runKey(SMALL, options, "{}", "toolchain 0.1.0");
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(await runKey(SMALL, options, "{}", "toolchain 0.1.0")).toBe(key);
    expect(await runKey(SMALL, options, "{}", "toolchain 0.1.1")).not.toBe(key);
    expect(await runKey(SMALL, options, "{ }", "toolchain 0.1.0")).not.toBe(key);
    expect(await runKey(SMALL, { ...options, languages: ["typescript", "go"] }, "{}", "toolchain 0.1.0")).not.toBe(key);
  });

  it("keeps nothing in a folder without node_modules, and so always runs there", async () => {
    const project = await mkdtemp(join(tmpdir(), "no-cache-"));
    const args = ["generate", "--spec", SMALL, "--out", "client", "--languages", "typescript", "--outputs", "none"];
    await cliIn(project, ...args);
    expect((await cliIn(project, ...args)).stdout).toMatch(/\(0 written, \d+ unchanged\)/);
    expect(await readdir(project)).toEqual(["client"]);
  });
});

describe("what a run loads", CONCURRENT, () => {
  it("is what the asked-for targets need: no TypeScript printer or type generator for Python or Go", async () => {
    const project = await mkdtemp(join(tmpdir(), "loads-"));
    const typescript = ["ts-morph", "@ts-morph/common", "typescript", "openapi-typescript"];
    for (const language of ["python", "go"]) {
      const file = join(project, `${language}.txt`);
      const args = ["generate", "--spec", SMALL, "--out", language, "--languages", language, "--outputs", "none"];
      const result = await cliWith([LOADED_MODULES], { LOADED_MODULES: file }, project, ...args);
      expect(result.stdout).toMatch(/written/);
      const loaded = (await readFile(file, "utf8")).split("\n");
      const packages = new Set(
        loaded.flatMap((m) => [...m.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)\//g)].map((p) => p[1] ?? "").slice(-1)),
      );
      // The record sees the packages this target does load.
      expect([...packages]).toEqual(expect.arrayContaining(["handlebars", "@apidevtools/swagger-parser"]));
      expect([...packages].filter((p) => typescript.includes(p))).toEqual([]);
      // Nor the fixtures' generator, left out with --outputs none, nor another target's emitters (a target's
      // definition may name a module of its emitters for its options, as Go's does for its reserved words).
      expect([...packages]).not.toContain("randexp");
      const emitters = loaded.filter((m) => /\/targets\/[a-z]+\/emit\/index\.[jt]s$/.test(m));
      expect(emitters).toEqual([expect.stringContaining(`/targets/${language}/emit/index.`)]);
    }
  });
});

describe("paperoffice-sdk.config.json", CONCURRENT, () => {
  it("is all `generate` needs; a flag overrides its field", async () => {
    const dir = await mkdtemp(join(tmpdir(), "config-"));
    await writeFile(
      join(dir, "paperoffice-sdk.config.json"),
      JSON.stringify({
        spec: SMALL,
        out: "sdk",
        languages: ["typescript"],
        outputs: { fixtures: false, ir: true },
        typescript: { package: "@acme/small-sdk" },
      }),
    );
    const result = await cliIn(dir, "generate");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/-> sdk: Small R20260101\.0000/);
    const files = await readdir(join(dir, "sdk"));
    expect(files).toEqual(expect.arrayContaining(["index.ts", "ir.json", "package.json", "README.md"]));
    expect(files).not.toContain("fixtures");
    expect(files).not.toContain("python");
    const manifest = JSON.parse(await readFile(join(dir, "sdk", "package.json"), "utf8")) as { name: string; version: string };
    expect([manifest.name, manifest.version]).toEqual(["@acme/small-sdk", "2026.101.0"]);
    const overridden = await cliIn(dir, "generate", "--out", "other", "--outputs", "none");
    expect(overridden.code).toBe(0);
    expect(await readdir(join(dir, "other"))).not.toContain("ir.json");
  });

  it("is checked: each problem with the file and the JSON pointer", async () => {
    const dir = await mkdtemp(join(tmpdir(), "config-"));
    await writeFile(join(dir, "paperoffice-sdk.config.json"), JSON.stringify({ languages: ["typescript", "rust"], outptus: {} }));
    const result = await cliIn(dir, "generate");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('paperoffice-sdk.config.json: /: must NOT have additional properties "outptus"');
    const languages = await cliIn(dir, "generate", "--config", join(dir, "missing.json"));
    expect(languages.stderr).toMatch(/missing\.json: no such file/);
    await writeFile(join(dir, "paperoffice-sdk.config.json"), JSON.stringify({ languages: ["typescript", "pyhton"] }));
    const misspelt = await cliIn(dir, "generate");
    expect(misspelt.stderr).toContain(`/languages/1: "pyhton" is not a language of the generator (${LANGUAGES}); did you mean python?`);
  });
});
