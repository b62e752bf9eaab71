// Writing a run's files. Every path stays inside the output folder; the run writes a temporary sibling folder (each
// file as soon as it is given, so that a run need not hold its whole output) and swaps it in only when every file is
// written, so a failed run leaves the previous output as it was; files whose
// content did not change keep their inode and modification time (hard-linked into the new folder, not rewritten).
import { createHash, randomBytes } from "node:crypto";
import { copyFileSync, existsSync, linkSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { EmittedFile } from "./emit/kit.js";

export interface WriteReport {
  readonly written: readonly string[];
  readonly unchanged: readonly string[];
  readonly removed: readonly string[];
}

/**
 * Folders a previous run's users or tools put into the output, moved over as they are (a package's build and install):
 * these at the top, and the build folders each target of the run declares (Target.buildFolders, `java/target`...).
 */
const CARRIED = ["node_modules", "dist"];
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
async function listFiles(dir: string, carried: ReadonlySet<string>, prefix = ""): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries
      .filter((e) => !CACHES.has(e.name) && !carried.has(`${prefix}${e.name}`))
      .map((e) => (e.isDirectory() ? listFiles(join(dir, e.name), carried, `${prefix}${e.name}/`) : [`${prefix}${e.name}`])),
  );
  return nested.flat();
}

/** The folders a run carries over: the top-level ones and those its targets declare, each checked to stay inside. */
function carriedFolders(options: OutputOptions): ReadonlySet<string> {
  for (const folder of options.buildFolders ?? []) {
    const parts = folder.split("/");
    if (folder === "" || folder.startsWith("/") || folder.includes("\\") || parts.some((p) => p === "" || p === "." || p === ".."))
      throw new Error(`a target's build folder ${JSON.stringify(folder)} must be a relative path inside the output folder`);
  }
  return new Set([...CARRIED, ...(options.buildFolders ?? [])]);
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
  /** The languages the earlier run wrote, when its manifest names them. */
  readonly languages?: readonly string[];
}

