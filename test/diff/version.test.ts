import { describe, expect, it } from "vitest";
import { compareVersions, releaseIdProblem, releaseToVersion, versionToRelease } from "../../generator/releases/version.js";
import { listReleases } from "../support/service-releases.js";

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/** Release ids spread over the edges that matter: January (leading zeros), midnight, the last minute of a day. */
function ids(): string[] {
  const out = new Set<string>(["R20261120.0900", "R20270101.0000", "R20270105.0007", "R20261231.2359", "R20280229.1200", "R21000101.0001"]);
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 48271) % 2147483647;
    return seed % n;
  };
  while (out.size < 400) {
    const year = 2025 + next(6);
    const month = 1 + next(12);
    const day = 1 + next(new Date(Date.UTC(year, month, 0)).getUTCDate());
    const pad = (n: number, w = 2) => String(n).padStart(w, "0");
    out.add(`R${year}${pad(month)}${pad(day)}.${pad(next(24))}${pad(next(60))}`);
  }
  return [...out];
}

describe("release id -> package version", () => {
  it("maps the first release as documented", () => {
    expect(releaseToVersion("R20261120.0900")).toBe("2026.1120.900");
    expect(releaseToVersion("R20270105.0007")).toBe("2027.105.7");
    expect(releaseToVersion("R20270101.0000")).toBe("2027.101.0");
  });

  it("gives semver-valid versions (no leading zeros) that map back to the same id", () => {
    for (const id of ids()) {
      const version = releaseToVersion(id);
      expect(version).toMatch(SEMVER);
      expect(versionToRelease(version)).toBe(id);
    }
  });

  it("orders versions exactly like the releases, sorted either way", () => {
    const all = ids();
    const byId = [...all].sort();
    const byVersion = [...all].sort((a, b) => compareVersions(releaseToVersion(a), releaseToVersion(b)));
    expect(byVersion).toEqual(byId);
    expect([...all].sort().reverse()).toEqual([...all].sort((a, b) => compareVersions(releaseToVersion(b), releaseToVersion(a))));
    for (let i = 1; i < byId.length; i++)
      expect(compareVersions(releaseToVersion(byId[i - 1]!), releaseToVersion(byId[i]!))).toBeLessThan(0);
  });

  it("holds for the releases in spec/releases", () => {
    const releases = listReleases();
    expect(releases.map(releaseToVersion).sort(compareVersions).map(versionToRelease)).toEqual(releases);
  });

  it("refuses ids that name no date or time, and versions no id maps to", () => {
    for (const bad of ["R20261320.0900", "R20260230.0900", "R20261120.2400", "R20261120.0960", "R2026112.0900", "20261120.0900"]) {
      expect(releaseIdProblem(bad), bad).toBeDefined();
      expect(() => releaseToVersion(bad)).toThrow();
    }
    for (const bad of ["2026.01120.900", "2026.1120", "26.1120.900", "2026.1320.900", "2026.1120.2400", "2026.11200.1"]) {
      expect(() => versionToRelease(bad), bad).toThrow();
    }
  });
});
