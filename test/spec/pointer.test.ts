// The one pointer/$ref module, and the path-parameter check that reports with it.
import { describe, expect, it } from "vitest";
import { checkPathParameters } from "../../generator/spec/path-params.js";
import { componentSchemaName, localRef, pointer, pointerTokens, resolvePointer } from "../../generator/spec/pointer.js";

describe("JSON pointers and local references", () => {
  it.each([
    { given: "#/components/schemas/A", want: ["components", "schemas", "A"] },
    { given: "#/a~1b/c~0d", want: ["a/b", "c~d"] },
    { given: "#/a%20b/%7E1", want: ["a b", "/"] },
    { given: "/a~01", want: ["a~1"] },
    { given: "#", want: [] },
    { given: "other.yaml#/a", want: undefined },
    { given: "#/bad%", want: undefined },
  ])("pointerTokens($given)", ({ given, want }) => {
    expect(pointerTokens(given)).toEqual(want);
  });

  it.each([
    { given: "#/components/schemas/a~1b", want: "a/b" },
    { given: "#/components/schemas/A/properties/x", want: undefined },
    { given: "#/components/parameters/A", want: undefined },
  ])("componentSchemaName($given)", ({ given, want }) => {
    expect(componentSchemaName(given)).toBe(want);
  });

  it.each([{ given: ["components", "schemas", "a/b~c%d"] }, { given: ["paths", "/x/{id}", "get"] }])(
    "localRef($given) reads back as the same tokens",
    ({ given }) => {
      expect(pointerTokens(localRef(...given))).toEqual(given);
    },
  );

  it.each([
    { given: { root: { a: { "b/c": 1 } }, ref: "#/a/b~1c" }, want: 1 },
    { given: { root: { a: [10, 20] }, ref: "/a/1" }, want: 20 },
    { given: { root: {}, ref: "#/constructor" }, want: undefined },
    { given: { root: { a: {} }, ref: "#/a/__proto__" }, want: undefined },
  ])("resolvePointer($given.ref)", ({ given, want }) => {
    expect(resolvePointer(given.root, given.ref)).toBe(want);
  });

  it.each([
    { given: ["paths", "/a/{b}", "get"], want: "/paths/~1a~1{b}/get" },
    { given: ["x~y", 0], want: "/x~0y/0" },
  ])("pointer($given)", ({ given, want }) => {
    expect(pointer(...given)).toBe(want);
  });
});

const ok = { responses: { "200": { description: "ok" } } };
const param = (name: string, extra: object = {}) => ({ name, in: "path", required: true, schema: { type: "string" }, ...extra });

describe("path parameters against the path template", () => {
  it.each([
    { given: { "/a/{id}": { get: { ...ok, parameters: [param("id")] } } }, want: [] },
    {
      given: { "/a/{id}": { parameters: [param("id")], get: ok, post: ok } },
      want: [],
    },
    {
      given: { "/a": { get: { ...ok, parameters: [param("id")] } } },
      want: [{ pointer: "/paths/~1a/get/parameters/0", message: 'path parameter "id" is not in the path template /a' }],
    },
    {
      given: { "/a/{id}": { get: ok } },
      want: [{ pointer: "/paths/~1a~1{id}/get", message: "path template variable {id} of GET /a/{id} has no path parameter" }],
    },
    {
      given: { "/a/{id}": { parameters: [param("other")], get: { ...ok, parameters: [param("id")] } } },
      want: [{ pointer: "/paths/~1a~1{id}/parameters/0", message: 'path parameter "other" is not in the path template /a/{id}' }],
    },
    {
      given: { "/a/{id}": { get: { ...ok, parameters: [{ $ref: "#/components/parameters/Id" }] } } },
      want: [],
    },
    {
      given: { "/a/{id}": { get: { ...ok, parameters: [{ name: "id", in: "query", schema: { type: "string" } }] } } },
      want: [{ pointer: "/paths/~1a~1{id}/get", message: "path template variable {id} of GET /a/{id} has no path parameter" }],
    },
  ])("$given", ({ given, want }) => {
    const document = { openapi: "3.1.0", paths: given, components: { parameters: { Id: param("id") } } };
    expect(checkPathParameters(document)).toEqual(want);
  });
});
