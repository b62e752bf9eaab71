/** The committed changelog section of the two real releases is what the tool prints now. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffReleases, loadRelease } from "../../generator/diff/index.js";
import { releasesDir } from "../support/service-releases.js";
import { makeReport, toMarkdown } from "../../generator/diff/report.js";
import { ROOT } from "./cli.js";

describe("CHANGELOG.md", () => {
  it("holds the section `npm run diff -- R20261120.0900 R20261127.0900 --no-types` prints", async () => {
    const [old, next] = await Promise.all([loadRelease("R20261120.0900", releasesDir), loadRelease("R20261127.0900", releasesDir)]);
    const section = toMarkdown(makeReport(old.id, next.id, diffReleases(old, next)));
    const changelog = await readFile(join(ROOT, "CHANGELOG.md"), "utf8");
    expect(changelog).toContain(section);
  });
});
