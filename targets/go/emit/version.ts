/**
 * The Go module version of a release. A release id `R<yyyymmdd>.<hhmm>` becomes `v0.<yyyymmdd>.<hhmm>` with the
 * leading zeros of the time dropped (semver forbids them): R20261127.0900 is v0.20261127.900. Go requires a major
 * version above 1 to be part of the module path (`/v2026`), so the date cannot be the major version; major 0 says
 * what a release of the service is, a description with no compatibility promise of its own, and the date and time as
 * minor and patch keep Go's version order the order of the releases. Undefined for a version that is not a release id.
 */
import { RELEASE_ID } from "../../../generator/spec/releases.js";

export function goModuleVersion(release: string): string | undefined {
  const match = RELEASE_ID.exec(release);
  if (!match) return undefined;
  const [, date = "", time = ""] = match;
  return `v0.${Number(date)}.${Number(time)}`;
}
