// The Go client of test/matrix's wire3-fragment-path.yaml (path keys that differ by a #fragment only) sending to a
// local server, by the Go test program e2e/fragment_e2e_test.go in a module beside it.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../scripts/setup/go-tools.mjs";
import { goE2eSuite } from "./go-module.js";

const LIMIT = 600_000;
const DESCRIPTION = join(REPO_ROOT, "test", "matrix", "descriptions", "wire3-fragment-path.yaml");
const MODULE = "example.com/wire3-fragment-sdk-go";

describe("path keys with a #fragment on the wire (Go)", () => {
  const suite = goE2eSuite("go-fragment-", { fragment: DESCRIPTION }, "fragment_e2e_test.go", [MODULE]);

  it(
    "sends the path before `#` with the query after it, for two operations that share it and one with a path parameter",
    async () => {
      const outcome = await suite.goTest();
      expect(outcome.code, outcome.output).toBe(0);
      expect(outcome.output).toContain("--- PASS: TestFragmentPathIsSentWithoutItsFragment");
    },
    LIMIT,
  );
});
