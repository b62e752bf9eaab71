// The Go clients of the media descriptions of test/matrix (a urlencoded-only write; JSON under */* and
// application/*; a merge-patch body) sending to a local server, by the Go test program e2e/media_e2e_test.go in a module beside them.
import { describe, expect, it } from "vitest";
import { matrixSources } from "../../../test/support/wire.js";
import { goE2eSuite } from "./go-module.js";

const LIMIT = 600_000;
const MODULES: Readonly<Record<string, string>> = {
  "media-form-urlencoded": "example.com/media-form-sdk-go",
  "media-star-json": "example.com/media-star-sdk-go",
  "media-json-suffix": "example.com/media-json-suffix-sdk-go",
};

describe("media types on the wire (Go)", () => {
  const suite = goE2eSuite("go-media-", matrixSources(Object.keys(MODULES)), "media_e2e_test.go", Object.values(MODULES));

  it(
    "sends a urlencoded-only body urlencoded, keeps multipart where both forms are declared, decodes JSON under */*",
    async () => {
      const outcome = await suite.goTest();
      expect(outcome.code, outcome.output).toBe(0);
      for (const test of [
        "TestUrlencodedOnlyBodyTravelsUrlencoded",
        "TestBothFormsKeepMultipart",
        "TestJSONUnderMediaRangesIsDecoded",
        "TestBinaryUnderStarStaysADownload",
        "TestMergePatchTravelsAsItsMediaType",
      ]) {
        expect(outcome.output).toContain(`--- PASS: ${test}`);
      }
    },
    LIMIT,
  );
});