/** Reads the output folder as it is; refuses a file, or a folder holding files and no manifest of an earlier run. */
async function previousOutput(outDir: string, carried: ReadonlySet<string>): Promise<Previous> {
  if (!existsSync(outDir)) return { present: [], listed: undefined };
  if (!(await stat(outDir)).isDirectory()) throw new Error(`${outDir} is a file, not a folder`);
  const present = await listFiles(outDir, carried);
  if (present.length === 0) return { present, listed: undefined };
  try {
    const manifest = JSON.parse(await readFile(join(outDir, "manifest.json"), "utf8")) as {
      files?: Record<string, string>;
      languages?: unknown;
    };
    const languages = Array.isArray(manifest.languages) ? manifest.languages.map(String) : undefined;
    return { present, listed: new Set([...Object.keys(manifest.files ?? {}), "manifest.json"]), ...(languages && { languages }) };
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

/** The temporary folder a run's files are written into, as another thread needs it to write some of them (writeStaged). */
export interface Staging {
  readonly outDir: string;
  readonly folder: string;
  /** The files of the previous output: those of the same content are linked, not written again. */
  readonly before: ReadonlySet<string>;
}

/** A file writeStaged wrote (or linked, `unchanged`), with its size in bytes. */
export interface WrittenFile {
  readonly path: string;
  readonly bytes: number;
  readonly unchanged: boolean;
}

/**
 * Writes files into a staging folder, from any thread: each path checked to stay inside the output folder, a file
 * of the previous output's content linked rather than written. A file's SHA-256 (hex), when the caller has it
 * already, spares hashing it again. `folders` keeps the folders already made.
 * The files are written one after another with the file system's synchronous calls: a large description's output
 * is over ten thousand files, and each asynchronous write costs a round through libuv's threads and a promise.
 * MS Graph's output (11,562 files) took 1.35 to 1.45 s of CPU written 16 at a time that way, 0.63 to 0.70 s this
 * way, and less wall time too. A failure stops the writing at once: nothing is still writing when the caller
 * cleans up.
 */
export async function writeStaged(
  staging: Staging,
  files: readonly (EmittedFile & { readonly sha256?: string })[],
  folders = new Set<string>(),
): Promise<WrittenFile[]> {
  const root = resolve(staging.outDir);
  // Every path is checked before any of the files is written.
  const jobs = files.map((file) => ({ file, target: join(staging.folder, relative(root, confinedPath(staging.outDir, file.path))) }));
  const staged: WrittenFile[] = [];
  for (const { file, target } of jobs) {
    const dir = dirname(target);
    if (!folders.has(dir)) {
      mkdirSync(dir, { recursive: true });
      folders.add(dir);
    }
    const old = join(staging.outDir, file.path);
    const unchanged = staging.before.has(file.path) && digest(readFileSync(old)) === (file.sha256 ?? digest(file.content));
    if (unchanged) {
      try {
        linkSync(old, target);
      } catch {
        // A file system without hard links: same bytes, new file.
        copyFileSync(old, target);
      }
    } else writeFileSync(target, file.content);
    staged.push({ path: file.path, bytes: Buffer.byteLength(file.content), unchanged });
  }
  return staged;
}

/** How a run may replace the output folder. */
export interface OutputOptions {
  /** The languages this run writes: an earlier run's output of others is refused unless `prune`. */
  readonly languages?: readonly string[];
  /** Let the run remove the output of languages it does not write. */
  readonly prune?: boolean;
  /** Build folders the run's targets declare (paths below the output folder), carried over as they are. */
  readonly buildFolders?: readonly string[];
}

/**
 * A sibling folder of the output's for a run's staging (`tmp`) or the old output (`old`), named with the run's process
 * id so that a later run can tell an interrupted run's leftovers from a running one's. Made with mkdir, not mkdtemp:
 * once swapped in it is the output folder, whose mode must come from the umask as any tool's folder does (mkdtemp
 * makes 0700).
 */
async function siblingFolder(outDir: string, kind: "tmp" | "old"): Promise<string> {
  const folder = join(dirname(resolve(outDir)), `.${basename(resolve(outDir))}.${kind}-${process.pid}-${randomBytes(6).toString("hex")}`);
  await mkdir(folder);
  return folder;
}

/** A file system error in words, without the system call and paths Node's message repeats. */
function fileProblem(error: NodeJS.ErrnoException): string {
  if (error.code === "EACCES" || error.code === "EPERM") return "permission denied (on the folder or the one holding it)";
  if (error.code === "EBUSY") return "the folder is in use";
  if (error.code === "EROFS") return "the file system is read-only";
  if (error.code === "ENOSPC") return "no space left on the device";
  return error.message;
}

/** Whether a process of this id is running (one of another user counts as running). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/** Removes the staging and old folders that interrupted runs into `outDir` left beside it; returns their names. */
export async function removeLeftovers(outDir: string): Promise<string[]> {
  const base = basename(resolve(outDir));
  const parent = dirname(resolve(outDir));
  const removed: string[] = [];
  for (const name of await readdir(parent).catch(() => [])) {
    if (!name.startsWith(`.${base}.`)) continue;
    const match = /^\.(tmp|old)-(\d+)-[0-9a-f]{12}$/.exec(name.slice(base.length + 1));
    const pid = Number(match?.[2]);
    if (!match || pid === process.pid || alive(pid)) continue;
    await rm(join(parent, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/** Refuses a run of fewer languages than the earlier one, which would remove the others' output, unless it may prune. */
function checkLanguages(outDir: string, previous: Previous, options: OutputOptions): readonly string[] {
  if (previous.languages === undefined || options.languages === undefined) return [];
  const dropped = previous.languages.filter((l) => !options.languages!.includes(l));
  if (dropped.length > 0 && !options.prune) {
    throw new Error(
      `refusing to write into ${outDir}: it holds the ${dropped.join(", ")} output of an earlier run, which this run ` +
        `(languages: ${options.languages.length > 0 ? options.languages.join(", ") : "none"}) would remove; generate those ` +
        "languages too, write into another folder, or pass --prune to remove it",
    );
  }
  return dropped;
}

/**
 * A run's output being written: files go into a temporary sibling folder as they are given, and their content is
 * not kept; commit swaps the folder in as the output's whole content, abort removes it and leaves the output as it was.
 */
export interface OutputWriter {
  /** Writes files (each path checked to stay inside the folder, and given once). */
  add(files: readonly EmittedFile[]): Promise<void>;
  /** Where another thread writes files of this output with writeStaged; it hands what it wrote to `record`. */
  readonly staging: Staging;
  /** Files written into `staging` elsewhere, counted as if added (each path given once). */
  record(files: readonly WrittenFile[]): void;
  /** Bytes of each file written so far, by path. */
  readonly sizes: ReadonlyMap<string, number>;
  /** The languages of the earlier run whose output this run removes (it was allowed to prune). */
  readonly pruned: readonly string[];
  /** Replaces the output folder's content with the files given; on failure the output stays as it was. */
  commit(): Promise<WriteReport>;
  /** Removes what was written; the output stays as it was. */
  abort(): Promise<void>;
}

/** Starts writing a run's output into `outDir`, refusing at once a folder it must not replace. */
export async function openOutput(outDir: string, options: OutputOptions = {}): Promise<OutputWriter> {
  checkNotCurrent(outDir);
  const carried = carriedFolders(options);
  const previous = await previousOutput(outDir, carried);
  const pruned = checkLanguages(outDir, previous, options);
  const before = new Set(previous.present);
  const parent = dirname(resolve(outDir));
  await mkdir(parent, { recursive: true });
  await removeLeftovers(outDir);
  const staging = await siblingFolder(outDir, "tmp").catch((error: NodeJS.ErrnoException) => {
    throw new Error(`cannot write beside ${outDir} (a run writes a temporary folder next to it): ${fileProblem(error)}`);
  });
  const sizes = new Map<string, number>();
  const folders = new Set<string>();
  const written: string[] = [];
  const unchanged: string[] = [];
  let open = true;
  const abort = async () => {
    open = false;
    await rm(staging, { recursive: true, force: true });
  };
  const checkOpen = () => {
    if (!open) throw new Error(`the output of ${outDir} is no longer open`);
  };
  const record = (files: readonly WrittenFile[]) => {
    checkOpen();
    for (const file of files) {
      if (sizes.has(file.path)) throw new Error(`${file.path} was written twice`);
      sizes.set(file.path, file.bytes);
      (file.unchanged ? unchanged : written).push(file.path);
    }
  };
  const stagingFolder: Staging = { outDir, folder: staging, before };
  return {
    sizes,
    pruned,
    abort,
    staging: stagingFolder,
    record,
    async add(files) {
      checkOpen();
      // Before anything is written, as the staged files are recorded only once written.
      const given = new Set<string>();
      for (const f of files) {
        if (sizes.has(f.path) || given.has(f.path)) throw new Error(`${f.path} was written twice`);
        given.add(f.path);
      }
      record(await writeStaged(stagingFolder, files, folders));
    },
    async commit() {
      if (!open) throw new Error(`the output of ${outDir} is no longer open`);
      open = false;
      try {
        checkForeign(outDir, previous, new Set(sizes.keys()));
        if (existsSync(outDir)) {
          for (const name of carried) {
            if (!existsSync(join(outDir, ...name.split("/")))) continue;
            await mkdir(dirname(join(staging, ...name.split("/"))), { recursive: true });
            await rename(join(outDir, ...name.split("/")), join(staging, ...name.split("/")));
          }
        }
      } catch (error) {
        await rm(staging, { recursive: true, force: true });
        throw error;
      }
      // The swap: the old folder moves aside, the new one takes its name, the old one goes. A folder that cannot be
      // moved (no write permission on its parent, a mount point, a file open on Windows) is put back as it was.
      let aside: string | undefined;
      let movedAside = false;
      try {
        aside = existsSync(outDir) ? await siblingFolder(outDir, "old") : undefined;
        if (aside !== undefined) await rename(outDir, join(aside, "out"));
        movedAside = aside !== undefined;
        await rename(staging, outDir);
      } catch (error) {
        if (movedAside) await rename(join(aside!, "out"), outDir).catch(() => undefined);
        await Promise.all([staging, aside].map((f) => (f === undefined ? undefined : rm(f, { recursive: true, force: true }))));
        throw new Error(`cannot replace ${outDir}: ${fileProblem(error as NodeJS.ErrnoException)}; the output was left as it was`);
      }
      if (aside !== undefined) await rm(aside, { recursive: true, force: true });
      // Files are written several at a time: the lists are sorted, not in the order the writes ended.
      return { written: written.sort(), unchanged: unchanged.sort(), removed: [...before].filter((f) => !sizes.has(f)).sort() };
    },
  };
}

/** Writes the files as the whole content of `outDir`, replacing an earlier run's output. */
export async function writeOutput(outDir: string, files: readonly EmittedFile[], options: OutputOptions = {}): Promise<WriteReport> {
  // Every path, and the folder's ownership, is checked before anything is written.
  for (const file of files) confinedPath(outDir, file.path);
  checkNotCurrent(outDir);
  checkForeign(outDir, await previousOutput(outDir, carriedFolders(options)), new Set(files.map((f) => f.path)));
  const output = await openOutput(outDir, options);
  try {
    await output.add(files);
  } catch (error) {
    await output.abort();
    throw error;
  }
  return output.commit();
}
