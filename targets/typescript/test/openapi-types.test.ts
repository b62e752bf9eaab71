import { describe, expect, it } from "vitest";
import { openApiTypes, openApiTypesByOpenapiTS } from "../emit/openapi-types.js";
import { irToOpenApi } from "../emit/types.js";
import { buildIR } from "../../../generator/ir/build.js";
import { loadDescription } from "../../../generator/spec/load.js";
import { currentRelease, releaseFile } from "../../../generator/spec/releases.js";

const descriptions: readonly (readonly [string, string])[] = [
  ["the current release", releaseFile(currentRelease())],
  ["the small case", "test/generator/cases/small/openapi.yaml"],
  ["the hostile case", "test/generator/cases/hostile/openapi.yaml"],
];

// types.ts comes from openapi-typescript's transform without openapiTS()'s lint and bundle steps: the text must
// stay what openapiTS() prints, whatever its version.
describe.each(descriptions)("the types of %s", (_name, file) => {
  it("are the text openapiTS() prints", async () => {
    const ir = buildIR(await loadDescription(file));
    const expected = await openApiTypesByOpenapiTS(irToOpenApi(ir));
    expect(openApiTypes(irToOpenApi(ir))).toBe(expected);
  });
});
