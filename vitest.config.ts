import { defineConfig } from "vitest/config";
import ProgressReporter from "./test/reporters/progress.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "targets/**/test/**/*.test.ts"],
    // Tests that spawn tsx, tsc or python take ten times longer on a loaded 2-core machine than on an idle one; a
    // limit is for hung tests, not slow ones. Timing assertions keep their own margins.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ["default", new ProgressReporter()],
    // The package tests' tarballs build in the background while the other files run.
    globalSetup: ["./test/setup/packages.ts"],
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
