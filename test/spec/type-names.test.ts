// The type names of a description's schemas, and the word on a Swagger 2.0 document: problems at JSON pointers.
import { describe, expect, it } from "vitest";
import { checkDescription } from "../../generator/spec/load.js";
import { SpecError } from "../../generator/spec/problems.js";
import { checkTypeNames } from "../../generator/spec/schema-types.js";

type Json = Record<string, unknown>;

const NAMES_31 = "the type names are array, boolean, integer, null, number, object, string";
const NAMES_30 = "the type names are array, boolean, integer, number, object, string";

function doc(openapi: string, rest: Json): Json {
  return { openapi, info: { title: "t", version: "1" }, ...rest };
}

const lines = (openapi: "3.0" | "3.1", d: Json) => checkTypeNames(d, openapi).map((p) => `${p.pointer}: ${p.message}`);

async function problemsOf(document: Json): Promise<string[]> {
  try {
    await checkDescription({ source: "d.yaml", text: JSON.stringify(document), document });
  } catch (error) {
    expect(error).toBeInstanceOf(SpecError);
    return (error as SpecError).problems.map((p) => `${p.pointer}: ${p.message}`);
  }
  return [];
}

describe("checkTypeNames", () => {
  it("refuses an unknown name as a string and in a list, with the version's names", () => {
    const components = { schemas: { A: { type: "objekt" }, B: { type: ["string", "nul"] } } };
    expect(lines("3.1", doc("3.1.0", { components }))).toEqual([
      `/components/schemas/A/type: unknown type "objekt"; ${NAMES_31}`,
      `/components/schemas/B/type/1: unknown type "nul"; ${NAMES_31}`,
    ]);
    expect(lines("3.0", doc("3.0.3", { components: { schemas: { A: { type: "objekt" } } } }))).toEqual([
      `/components/schemas/A/type: unknown type "objekt"; ${NAMES_30}`,
    ]);
  });

  it("refuses a type that is no string, and in 3.0 a list and null", () => {
    expect(lines("3.1", doc("3.1.0", { components: { schemas: { A: { type: 3 }, B: { type: [{}] } } } }))).toEqual([
      `/components/schemas/A/type: a type name (a string) expected; ${NAMES_31}`,
      `/components/schemas/B/type/0: a type name (a string) expected; ${NAMES_31}`,
    ]);
    expect(lines("3.0", doc("3.0.3", { components: { schemas: { A: { type: ["string", "null"] }, B: { type: "null" } } } }))).toEqual([
      "/components/schemas/A/type: a list of type names is OpenAPI 3.1: in 3.0, type is one name (and nullable: true)",
      `/components/schemas/B/type: unknown type "null"; ${NAMES_30} ("null" is a type of OpenAPI 3.1: in 3.0, say nullable: true)`,
    ]);
  });

  it("reaches every place a description holds schemas", () => {
    const bad = { type: "file" };
    const media = { "application/json": { schema: bad, encoding: { f: { headers: { "X-E": { schema: bad } } } } } };
    const operation = {
      parameters: [
        { name: "q", in: "query", schema: bad },
        { name: "c", in: "query", content: media },
      ],
      requestBody: { content: media },
      responses: { "200": { description: "ok", headers: { "X-H": { schema: bad } }, content: media } },
      callbacks: { done: { "{$request.body#/url}": { post: { requestBody: { content: media } } } } },
    };
    const nested = {
      type: "object",
      properties: { p: bad },
      additionalProperties: bad,
      patternProperties: { "^x": bad },
      items: bad,
      prefixItems: [bad],
      allOf: [bad],
      anyOf: [bad],
      oneOf: [bad],
      not: bad,
      if: bad,
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword, in a plain object nothing awaits
      then: bad,
      else: bad,
      $defs: { d: bad },
      dependentSchemas: { p: bad },
      contains: bad,
      propertyNames: bad,
      unevaluatedItems: bad,
      unevaluatedProperties: bad,
      contentSchema: bad,
    };
    const d = doc("3.1.0", {
      paths: { "/a": { parameters: [{ name: "p", in: "query", schema: bad }], get: operation } },
      webhooks: { hook: { post: { requestBody: { content: media } } } },
      components: {
        schemas: { N: nested },
        parameters: { P: { name: "p", in: "query", schema: bad } },
        headers: { H: { schema: bad } },
        responses: { R: { description: "r", content: media } },
        requestBodies: { B: { content: media } },
        pathItems: { I: { get: { responses: { "200": { description: "ok", content: media } } } } },
        callbacks: { C: { "{$url}": { post: { requestBody: { content: media } } } } },
      },
    });
    const pointers = checkTypeNames(d, "3.1").map((p) => p.pointer);
    // Each schema object is one node, reached once: `bad` is shared, so only its first place is reported.
    expect(pointers).toEqual(["/paths/~1a/parameters/0/schema/type"]);
    // Unshared, every place is reported.
    const copy = JSON.parse(JSON.stringify(d)) as Json;
    const all = checkTypeNames(copy, "3.1").map((p) => p.pointer);
    for (const expected of [
      "/paths/~1a/get/parameters/1/content/application~1json/schema/type",
      "/paths/~1a/get/parameters/1/content/application~1json/encoding/f/headers/X-E/schema/type",
      "/paths/~1a/get/requestBody/content/application~1json/schema/type",
      "/paths/~1a/get/responses/200/headers/X-H/schema/type",
      "/paths/~1a/get/callbacks/done/{$request.body#~1url}/post/requestBody/content/application~1json/schema/type",
      "/webhooks/hook/post/requestBody/content/application~1json/schema/type",
      "/components/schemas/N/properties/p/type",
      "/components/schemas/N/additionalProperties/type",
      "/components/schemas/N/patternProperties/^x/type",
      "/components/schemas/N/items/type",
      "/components/schemas/N/prefixItems/0/type",
      "/components/schemas/N/allOf/0/type",
      "/components/schemas/N/not/type",
      "/components/schemas/N/else/type",
      "/components/schemas/N/$defs/d/type",
      "/components/schemas/N/dependentSchemas/p/type",
      "/components/schemas/N/contentSchema/type",
      "/components/parameters/P/schema/type",
      "/components/headers/H/schema/type",
      "/components/responses/R/content/application~1json/schema/type",
      "/components/requestBodies/B/content/application~1json/schema/type",
      "/components/pathItems/I/get/responses/200/content/application~1json/schema/type",
      "/components/callbacks/C/{$url}/post/requestBody/content/application~1json/schema/type",
    ]) {
      expect(all).toContain(expected);
    }
    // 11 under paths, 2 under webhooks, 19 keywords of N, 10 in the other components.
    expect(all).toHaveLength(42);
  });

  it("takes no data or name for a schema: a property named type, examples, defaults, enums, security schemes, definitions", () => {
    const d = doc("3.1.0", {
      components: {
        schemas: {
          A: {
            type: "object",
            properties: { type: { type: "string", enum: ["objekt"] } },
            example: { type: "objekt" },
            examples: [{ type: "objekt" }],
            default: { type: "objekt" },
            const: { type: "objekt" },
            "x-extra": { type: "objekt" },
            // Not a keyword of JSON Schema 2020-12: codat.io's accounting description keeps other data there.
            definitions: { itemType: { type: { type: "string" } } },
          },
          B: { $ref: "#/components/schemas/A" },
          C: { type: ["string", "null"] },
        },
        securitySchemes: { s: { type: "http", scheme: "bearer" } },
        examples: { e: { value: { type: "objekt" } } },
      },
    });
    expect(checkTypeNames(d, "3.1")).toEqual([]);
  });

  it("leaves a 3.0 reference's siblings alone, as 3.0 ignores them", () => {
    const d = doc("3.0.3", { components: { schemas: { A: { $ref: "#/components/schemas/B", type: "objekt" }, B: { type: "string" } } } });
    expect(checkTypeNames(d, "3.0")).toEqual([]);
  });
});

