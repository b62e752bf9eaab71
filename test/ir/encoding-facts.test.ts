// The IR's facts for generators of any language: each parameter's serialization (style, explode, allowReserved) with
// OpenAPI's defaults resolved, integral parameters typed integer, the words of every name, and error codes read from
// the field the conventions' envelope names.
import { describe, expect, it } from "vitest";
import { buildIR } from "../../generator/ir/build.js";
import { nameWords } from "../../generator/ir/names.js";
import { loadDescription } from "../../generator/spec/load.js";

async function irOf(yaml: string) {
  const { writeFile, mkdtemp } = await import("node:fs/promises");
  const { join } = await import("node:path");
  const { tmpdir } = await import("node:os");
  const file = join(await mkdtemp(join(tmpdir(), "encoding-facts-")), "openapi.yaml");
  await writeFile(file, yaml);
  return buildIR(await loadDescription(file));
}

const DESCRIPTION = `openapi: 3.1.0
info: { title: Facts, version: 1.0.0 }
paths:
  /items/{itemId}:
    get:
      operationId: listHTTPItems
      parameters:
        - { name: itemId, in: path, required: true, schema: { type: string } }
        - { name: tags, in: query, schema: { type: array, items: { type: string } } }
        - { name: ids, in: query, style: pipeDelimited, explode: false, schema: { type: array, items: { type: integer } } }
        - { name: filter, in: query, style: deepObject, explode: true, schema: { type: object, additionalProperties: { type: string } } }
        - { name: redirect_to, in: query, allowReserved: true, schema: { type: string } }
        - { name: page_size, in: query, schema: { type: integer, minimum: 1 } }
        - { name: X-Trace-ID, in: header, schema: { type: string } }
        - { name: session, in: cookie, schema: { type: string } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/ItemPage" } } } }
        "400":
          description: bad
          content: { application/json: { schema: { type: object, properties: { errorCode: { enum: [BAD_FILTER, TOO_MANY_IDS] }, code: { enum: [NOT_THIS] } } } } }
components:
  schemas:
    ItemPage:
      type: object
      properties:
        next_cursor: { type: string }
        sortOrder: { enum: [created-at, HTTPServer_v2] }
x-paperoffice-conventions:
  envelope: { status: status, success: ok, error: error, code: errorCode, message: message }
`;

describe("parameters say how their values are written", () => {
  it("with OpenAPI's defaults resolved, and as given", async () => {
    const ir = await irOf(DESCRIPTION);
    const op = ir.operations[0]!;
    const facts = Object.fromEntries(
      [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie].map((p) => [
        p.name,
        [p.style, p.explode, p.allowReserved ?? false],
      ]),
    );
    expect(facts).toEqual({
      itemId: ["simple", false, false],
      tags: ["form", true, false],
      ids: ["pipeDelimited", false, false],
      filter: ["deepObject", true, false],
      redirect_to: ["form", true, true],
      page_size: ["form", true, false],
      "X-Trace-ID": ["simple", false, false],
      session: ["form", true, false],
    });
    expect(op.parameters.query.find((p) => p.name === "page_size")?.schema).toMatchObject({ kind: "integer", minimum: 1 });
  });
});

describe("the words of every name", () => {
  it.each([
    ["listPets", ["list", "pets"]],
    ["HTTPServer_v2", ["http", "server", "v2"]],
    ["BEARERTOKEN_EXPIRED", ["bearertoken", "expired"]],
    ["X-Trace-ID", ["x", "trace", "id"]],
    ["file_1", ["file", "1"]],
    ["created-at", ["created", "at"]],
    ["getHTTPSUrl", ["get", "https", "url"]],
    ["---", []],
  ])("%s is %j", (name, words) => {
    expect(nameWords(name)).toEqual(words);
  });

  it("are in the IR for schema, property, parameter, enum, error-code and operation names", async () => {
    const ir = await irOf(DESCRIPTION);
    expect(ir.words).toMatchObject({
      ItemPage: ["item", "page"],
      next_cursor: ["next", "cursor"],
      HTTPServer_v2: ["http", "server", "v2"],
      listHTTPItems: ["list", "http", "items"],
      page_size: ["page", "size"],
      BAD_FILTER: ["bad", "filter"],
    });
    expect(Object.keys(ir.words)).toEqual([...Object.keys(ir.words)].sort());
  });
});

