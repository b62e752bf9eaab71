import { defineConfig } from "vitest/config";
import ProgressReporter from "./test/reporters/progress.js";
import { CONTRACT } from "./test/layers.js";

// One project per area (the core, each target, the mock, the behaviour suite, the packages), and the contract
// tests against large public descriptions in their own project, which `npm run test:contract` runs. `npm test`
// runs every project but that one; `npm run test:quick` (vitest.quick.config.ts) runs the files in QUICK, which
// start no child process.
const area = (name: string, include: string[], extra: Record<string, unknown> = {}) => ({
  extends: true as const,
  test: { name, include, exclude: CONTRACT, ...extra },
});

export default defineConfig({
  test: {
    // Tests that spawn tsx, tsc or python take ten times longer on a loaded 2-core machine than on an idle one; a
    // limit is for hung tests, not slow ones. Timing assertions keep their own margins.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Most files wait on a child process (tsc, python, go, npm) more than they compute: more files at once than
    // cores keeps both cores busy. Vitest's default on a 2-core machine is one file at a time.
    maxWorkers: 3,
    reporters: ["default", new ProgressReporter()],
    projects: [
      area(
        "core",
        [
          "test/architecture/**/*.test.ts",
          "test/conventions/**/*.test.ts",
          "test/diff/**/*.test.ts",
          "test/docs/**/*.test.ts",
          "test/generator/**/*.test.ts",
          "test/hostile/**/*.test.ts",
          "test/ir/**/*.test.ts",
          "test/reporters/**/*.test.ts",
          "test/spec/**/*.test.ts",
        ],
        { typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" } },
      ),
      area("typescript", ["targets/typescript/test/**/*.test.ts"]),
      area("python", ["targets/python/test/**/*.test.ts"]),
      area("go", ["targets/go/test/**/*.test.ts"]),
      area("mcp", ["targets/mcp/test/**/*.test.ts"]),
      area("mock", ["test/mock/**/*.test.ts", "test/mock-prism/**/*.test.ts"]),
      area("behaviour", ["test/behaviour/**/*.test.ts"]),
      // Every tiny description of test/matrix/descriptions generated in every language and compiled or imported.
      area("matrix", ["test/matrix/**/*.test.ts"]),
      // The package tests' tarballs build in the background while the other files run.
      area("packages", ["test/package/**/*.test.ts", "test/setup/**/*.test.ts", "test/browser/**/*.test.ts"], {
        globalSetup: ["./test/setup/packages.ts"],
      }),
      { extends: true, test: { name: "contract", include: CONTRACT } },
    ],
  },
});