describe("loading a description", () => {
  it("refuses an unknown type name of 3.1, which its OpenAPI schema check lets through", async () => {
    const d = doc("3.1.0", { paths: {}, components: { schemas: { A: { type: "objekt" } } } });
    expect(await problemsOf(d)).toEqual([`/components/schemas/A/type: unknown type "objekt"; ${NAMES_31}`]);
  });

  it("says a Swagger 2.0 document is one, that 3.0 and 3.1 are read, and how to convert it", async () => {
    const problems = await problemsOf({ swagger: "2.0", info: { title: "t", version: "1" }, paths: {} });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^\/swagger: this is a Swagger 2\.0 description \(swagger: "2\.0"\); only OpenAPI 3\.0 and 3\.1 descriptions are read\. Convert it to OpenAPI 3 first, for example with swagger2openapi .* or the Swagger Editor \(Edit > Convert to OpenAPI 3\)/,
    );
  });

  it("keeps the word on a document that is neither", async () => {
    expect(await problemsOf({ info: { title: "t", version: "1" }, paths: {} })).toEqual([
      '/openapi: OpenAPI 3.0 or 3.1 expected, found "nothing"',
    ]);
    expect(await problemsOf({ openapi: "2.0", swagger: "2.0", paths: {} })).toEqual(['/openapi: OpenAPI 3.0 or 3.1 expected, found "2.0"']);
  });
});
