import { readFile } from "node:fs/promises";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parseDescription } from "../../generator/spec/read.js";
import { currentRelease, releaseFile } from "../support/service-releases.js";
import {
  openApi31SchemaCheck,
  schemaProblems,
  schemaProblemsInWorker,
  schemaProblemsWith,
  swaggerParserProblems,
} from "../../generator/spec/schema-check.js";

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
  // An external reference never reaches this check: checkRefs refuses it first (test/spec/validate.test.ts), and
  // swagger-parser is told not to look for one.
  [
    "a reference swagger-parser cannot follow",
    (doc) => {
      doc.paths["/webhooks/list"].get.responses["200"] = { $ref: "#/components/responses/Missing" };
    },
  ],
  // References into schemas are checked where the schema is defined; every other reference is followed, so that
  // what it points at is checked as what its place requires.
  [
    "a parameter that refers to a schema",
    (doc) => {
      doc.paths["/webhooks/list"].get.parameters = [{ $ref: "#/components/schemas/ProcessingTime" }];
    },
  ],
  [
    "a response that refers to a schema",
    (doc) => {
      doc.paths["/webhooks/list"].get.responses["200"] = { $ref: "#/components/schemas/ProcessingTime" };
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

// The built toolchain checks a description's OpenAPI schema with a validator compiled ahead, and calls swagger-parser
// for the rest: the problems must be exactly those of swagger-parser's validate().
describe("the OpenAPI-schema check with the OpenAPI 3.1 schema compiled ahead", () => {
  const compiled = () => {
    const check = openApi31SchemaCheck();
    return new Ajv2020(check.options).compile(check.schema);
  };

  it("finds no problem in the current description, as validate() finds none", async () => {
    const document = await current();
    expect(await swaggerParserProblems(document)).toEqual([]);
    expect(await schemaProblemsWith(document, compiled())).toEqual([]);
  });

  it.each(changes)("finds the problems of %s that validate() finds, and leaves the document as it was", async (_name, change) => {
    const document = await current();
    change(document);
    const before = structuredClone(document);
    const expected = await swaggerParserProblems(document);
    expect(expected.length).toBeGreaterThan(0);
    expect(await schemaProblemsWith(document, compiled())).toEqual(expected);
    expect(document).toEqual(before);
  });

  it("finds what validate() finds with a schema error and a spec error at once, and with circular references", async () => {
    const both = (await current()) as Json;
    both.info.version = 3;
    both.paths["/webhooks/list"].get.responses = "none";
    const circular = (await current()) as Json;
    circular.components.schemas.Node = { type: "object", properties: { next: { $ref: "#/components/schemas/Node" } } };
    const circularBroken = structuredClone(circular);
    circularBroken.paths["/webhooks/list"].get.responses = "none";
    for (const document of [both, circular, circularBroken]) {
      expect(await schemaProblemsWith(document, compiled())).toEqual(await swaggerParserProblems(document));
    }
    expect(await swaggerParserProblems(circular)).toEqual([]);
  });
});
