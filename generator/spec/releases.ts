// A project's releases: one description per release in its releases folder, named after its release id (the
// description's info.version). The folder is the project's own (its configuration's `releases`, by default a
// `releases` folder beside the description or the configuration file): the toolchain carries no release of its own
// that a project could pick up.
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** This service's form of a release id: the date and time of the release. */
export const RELEASE_ID = /^R(\d{8})\.(\d{4})$/;
/** The other form: a semver version, as most APIs' info.version is. */
export const SEMVER_ID = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

/** Whether an id names a release: R<yyyymmdd>.<hhmm> or a semver version. */
export const isReleaseId = (id: string): boolean => RELEASE_ID.test(id) || SEMVER_ID.test(id);

/** The kind of a release id; a folder holds releases of one kind, so that their order is defined. */
export const releaseKind = (id: string): "dated" | "semver" => (RELEASE_ID.test(id) ? "dated" : "semver");

/**
 * Orders two release ids: dated ids by date and time, semver ids by semver precedence (a pre-release before its
 * release, its identifiers numerically where numeric). Ids of different kinds order dated first.
 */
export function compareReleases(a: string, b: string): number {
  const [x, y] = [SEMVER_ID.exec(a), SEMVER_ID.exec(b)];
  if (!x || !y) return x ? 1 : y ? -1 : a < b ? -1 : a > b ? 1 : 0;
  for (let i = 1; i <= 3; i++) {
    const d = Number(x[i]) - Number(y[i]);
    if (d !== 0) return d;
  }
  const [p, q] = [x[4], y[4]];
  if (p === undefined || q === undefined) return p === q ? 0 : p === undefined ? 1 : -1;
  const [ps, qs] = [p.split("."), q.split(".")];
  for (let i = 0; i < Math.max(ps.length, qs.length); i++) {
    const [m, n] = [ps[i], qs[i]];
    if (m === undefined || n === undefined) return m === undefined ? -1 : 1;
    if (m === n) continue;
    const [mn, nn] = [/^\d+$/.test(m), /^\d+$/.test(n)];
    if (mn && nn) return Number(m) - Number(n);
    if (mn !== nn) return mn ? -1 : 1;
    return m < n ? -1 : 1;
  }
  return 0;
}

/** The release ids of a releases folder, oldest first; none when the folder does not exist yet. */
export function listReleases(dir: string): string[] {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  return files
    .filter((file) => file.endsWith(".yaml"))
    .map((file) => file.slice(0, -".yaml".length))
    .filter(isReleaseId)
    .sort(compareReleases);
}

/** The current release is the newest one. */
export function currentRelease(dir: string): string {
  const newest = listReleases(dir).at(-1);
  if (!newest) throw new Error(`no release in ${dir} (a description named after its info.version, such as 1.2.0.yaml)`);
  return newest;
}

/** The file of a release the folder holds. */
export function releaseFile(id: string, dir: string): string {
  if (!isReleaseId(id)) throw new Error(`"${id}" is not a release id (a semver version such as 1.2.0, or R<yyyymmdd>.<hhmm>)`);
  const known = listReleases(dir);
  if (!known.includes(id)) throw new Error(`release ${id} is not in ${dir} (known: ${known.join(", ") || "none"})`);
  return join(dir, `${id}.yaml`);
}
