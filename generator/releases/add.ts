import { mkdir, writeFile } from "node:fs/promises";
import { checkDescription, type LoadedDescription } from "../spec/load.js";
import { readDescription } from "../spec/read.js";
import { join } from "node:path";
import { compareReleases, listReleases, releaseKind } from "../spec/releases.js";
import { releaseProblem } from "./version.js";

export interface AddedRelease {
  readonly id: string;
  readonly file: string;
  readonly description: LoadedDescription;
  /** The newest release before this one was added, if any. */
  readonly previous: string | undefined;
  /** Whether the added release is now the current (newest) one. */
  readonly current: boolean;
}

/**
 * Adds a description (a file or an http(s) URL) to a project's releases folder as a new release: it must be valid
 * (loadDescription's checks), and its info.version must be a release id no release of the folder has yet (older ids
 * are accepted: they do not become current). The text is written unchanged, so its hash stays the description's; an
 * existing file is never overwritten and earlier files are not touched. The folder is created when it is missing.
 */
export async function addRelease(source: string, dir: string): Promise<AddedRelease> {
  const description = await checkDescription(await readDescription(source));
  const id = newReleaseId(source, description.document, dir);
  const known = listReleases(dir);
  const file = join(dir, `${id}.yaml`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(file, description.text, { flag: "wx" });
  } catch (error) {
    throw new Error(`${source}: could not write ${file}: ${(error as Error).message}`);
  }
  const previous = known.at(-1);
  return { id, file, description, previous, current: previous === undefined || compareReleases(previous, id) < 0 };
}

/**
 * The release id a description would be stored under in `dir`, checked before anything is compared or written: its
 * info.version, a release id of the kind the folder holds, that no release of the folder has.
 */
export function newReleaseId(source: string, document: unknown, dir: string): string {
  const info = (document as { info?: { version?: unknown } } | undefined)?.info;
  const id = typeof info?.version === "string" ? info.version : "";
  const problem = id ? releaseProblem(id) : "info.version is missing";
  if (problem) throw new Error(`${source}: /info/version: ${problem}`);
  const known = listReleases(dir);
  if (known.includes(id)) throw new Error(`${source}: release ${id} already exists in ${dir}; a release is never replaced`);
  const other = known.find((k) => releaseKind(k) !== releaseKind(id));
  if (other !== undefined) {
    throw new Error(
      `${source}: /info/version: "${id}" is not of the kind of ${dir}'s releases (${other}): one folder's releases are all semver versions or all R<yyyymmdd>.<hhmm>, so that they have an order`,
    );
  }
  return id;
}
