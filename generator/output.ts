// Writing a run's files. Every path stays inside the output folder; the run writes a temporary sibling folder (each
// file as soon as it is given, so that a run need not hold its whole output) and swaps it in only when every file is
// written, so a failed run leaves the previous output as it was; files whose
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

/** Refuses the current folder, or a folder holding it: the swap would move the process's own folder away. */
function checkNotCurrent(outDir: string): void {
  const rel = relative(resolve(outDir), process.cwd());
  if (rel === "" || (!rel.startsWith("..") && !isAbsolute(rel))) {
    throw new Error(`refusing to write into ${outDir}: it is the current folder or holds it; choose a folder of its own`);
  }
}

/** What an earlier run left in the output folder: its files, and those its manifest lists (undefined: no files). */
interface Previous {
  readonly present: readonly string[];
  readonly listed: ReadonlySet<string> | undefined;
}

/** Reads the output folder as it is; refuses a file, or a folder holding files and no manifest of an earlier run. */
async function previousOutput(outDir: string): Promise<Previous> {
  if (!existsSync(outDir)) return { present: [], listed: undefined };
  if (!(await stat(outDir)).isDirectory()) throw new Error(`${outDir} is a file, not a folder`);
  const present = await listFiles(outDir);
  if (present.length === 0) return { present, listed: undefined };
  try {
    const manifest = JSON.parse(await readFile(join(outDir, "manifest.json"), "utf8")) as { files?: Record<string, string> };
    return { present, listed: new Set([...Object.keys(manifest.files ?? {}), "manifest.json"]) };
  } catch {
    throw new Error(`refusing to write into ${outDir}: it holds files and no manifest.json of an earlier run; choose an empty folder`);
  }
}

/** Refuses an output folder that holds files no run of the generator wrote: the swap would delete them. */
function checkForeign(outDir: string, previous: Previous, next: ReadonlySet<string>): void {
  const foreign = previous.present.filter((f) => !previous.listed?.has(f) && !next.has(f));
  if (foreign.length > 0) {
    throw new Error(
      `refusing to write into ${outDir}: ${foreign.slice(0, 5).join(", ")}${foreign.length > 5 ? ` and ${foreign.length - 5} more` : ""} ` +
        "were not written by the generator and would be lost; move them elsewhere",
    );
  }
}

const digest = (content: string | Buffer) => createHash("sha256").update(content).digest("hex");

/**
 * A run's output being written: files go into a temporary sibling folder as they are given, and their content is
 * not kept; commit swaps the folder in as the output's whole content, abort removes it and leaves the output as it was.
 */
export interface OutputWriter {
  /** Writes files (each path checked to stay inside the folder, and given once). */
  add(files: readonly EmittedFile[]): Promise<void>;
  /** Bytes of each file written so far, by path. */
  readonly sizes: ReadonlyMap<string, number>;
  /** Replaces the output folder's content with the files given; on failure the output stays as it was. */
  commit(): Promise<WriteReport>;
  /** Removes what was written; the output stays as it was. */
  abort(): Promise<void>;
}

/** Starts writing a run's output into `outDir`, refusing at once a folder it must not replace. */
export async function openOutput(outDir: string): Promise<OutputWriter> {
  checkNotCurrent(outDir);
  const previous = await previousOutput(outDir);
  const before = new Set(previous.present);
  const parent = dirname(resolve(outDir));
  await mkdir(parent, { recursive: true });
  const staging = await mkdtemp(join(parent, `.${basename(resolve(outDir))}.tmp-`));
  const sizes = new Map<string, number>();
  const written: string[] = [];
  const unchanged: string[] = [];
  let open = true;
  const abort = async () => {
    open = false;
    await rm(staging, { recursive: true, force: true });
  };
  return {
    sizes,
    abort,
    async add(files) {
      if (!open) throw new Error(`the output of ${outDir} is no longer open`);
      for (const file of files) {
        const rel = confinedPath(outDir, file.path);
        if (sizes.has(file.path)) throw new Error(`${file.path} was written twice`);
        sizes.set(file.path, Buffer.byteLength(file.content));
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
    },
    async commit() {
      if (!open) throw new Error(`the output of ${outDir} is no longer open`);
      open = false;
      try {
        checkForeign(outDir, previous, new Set(sizes.keys()));
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
      return { written, unchanged, removed: [...before].filter((f) => !sizes.has(f)).sort() };
    },
  };
}

/** Writes the files as the whole content of `outDir`, replacing an earlier run's output. */
export async function writeOutput(outDir: string, files: readonly EmittedFile[]): Promise<WriteReport> {
  // Every path, and the folder's ownership, is checked before anything is written.
  for (const file of files) confinedPath(outDir, file.path);
  checkNotCurrent(outDir);
  checkForeign(outDir, await previousOutput(outDir), new Set(files.map((f) => f.path)));
  const output = await openOutput(outDir);
  try {
    await output.add(files);
  } catch (error) {
    await output.abort();
    throw error;
  }
  return output.commit();
}
