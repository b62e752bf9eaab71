import { describe, expect, it } from "vitest";
import type { TestCase, TestModule, TestSpecification } from "vitest/node";
import ProgressReporter from "./progress.js";

const module = (id: string) => ({ moduleId: id }) as TestModule;
const testCase = (id: string, fullName: string) => ({ module: module(id), fullName }) as unknown as TestCase;

describe("the progress reporter", () => {
  it("names each running file, how long it has run, its current test and the files done", () => {
    const lines: string[] = [];
    const reporter = new ProgressReporter({ write: (line) => lines.push(line), quiet: false, beatMs: 3_600_000 });
    const started = Date.now();
    reporter.onTestRunStart([{}, {}, {}] as unknown as TestSpecification[]);
    reporter.onTestModuleStart(module(`${process.cwd()}/test/a.test.ts`));
    reporter.onTestModuleStart(module(`${process.cwd()}/test/b.test.ts`));
    reporter.onTestCaseReady(testCase(`${process.cwd()}/test/b.test.ts`, "compiles > the client"));
    reporter.onTestModuleEnd(module(`${process.cwd()}/test/a.test.ts`));
    const ready = Date.now();
    reporter.beat(started + 61_000);
    reporter.onTestRunEnd();
    expect(lines).toHaveLength(1);
    const match = /^progress (\d+)s: 1\/3 files done; test\/b\.test\.ts running for (\d+)s, in "compiles > the client"$/.exec(
      lines[0] ?? "",
    );
    expect(match, lines[0]).not.toBeNull();
    // 61 s after `started`, measured from the reporter's own clock readings, taken between `started` and `ready`
    // (far apart only on a starved machine).
    const least = Math.round((started + 61_000 - ready) / 1000);
    for (const seconds of [Number(match![1]), Number(match![2])]) {
      expect(seconds).toBeGreaterThanOrEqual(least);
      expect(seconds).toBeLessThanOrEqual(61);
    }
  });

  it("stays quiet on a terminal, where the default reporter shows progress live", () => {
    const lines: string[] = [];
    const reporter = new ProgressReporter({ write: (line) => lines.push(line), quiet: true });
    reporter.onTestRunStart([] as unknown as TestSpecification[]);
    reporter.onTestModuleStart(module("x"));
    reporter.onTestRunEnd();
    expect(lines).toEqual([]);
  });
});
