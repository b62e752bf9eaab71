// What the Go target's tests share: generating a description's Go module into a folder, a go.work that puts it
// beside the runtime module (the generated go.mod requires the runtime by version, as a published module does), and
// running the Go tools there with their output kept.
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { generate, writeFiles } from "../../../generator/generate.js";
import type { EmittedFile } from "../../../generator/emit/kit.js";
import { REPO_ROOT } from "../../../scripts/setup/go-tools.mjs";
import { emitGo } from "../emit/index.js";

const run = promisify(execFile);

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
  const uses = ["./go", relative(dir, GO_RUNTIME).split("\\").join("/"), ...extra.map((e) => `./${e}`)];
  await writeFile(join(dir, "go.work"), `go 1.22\n\nuse (\n${uses.map((u) => `\t${u}\n`).join("")})\n`);
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
