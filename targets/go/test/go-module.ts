// What the Go target's tests share: generating a description's Go module into a folder, a go.work that puts it
// beside the runtime module (the generated go.mod requires the runtime by version, as a published module does), and
// running the Go tools there with their output kept; a Go test program of e2e/ in a module beside the generated ones,
// and the gofmt, go vet and staticcheck checks.
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect } from "vitest";
import { generate, writeFiles } from "../../../generator/generate.js";
import type { EmittedFile } from "../../../generator/emit/kit.js";
import { REPO_ROOT } from "../../../scripts/setup/go-tools.mjs";
import { emitGo } from "../emit/index.js";

const run = promisify(execFile);
const E2E = fileURLToPath(new URL("./e2e/", import.meta.url));

/** The hand-written runtime module. */
export const GO_RUNTIME = join(REPO_ROOT, "targets", "go", "runtime");

export interface Outcome {
  readonly code: number;
  readonly output: string;
}

/** Generates the Go module of a description; its files are below `go/`. */
export async function generateGo(source: string): Promise<readonly EmittedFile[]> {
  return (await generate(source, { emitters: [emitGo] })).files;
}

/**
 * Writes the files into `dir` and a go.work using the generated module, the runtime module and `extra` folders (below
 * dir), so that the Go tools resolve the runtime from this repository and never from the network.
 */
export async function writeGoWorkspace(dir: string, files: readonly EmittedFile[], extra: readonly string[] = []): Promise<void> {
  await writeFiles(dir, files);
  // The generated files replace the folder: what the go.work names beside them is written after this.
  await writeGoWork(dir, ["go"], extra);
}

/** A go.work in `dir` using the `generated` module folders, the runtime module and `extra` folders (all below dir). */
async function writeGoWork(dir: string, generated: readonly string[], extra: readonly string[]): Promise<void> {
  const uses = [...generated.map((g) => `./${g}`), relative(dir, GO_RUNTIME).split("\\").join("/"), ...extra.map((e) => `./${e}`)];
  await writeFile(join(dir, "go.work"), `go 1.22\n\nuse (\n${uses.map((u) => `\t${u}\n`).join("")})\n`);
}

/** Writes `<dir>/e2e`: the Go test program `program` of e2e/ here, in a module requiring `requires` ("path version" each). */
export async function writeE2eModule(dir: string, program: string, requires: readonly string[]): Promise<void> {
  await mkdir(join(dir, "e2e"));
  await copyFile(join(E2E, program), join(dir, "e2e", program));
  await writeFile(join(dir, "e2e", "go.mod"), `module example.com/e2e\n\ngo 1.22\n\n${requires.map((r) => `require ${r}\n`).join("")}`);
}

/**
 * Generates each description of `sources` into `<base>/<name>`, and beside them the e2e module of `program` requiring
 * the `modules` they declare, with a go.work using them all: for a program that imports several generated modules.
 */
export async function writeE2eWorkspace(
  base: string,
  sources: Readonly<Record<string, string>>,
  program: string,
  modules: readonly string[],
): Promise<void> {
  for (const [name, source] of Object.entries(sources)) await writeFiles(join(base, name), await generateGo(source));
  await writeE2eModule(
    base,
    program,
    modules.map((m) => `${m} v0.0.0`),
  );
  await writeGoWork(
    base,
    Object.keys(sources).map((name) => `${name}/go`),
    ["e2e"],
  );
}

/**
 * A suite around a Go test program: before its tests, a temporary folder (`prefix` names it) written by
 * writeE2eWorkspace; after them, the folder removed. `goTest` runs the program there.
 */
export function goE2eSuite(
  prefix: string,
  sources: Readonly<Record<string, string>>,
  program: string,
  modules: readonly string[],
): { goTest(): Promise<Outcome> } {
  let base = "";
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), prefix));
    await writeE2eWorkspace(base, sources, program, modules);
  }, 600_000);
  afterAll(async () => {
    if (base !== "") await rm(base, { recursive: true, force: true });
  });
  return { goTest: () => goTestE2e(base) };
}

/** Runs the tests of the e2e module of `dir` verbosely under its go.work. */
export function goTestE2e(dir: string, env: Record<string, string> = {}): Promise<Outcome> {
  return goRun(join(dir, "e2e"), "go", ["test", "-count=1", "-v", "./..."], { GOWORK: join(dir, "go.work"), ...env });
}

/** Expects the generated module of `dir` (a folder written by writeGoWorkspace) gofmt-clean and clean under go vet and staticcheck. */
export async function expectGoClean(dir: string, staticcheck: string): Promise<void> {
  const cwd = join(dir, "go");
  const env = { GOWORK: join(dir, "go.work") };
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
}

/** Runs a command in a folder with the Go proxy off, and returns its exit code with stdout and stderr together. */
export async function goRun(
  cwd: string,
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
  timeout = 300_000,
): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(command, [...args], {
      cwd,
      env: { ...process.env, GOPROXY: "off", GOFLAGS: "", ...env },
      timeout,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string; message: string };
    return {
      code: typeof failed.code === "number" ? failed.code : -1,
      output: `${failed.stdout ?? ""}${failed.stderr ?? ""}\n${failed.message}`,
    };
  }
}