describe("error codes come from the envelope's code field", () => {
  it("the conventions name errorCode: its enum is the response's codes, not a property called code", async () => {
    const ir = await irOf(DESCRIPTION);
    expect(ir.operations[0]!.responses.find((r) => r.status === "400")?.errorCodes).toEqual(["BAD_FILTER", "TOO_MANY_IDS"]);
  });

  it("without conventions, the property code", async () => {
    const ir = await irOf(DESCRIPTION.replace(/^x-paperoffice-conventions:[\s\S]*$/m, ""));
    expect(ir.operations[0]!.responses.find((r) => r.status === "400")?.errorCodes).toEqual(["NOT_THIS"]);
  });
});

describe("a form or multipart body says how its fields are written", () => {
  it("from the description's encoding object, sorted by field; none for JSON", async () => {
    const ir = await irOf(`openapi: 3.1.0
info: { title: Parts, version: 1.0.0 }
paths:
  /upload:
    post:
      operationId: upload
      requestBody:
        content:
          multipart/form-data:
            schema: { type: object, properties: { meta: { type: object }, image: { type: string, format: binary } } }
            encoding: { meta: { contentType: application/json }, image: { contentType: "image/png, image/jpeg" } }
          application/x-www-form-urlencoded:
            schema: { type: object, properties: { tags: { type: array, items: { type: string } } } }
            encoding: { tags: { style: spaceDelimited, explode: false, allowReserved: true } }
          application/json:
            schema: { type: object }
      responses: { "204": { description: done } }
`);
    const contents = ir.operations[0]!.requestBody!.contents;
    expect(contents.map((c) => [c.mediaType, c.fields])).toEqual([
      ["application/json", undefined],
      ["application/x-www-form-urlencoded", [{ name: "tags", style: "spaceDelimited", explode: false, allowReserved: true }]],
      [
        "multipart/form-data",
        [
          { name: "image", contentType: "image/png, image/jpeg" },
          { name: "meta", contentType: "application/json" },
        ],
      ],
    ]);
  });
});

describe("inline enums and objects are named from their place", () => {
  it("by owner and place, unique among themselves and the named schemas", async () => {
    const ir = await irOf(`openapi: 3.1.0
info: { title: Inline, version: 1.0.0 }
paths:
  /pets:
    post:
      operationId: addPet
      parameters: [{ name: sort, in: query, schema: { enum: [asc, desc] } }]
      requestBody:
        content: { application/json: { schema: { type: object, properties: { tags: { type: array, items: { type: object, properties: { label: { type: string } } } } } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } }
components:
  schemas:
    AddPetBody: { type: string }
    Pet:
      type: object
      properties:
        kind: { enum: [cat, dog] }
        owner: { type: object, properties: { name: { type: string } } }
        either: { oneOf: [{ type: object, properties: { a: { type: string } } }, { type: string }] }
`);
    const pet = ir.schemas.find((s) => s.name === "Pet")!.schema;
    expect(pet.kind === "object" ? pet.inlineName : "not an object").toBeUndefined();
    const props = pet.kind === "object" ? Object.fromEntries(pet.properties.map((p) => [p.name, p.schema])) : {};
    expect(props.kind).toMatchObject({ kind: "enum", inlineName: "PetKind" });
    expect(props.owner).toMatchObject({ kind: "object", inlineName: "PetOwner" });
    expect(props.either).toMatchObject({
      kind: "union",
      members: [{ kind: "object", inlineName: "PetEitherOption1" }, { kind: "string" }],
    });
    const op = ir.operations[0]!;
    expect(op.parameters.query[0]!.schema).toMatchObject({ kind: "enum", inlineName: "AddPetSort" });
    // AddPetBody is a named schema's identifier: the body takes the next free name.
    const body = op.requestBody!.contents[0]!.schema;
    expect(body).toMatchObject({ kind: "object", inlineName: "AddPetBody2" });
    expect(body.kind === "object" && body.properties[0]!.schema).toMatchObject({
      kind: "array",
      items: { inlineName: "AddPetBodyTagsItem" },
    });
    expect(op.responses[0]!.contents[0]!.schema).toMatchObject({ kind: "object", inlineName: "AddPetResponse200" });
    expect(ir.words.AddPetResponse200).toEqual(["add", "pet", "response200"]);
  });
});
