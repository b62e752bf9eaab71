// The Go clients of two descriptions of test/matrix (a body offering JSON beside both forms; a header parameter
// named User-Agent) sending to a local server, by the Go test program e2e/request_choice_e2e_test.go in a module
// beside them.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matrixSources } from "../../../test/support/wire.js";
import { goTestE2e, writeE2eWorkspace } from "./go-module.js";

const LIMIT = 600_000;
const MODULES: Readonly<Record<string, string>> = {
  "wire2-json-or-form": "example.com/wire2-json-form-sdk-go",
  "wire2-user-agent-param": "example.com/wire2-agent-sdk-go",
};
const PROGRAM = "request_choice_e2e_test.go";

describe("request body media and header parameters on the wire (Go)", () => {
  let base = "";

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "go-request-choice-"));
    await writeE2eWorkspace(base, matrixSources(Object.keys(MODULES)), PROGRAM, Object.values(MODULES));
  }, LIMIT);

  afterAll(async () => {
    if (base !== "") await rm(base, { recursive: true, force: true });
  });

  it(
    "sends a body offering JSON and forms as JSON, and a User-Agent header parameter as the caller gave it",
    async () => {
      const outcome = await goTestE2e(base);
      expect(outcome.code, outcome.output).toBe(0);
      for (const test of ["TestBodyOfferingJSONAndFormsTravelsAsJSON", "TestUserAgentParameterIsSentAsGiven"]) {
        expect(outcome.output).toContain(`--- PASS: ${test}`);
      }
    },
    LIMIT,
  );
});
