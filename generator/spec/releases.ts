import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const RELEASE_ID = /^R(\d{8})\.(\d{4})$/;

/** The folder that holds one description per release, named after its release id. */
export const releasesDir = fileURLToPath(new URL("../../spec/releases/", import.meta.url));

/** Release ids in spec/releases, oldest first; ids sort by their date and time. */
export function listReleases(dir = releasesDir): string[] {
  return readdirSync(dir)
    .map((file) => file.replace(/\.ya?ml$/, ""))
    .filter((id) => RELEASE_ID.test(id))
    .sort();
}

/** The current release is the newest one. */
export function currentRelease(dir = releasesDir): string {
  const releases = listReleases(dir);
  const newest = releases.at(-1);
  if (!newest) throw new Error(`no release description (R<yyyymmdd>.<hhmm>.yaml) in ${dir}`);
  return newest;
}

export function releaseFile(id: string, dir = releasesDir): string {
  if (!RELEASE_ID.test(id)) throw new Error(`"${id}" is not a release id of the form R<yyyymmdd>.<hhmm>`);
  const file = `${dir}${id}.yaml`;
  if (!listReleases(dir).includes(id))
    throw new Error(`release ${id} is not in spec/releases (known: ${listReleases(dir).join(", ") || "none"})`);
  return file;
}
