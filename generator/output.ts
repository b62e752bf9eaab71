// Writing a run's files. Every path stays inside the output folder; the run writes a temporary sibling folder and
// swaps it in only when every file is written, so a failed run leaves the previous output as it was; files whose
// content did not change keep their inode and modification time (hard-linked into the new folder, not rewritten).
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, link, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { EmittedFile } from "./emit/kit.js";

export interface WriteReport {
  readonly written: readonly string[];
  readonly unchanged: readonly string[];
  readonly removed: readonly string[];
}

/** Folders a previous run's users or tools put into the output, moved over as they are (a package's build and install). */
const CARRIED = new Set(["node_modules", "dist"]);
/** Caches that tools write next to generated files, dropped. */
const CACHES = new Set(["__pycache__", ".DS_Store", ".pytest_cache", ".mypy_cache"]);

/** A file path of a run, relative to the output folder: never absolute, never up and out of it. */
export function confinedPath(outDir: string, path: string): string {
  const parts = path.split("/");
  if (
    path === "" ||
    isAbsolute(path) ||
    /^[A-Za-z]:/.test(path) ||
    path.includes("\\") ||
    parts.some((p) => p === ".." || p === "." || p === "")
  ) {
    throw new Error(`refusing to write "${path}": an output file's path must stay inside the output folder`);
  }
  const target = resolve(outDir, ...parts);
  if (!target.startsWith(`${resolve(outDir)}${sep}`)) throw new Error(`refusing to write "${path}" outside ${outDir}`);
  return target;
}

/** Lists the files below a folder, with forward slashes, leaving out carried folders and caches. */
async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries
      .filter((e) => !CACHES.has(e.name) && !(prefix === "" && CARRIED.has(e.name)))
      .map((e) => (e.isDirectory() ? listFiles(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`])),
  );
  return nested.flat();
}

/** Refuses an output folder that holds files no run of the generator wrote: the swap would delete them. */
async function checkOwned(outDir: string, next: ReadonlySet<string>): Promise<void> {
  const cwd = process.cwd();
  const rel = relative(resolve(outDir), cwd);
  if (rel === "" || (!rel.startsWith("..") && !isAbsolute(rel))) {
    throw new Error(`refusing to write into ${outDir}: it is the current folder or holds it; choose a folder of its own`);
  }
  if (!existsSync(outDir)) return;
  if (!(await stat(outDir)).isDirectory()) throw new Error(`${outDir} is a file, not a folder`);
  const present = await listFiles(outDir);
  if (present.length === 0) return;
  let previous: Set<string>;
  try {
    const manifest = JSON.parse(await readFile(join(outDir, "manifest.json"), "utf8")) as { files?: Record<string, string> };
    previous = new Set([...Object.keys(manifest.files ?? {}), "manifest.json"]);
  } catch {
    throw new Error(`refusing to write into ${outDir}: it holds files and no manifest.json of an earlier run; choose an empty folder`);
  }
  const foreign = present.filter((f) => !previous.has(f) && !next.has(f));
  if (foreign.length > 0) {
    throw new Error(
      `refusing to write into ${outDir}: ${foreign.slice(0, 5).join(", ")}${foreign.length > 5 ? ` and ${foreign.length - 5} more` : ""} ` +
        "were not written by the generator and would be lost; move them elsewhere",
    );
  }
}

const digest = (content: string | Buffer) => createHash("sha256").update(content).digest("hex");

/** Writes the files as the whole content of `outDir`, replacing an earlier run's output. */
export async function writeOutput(outDir: string, files: readonly EmittedFile[]): Promise<WriteReport> {
  const targets = files.map((f) => ({ file: f, rel: confinedPath(outDir, f.path) }));
  await checkOwned(outDir, new Set(files.map((f) => f.path)));
  const parent = dirname(resolve(outDir));
  await mkdir(parent, { recursive: true });
  const staging = await mkdtemp(join(parent, `.${basename(resolve(outDir))}.tmp-`));
  const before = new Set(await listFiles(outDir));
  const written: string[] = [];
  const unchanged: string[] = [];
  try {
    for (const { file, rel } of targets) {
      const target = join(staging, relative(resolve(outDir), rel));
      await mkdir(dirname(target), { recursive: true });
      const old = join(outDir, file.path);
      const same = before.has(file.path) && digest(await readFile(old)) === digest(file.content);
      if (
        same &&
        (await link(old, target).then(
          () => true,
          () => false,
        ))
      )
        unchanged.push(file.path);
      else if (same) {
        await copyFile(old, target); // a file system without hard links: same bytes, new file
        unchanged.push(file.path);
      } else {
        await writeFile(target, file.content);
        written.push(file.path);
      }
    }
    if (existsSync(outDir)) {
      for (const name of CARRIED) if (existsSync(join(outDir, name))) await rename(join(outDir, name), join(staging, name));
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  // The swap: the old folder moves aside, the new one takes its name, the old one goes.
  const aside = existsSync(outDir) ? await mkdtemp(join(parent, `.${basename(resolve(outDir))}.old-`)) : undefined;
  if (aside !== undefined) await rename(outDir, join(aside, "out"));
  await rename(staging, outDir);
  if (aside !== undefined) await rm(aside, { recursive: true, force: true });
  const next = new Set(files.map((f) => f.path));
  return { written, unchanged, removed: [...before].filter((f) => !next.has(f)).sort() };
}
