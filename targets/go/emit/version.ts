/**
 * The Go module version of a release. A release id `R<yyyymmdd>.<hhmm>` becomes `v0.<yyyymmdd>.<hhmm>` with the
 * leading zeros of the time dropped (semver forbids them): R20261127.0900 is v0.20261127.900. Go requires a major
 * version above 1 to be part of the module path (`/v2026`), so the date cannot be the major version; major 0 says
 * what a release of the service is, a description with no compatibility promise of its own, and the date and time as
 * minor and patch keep Go's version order the order of the releases. A semver version is the module's version as it is
 * (1.2.0 is v1.2.0; from major 2 on, Go wants the major in the module path: see goMajorSuffix). Undefined for a
 * version that is neither.
 */
import { RELEASE_ID, SEMVER_ID } from "../../../generator/spec/releases.js";

export function goModuleVersion(release: string): string | undefined {
  if (SEMVER_ID.test(release)) return `v${release}`;
  const match = RELEASE_ID.exec(release);
  if (!match) return undefined;
  const [, date = "", time = ""] = match;
  return `v0.${Number(date)}.${Number(time)}`;
}

/** The suffix Go requires at the end of the module path for a version (`/v2` for v2.x.y), "" for majors 0 and 1. */
export function goMajorSuffix(version: string): string {
  const major = Number(/^v(\d+)\./.exec(version)?.[1] ?? 0);
  return major >= 2 ? `/v${major}` : "";
}
