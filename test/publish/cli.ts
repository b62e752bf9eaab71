// Running `paperoffice-sdk publish` as a release engineer does, in a project folder of its own with its configuration
// file, the repository's Python tool environment first on PATH (python3 with build, twine and hatchling).
import { execFile } from "node:child_process";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { venvBin } from "../../targets/python/test/package.js";

const run = promisify(execFile);
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TSX = pathToFileURL(join(ROOT, "node_modules", "tsx", "dist", "loader.mjs")).href;
export const RELEASES = join(ROOT, "spec", "releases");

export interface Ran {
  /** The exit code, null when a signal ended the process. */
  readonly code: number | null;
  readonly signal?: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the command in `cwd`; never throws for a non-zero exit. */
export async function publishCli(cwd: string, args: readonly string[], env: Record<string, string> = {}): Promise<Ran> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", TSX, join(ROOT, "generator/cli.ts"), "publish", ...args], {
      cwd,
      env: { ...process.env, PATH: `${venvBin}:${process.env.PATH ?? ""}`, ...env },
      maxBuffer: 64 * 2 ** 20,
      timeout: 600_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number | null; signal?: string | null; stdout?: string; stderr?: string };
    return { code: e.code, signal: e.signal ?? null, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

/** Writes the project's paperoffice-sdk.config.json. */
export async function writeConfig(dir: string, config: Record<string, unknown>): Promise<void> {
  await writeFile(
    join(dir, "paperoffice-sdk.config.json"),
    `${JSON.stringify({ outputs: { fixtures: false, ir: false }, ...config }, null, 2)}\n`,
  );
}

/**
 * A releases folder below `dir` holding `older` as it is and `newer` with an edited summary: the same release ids,
 * so the same names and versions, with other bytes (the description's hash too). Returns the folder.
 */
export async function editedReleases(dir: string, older: string, newer: string): Promise<string> {
  const edited = join(dir, "edited-releases");
  await mkdir(edited);
  await copyFile(join(RELEASES, `${older}.yaml`), join(edited, `${older}.yaml`));
  const text = await readFile(join(RELEASES, `${newer}.yaml`), "utf8");
  const changed = text.replace("summary: HTTP/JSON", "summary: Edited. HTTP/JSON");
  if (changed === text) throw new Error(`${newer}.yaml has no "summary: HTTP/JSON" to edit`);
  await writeFile(join(edited, `${newer}.yaml`), changed);
  return edited;
}
