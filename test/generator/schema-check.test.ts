import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parseDescription } from "../../generator/spec/read.js";
import { currentRelease, releaseFile } from "../../generator/spec/releases.js";
import {
  openApi31SchemaCheck,
  SWAGGER_PARSER_VERSIONS,
  schemaProblems,
  schemaProblemsInWorker,
  swaggerParserProblems,
  swaggerParserSteps,
} from "../../generator/spec/schema-check.js";

const require = createRequire(import.meta.url);

type Doc = Record<string, unknown>;

async function current(): Promise<Doc> {
  const file = releaseFile(currentRelease());
  return parseDescription(file, await readFile(file, "utf8"));
}

// biome-ignore lint/suspicious/noExplicitAny: the changes reach into arbitrary places of a parsed document
type Json = Record<string, any>;
const changes: readonly (readonly [string, (doc: Json) => void])[] = [
  [
    "an OpenAPI-schema violation (ajv's errors)",
    (doc) => {
      doc.paths["/webhooks/list"].get.responses = "none";
    },
  ],
  [
    "a version that is not a string (swagger-parser's own check)",
    (doc) => {
      doc.info.version = 3;
    },
  ],
  [
    "a reference swagger-parser cannot follow",
    (doc) => {
      doc.paths["/webhooks/list"].get.responses["200"] = { $ref: "elsewhere.yaml#/responses/ok" };
    },
  ],
];

// Large descriptions are validated in a worker thread: it must report exactly what the in-thread check does.
describe("the OpenAPI-schema check in a worker thread", () => {
  it("finds no problem in the current description, as in this thread", async () => {
    const document = await current();
    expect(await schemaProblems(document)).toEqual([]);
    expect(await schemaProblemsInWorker(document)).toEqual([]);
  });

  it.each(changes)("finds the problems of %s that this thread finds, and leaves the document as it was", async (_name, change) => {
    const document = await current();
    change(document);
    const before = structuredClone(document);
    const here = await schemaProblems(document);
    expect(here.length).toBeGreaterThan(0);
    expect(await schemaProblemsInWorker(document)).toEqual(here);
    expect(document).toEqual(before);
  });
});

// With the build's validator of the OpenAPI 3.1 schema, the check repeats swagger-parser's validate() step by step.
describe("the OpenAPI-schema check with swagger-parser's schema compiled ahead", () => {
  it("repeats the installed swagger-parser's validate(): a new release needs its steps reviewed", async () => {
    const { version } = JSON.parse(await readFile(require.resolve("@apidevtools/swagger-parser/package.json"), "utf8")) as {
      version: string;
    };
    expect(SWAGGER_PARSER_VERSIONS).toContain(version);
  });

  it("reports exactly what swagger-parser's validate() reports", async () => {
    const check = openApi31SchemaCheck();
    const validate = new Ajv2020(check.options).compile(check.schema);
    const document = await current();
    expect(await swaggerParserSteps(document, validate)).toEqual([]);
    for (const [, change] of changes) {
      const broken = structuredClone(document) as Json;
      change(broken);
      const expected = await swaggerParserProblems(broken);
      expect(expected).not.toEqual([]);
      expect(await swaggerParserSteps(broken, validate)).toEqual(expected);
    }
  });

  it("leaves a description with circular references to validate(), which dereferences it again", async () => {
    const check = openApi31SchemaCheck();
    const document = structuredClone(await current()) as Json;
    document.components.schemas.Node = { type: "object", properties: { next: { $ref: "#/components/schemas/Node" } } };
    expect(await swaggerParserSteps(document, new Ajv2020(check.options).compile(check.schema))).toBeUndefined();
    expect(await schemaProblems(document)).toEqual(await swaggerParserProblems(document));
  });
});
