import { defineConfig } from "vitest/config";
import ProgressReporter from "./test/reporters/progress.js";
import { QUICK } from "./test/layers.js";

// `npm run test:quick`: the tests that start no child process, in about a minute.
export default defineConfig({
  test: {
    include: QUICK,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    reporters: ["default", new ProgressReporter()],
  },
});
