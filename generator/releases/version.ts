/**
 * Release id <-> package version.
 *
 * A release id R<yyyymmdd>.<hhmm> maps to the semver version <yyyy>.<mmdd>.<hhmm> with the leading zeros of each
 * numeric part dropped, because semver forbids them: R20261120.0900 -> 2026.1120.900, R20270105.0007 -> 2027.105.7,
 * R20270101.0000 -> 2027.101.0. Month-day and hour-minute are read as numbers, so the version's major, minor and
 * patch order exactly like the release's date, day and time; the mapping is one-to-one and reversible (the month-day
 * is padded back to four digits, the hour-minute too).
 */
import { RELEASE_ID, SEMVER_ID } from "../spec/releases.js";

const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/** Checks that a release id names a real date and time (month 01-12, a day of that month, 00:00 to 23:59). */
export function releaseIdProblem(id: string): string | undefined {
  const match = RELEASE_ID.exec(id);
  if (!match) return `"${id}" is not a release id of the form R<yyyymmdd>.<hhmm>`;
  const [date, time] = [match[1]!, match[2]!];
  const [year, month, day] = [Number(date.slice(0, 4)), Number(date.slice(4, 6)), Number(date.slice(6, 8))];
  const [hour, minute] = [Number(time.slice(0, 2)), Number(time.slice(2, 4))];
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > days) return `release id "${id}" names no calendar date`;
  if (hour > 23 || minute > 59) return `release id "${id}" names no time of day`;
  return undefined;
}

/** Checks an info.version as a project's release id: a semver version, or a dated id that names a real date and time. */
export function releaseProblem(id: string): string | undefined {
  if (SEMVER_ID.test(id)) return undefined;
  if (RELEASE_ID.test(id)) return releaseIdProblem(id);
  return `"${id}" is neither a semver version (such as 1.2.0) nor a release id R<yyyymmdd>.<hhmm>, so it names no release`;
}

/** R20261120.0900 -> 2026.1120.900. */
export function releaseToVersion(id: string): string {
  const problem = releaseIdProblem(id);
  if (problem) throw new Error(problem);
  const [, date, time] = RELEASE_ID.exec(id)!;
  return `${Number(date!.slice(0, 4))}.${Number(date!.slice(4))}.${Number(time)}`;
}

/** 2026.1120.900 -> R20261120.0900; throws for a version that no release id maps to. */
export function versionToRelease(version: string): string {
  const match = VERSION.exec(version);
  if (!match) throw new Error(`"${version}" is not a version <major>.<minor>.<patch> without leading zeros`);
  const [year, monthDay, time] = [match[1]!, match[2]!, match[3]!];
  const id = `R${year}${monthDay.padStart(4, "0")}.${time.padStart(4, "0")}`;
  if (year.length !== 4 || monthDay.length > 4 || time.length > 4 || releaseIdProblem(id)) {
    throw new Error(`version "${version}" does not come from a release id`);
  }
  return id;
}

/** Orders two semver versions without pre-release or build parts, by major, minor, patch. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split(".").map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}
