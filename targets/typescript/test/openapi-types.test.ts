import { createRequire } from "node:module";
import type { OpenAPI3, scanDiscriminators } from "openapi-typescript";
import { describe, expect, it } from "vitest";
import { openApiTypePieces, openApiTypes, openApiTypesByOpenapiTS, PATHS_PER_PART } from "../emit/openapi-types.js";
import { irToOpenApi } from "../emit/types.js";
import { buildIR } from "../../../generator/ir/build.js";
import { loadDescription } from "../../../generator/spec/load.js";
import { currentRelease, releaseFile } from "../../../test/support/service-releases.js";

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
    // As emitTypes prints them: without openapi-typescript's scan for discriminator objects.
    expect(openApiTypes(irToOpenApi(ir), { withoutDiscriminators: true })).toBe(expected);
    // Printed a few paths at a time, as a large description is: the same text, whatever the part's size.
    for (const pathsPerPart of [1, 2, 3]) expect(openApiTypes(irToOpenApi(ir), { pathsPerPart })).toBe(expected);
  });
});

// emitTypes leaves openapi-typescript's scan for discriminator objects out, because the document rebuilt from the
// IR holds none, even where the description states one (the hostile case does).
describe("the document rebuilt from the IR", () => {
  const scan = (document: OpenAPI3) =>
    (
      createRequire(import.meta.url)("openapi-typescript/dist/lib/utils.cjs") as { scanDiscriminators: typeof scanDiscriminators }
    ).scanDiscriminators(document, { silent: true });

  it.each(descriptions)("of %s holds no discriminator object", async (_name, file) => {
    const description = await loadDescription(file);
    const ir = buildIR(description);
    expect(scan(irToOpenApi(ir))).toEqual({ objects: {}, refsHandled: [] });
  });

  it("is told from a description that states one", async () => {
    const description = await loadDescription("test/generator/cases/hostile/openapi.yaml");
    expect(Object.keys(scan(description.document as unknown as OpenAPI3).objects).length).toBeGreaterThan(0);
  });
});

// What openapi-typescript adds at the end of its output, in the order it first adds it: a path without an
// operation id that needs the `WithRequired` helper comes before the first operation, which makes `operations`.
describe("the types of a document whose end holds a helper before the operations", () => {
  const item = (operationId?: string) => ({
    post: {
      ...(operationId !== undefined && { operationId }),
      requestBody: {
        content: { "application/json": { schema: { allOf: [{ $ref: "#/components/schemas/Pet" }], required: ["name"] } } },
      },
      responses: { "204": { description: "Done." } },
    },
  });
  const document = {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: { "/a": item(), "/b": item("b"), "/c": item("c"), "/d": { get: { responses: { "204": { description: "None." } } } } },
    components: { schemas: { Pet: { type: "object", properties: { name: { type: "string" } } } } },
  } as unknown as OpenAPI3;

  it("prints it in parts as openapiTS() prints the whole", async () => {
    const expected = await openApiTypesByOpenapiTS(document);
    expect(expected.indexOf("type WithRequired<")).toBeGreaterThan(0);
    expect(expected.indexOf("type WithRequired<")).toBeLessThan(expected.indexOf("export interface operations"));
    for (const pathsPerPart of [1, 2, 3]) expect(openApiTypes(document, { pathsPerPart })).toBe(expected);
  });

  it("calls afterPart once a part of the paths is printed, and not for a document printed whole", () => {
    const parts: number[] = [];
    let printed = 0;
    const pieces = openApiTypePieces(document, { pathsPerPart: 3, afterPart: () => parts.push(++printed) });
    expect(parts).toEqual([1, 2]);
    expect(pieces.join("")).toBe(openApiTypes(document, { pathsPerPart: 3 }));
    openApiTypePieces(document, { pathsPerPart: 4, afterPart: () => parts.push(-1) });
    expect(parts).toEqual([1, 2]);
  });

  it("prints an empty operations record when no path has an operation id", async () => {
    const paths = { "/a": item(), "/d": document.paths!["/d"] };
    const plain = { ...document, paths } as unknown as OpenAPI3;
    const expected = await openApiTypesByOpenapiTS(plain);
    expect(expected).toContain("export type operations = Record<string, never>;");
    expect(openApiTypes(plain, { pathsPerPart: 1 })).toBe(expected);
  });
});

// GitHub's description: 811 paths, webhooks, helper types at the end; printed in parts of several sizes, the
// default among them (MS Graph's, 11,422 operations, was checked the same way against the whole printed at once).
describe("the types of GitHub's description", () => {
  it("are the text openapiTS() prints, in parts of any size", async () => {
    const ir = buildIR(await loadDescription("node_modules/@octokit/openapi/generated/api.github.com.json"));
    const expected = await openApiTypesByOpenapiTS(irToOpenApi(ir));
    for (const pathsPerPart of [1, 7, PATHS_PER_PART, 500])
      expect(openApiTypes(irToOpenApi(ir), { pathsPerPart, withoutDiscriminators: true })).toBe(expected);
  }, 120_000);
});
