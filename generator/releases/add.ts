import { writeFile } from "node:fs/promises";
import { checkDescription, type LoadedDescription } from "../spec/load.js";
import { readDescription } from "../spec/read.js";
import { listReleases, releasesDir } from "../spec/releases.js";
import { releaseIdProblem } from "./version.js";

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
 * Adds a description (a file or an http(s) URL) to spec/releases as a new release: it must be valid
 * (loadDescription's checks), its info.version must be a release id naming a real date and time, and no release
 * of that id may exist yet (older ids are accepted: they do not become current). The text is written unchanged,
 * so its hash stays the description's; an existing file is never overwritten and earlier files are not touched.
 */
export async function addRelease(source: string, dir = releasesDir): Promise<AddedRelease> {
  const description = await checkDescription(await readDescription(source));
  const info = description.document.info as { version?: unknown } | undefined;
  const id = typeof info?.version === "string" ? info.version : "";
  const problem = id ? releaseIdProblem(id) : "info.version is missing";
  if (problem) throw new Error(`${source}: ${problem} (/info/version)`);
  const known = listReleases(dir);
  if (known.includes(id)) throw new Error(`${source}: release ${id} already exists in spec/releases; a release is never replaced`);
  const file = `${dir}${id}.yaml`;
  try {
    await writeFile(file, description.text, { flag: "wx" });
  } catch (error) {
    throw new Error(`${source}: could not write ${id}.yaml: ${(error as Error).message}`);
  }
  const previous = known.at(-1);
  return { id, file, description, previous, current: previous === undefined || previous < id };
}
