import { describe, expect, it } from "vitest";
import { fileFilters, runsPackageTests } from "./packages.js";

const FILES = ["/repo/test/package/bin.test.ts", "/repo/test/package/consumers.test.ts"];

describe("the background build of the package tests' tarballs", () => {
  it("reads the file filters of the command line, without the command and the options", () => {
    expect(fileFilters(["node", "vitest.mjs", "run"])).toEqual([]);
    expect(fileFilters(["node", "vitest.mjs"])).toEqual([]);
    expect(fileFilters(["node", "vitest.mjs", "run", "test/package/bin.test.ts", "--reporter=verbose"])).toEqual([
      "test/package/bin.test.ts",
    ]);
  });

  it("starts for a run of every file or of a package test, not for a run of other files", () => {
    expect(runsPackageTests([], FILES)).toBe(true);
    expect(runsPackageTests(["test/package/bin.test.ts"], FILES)).toBe(true);
    expect(runsPackageTests(["./test/package"], FILES)).toBe(true);
    expect(runsPackageTests(["consumers"], FILES)).toBe(true);
    expect(runsPackageTests(["test/runtime/jobs.test.ts", "test/docs"], FILES)).toBe(false);
  });
});
