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
    reporter.beat(started + 61_000);
    reporter.onTestRunEnd();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^progress 6[01]s: 1\/3 files done; test\/b\.test\.ts running for 6[01]s, in "compiles > the client"$/);
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
