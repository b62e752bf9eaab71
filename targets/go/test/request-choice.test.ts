// The Go clients of two descriptions of test/matrix (a body offering JSON beside both forms; a header parameter
// named User-Agent) sending to a local server, by the Go test program e2e/request_choice_e2e_test.go in a module
// beside them.
import { describe, expect, it } from "vitest";
import { matrixSources } from "../../../test/support/wire.js";
import { goE2eSuite } from "./go-module.js";

const LIMIT = 600_000;
const MODULES: Readonly<Record<string, string>> = {
  "wire2-json-or-form": "example.com/wire2-json-form-sdk-go",
  "wire2-user-agent-param": "example.com/wire2-agent-sdk-go",
};
const PROGRAM = "request_choice_e2e_test.go";

describe("request body media and header parameters on the wire (Go)", () => {
  const suite = goE2eSuite("go-request-choice-", matrixSources(Object.keys(MODULES)), PROGRAM, Object.values(MODULES));

  it(
    "sends a body offering JSON and forms as JSON, and a User-Agent header parameter as the caller gave it",
    async () => {
      const outcome = await suite.goTest();
      expect(outcome.code, outcome.output).toBe(0);
      for (const test of ["TestBodyOfferingJSONAndFormsTravelsAsJSON", "TestUserAgentParameterIsSentAsGiven"]) {
        expect(outcome.output).toContain(`--- PASS: ${test}`);
      }
    },
    LIMIT,
  );
});
