// The Go client of test/matrix's idempotency-key description sending to a local server, by the Go test program
// e2e/idempotency_key_e2e_test.go in a module beside it: one key per call, the same on every retry, the caller's
// as given, a new one for the next call, and the option refused by an operation that takes no key.
import { describe, expect, it } from "vitest";
import { matrixSources } from "../../../test/support/wire.js";
import { goE2eSuite } from "./go-module.js";

const LIMIT = 600_000;
const MODULE = "example.com/wire4-keys-sdk-go";

describe("idempotency keys on the wire (Go)", () => {
  const suite = goE2eSuite("go-idempotency-key-", matrixSources(["idempotency-key"]), "idempotency_key_e2e_test.go", [MODULE]);

  it(
    "sends one key per call on every retry, the caller's as given, and refuses the option without a key",
    async () => {
      const outcome = await suite.goTest();
      expect(outcome.code, outcome.output).toBe(0);
      for (const test of [
        "TestIdempotencyKeyIsOnePerCallAndTheSameOnEveryRetry",
        "TestIdempotencyKeyOfTheCallerIsSentAsGiven",
        "TestIdempotencyKeyIsRefusedByAnOperationWithoutOne",
      ]) {
        expect(outcome.output).toContain(`--- PASS: ${test}`);
      }
    },
    LIMIT,
  );
});
