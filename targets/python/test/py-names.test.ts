// The Python name planner: every generated name against the package's own names, keywords, the clients' members,
// what method bodies use, and each other; exact names first; deterministic.
import { describe, expect, it } from "vitest";
import { planPythonNames, pyFieldName } from "../emit/names.js";
import { buildIR } from "../../../generator/ir/build.js";
import type { IR } from "../../../generator/ir/types.js";
import { checkDescription } from "../../../generator/spec/load.js";

const ok = { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } };

async function irOf(document: object): Promise<IR> {
  const full = { openapi: "3.1.0", info: { title: "names", version: "1" }, paths: {}, ...document };
  return buildIR(await checkDescription({ source: "names.json", text: JSON.stringify(full), document: full }));
}

const operations = (ids: readonly string[]) => ({
  paths: Object.fromEntries(ids.map((id, i) => [`/p${i}`, { get: { operationId: id, responses: ok } }])),
});

describe("planPythonNames: methods", () => {
  const cases: { given: string[]; want: string[] }[] = [
    // An operationId that is already the method's name keeps it, wherever it stands.
    { given: ["GetItem", "get_item"], want: ["get_item_2", "get_item"] },
    { given: ["listPets", "list_pets"], want: ["list_pets_2", "list_pets"] },
    // The clients' own members are never replaced.
    { given: ["close", "download", "waitJob", "base_url"], want: ["close_2", "download_2", "wait_job_2", "base_url_2"] },
    // Keywords and soft keywords get a trailing underscore.
    { given: ["import", "match", "None"], want: ["import_", "match_", "none"] },
    // Builtins and modules the clients' annotations name (`str | None`, `httpx.Client`) too.
    {
      given: ["list", "str", "object", "tuple", "os", "httpx", "getList"],
      want: ["list_", "str_", "object_", "tuple_", "os_", "httpx_", "get_list"],
    },
  ];
  for (const { given, want } of cases) {
    it(`${given.join(", ")} -> ${want.join(", ")}`, async () => {
      const ir = await irOf(operations(given));
      const names = planPythonNames(ir);
      expect(given.map((id) => names.method(ir.operations.find((o) => o.id === id)!))).toEqual(want);
    });
  }
});

describe("planPythonNames: types", () => {
  const cases: { given: string[]; want: string[] }[] = [
    // Names the types package declares, and keywords that look like type names.
    { given: ["JsonValue", "FileUpload", "WebhookEvent"], want: ["JsonValue2", "FileUpload2", "WebhookEvent2"] },
    { given: ["none", "True", "false"], want: ["NoneType", "TrueType", "FalseType"] },
    // Distinct without regard to case (the modules are split by lowercase prefix).
    { given: ["Pet", "pet"], want: ["Pet", "Pet2"] },
  ];
  for (const { given, want } of cases) {
    it(`${given.join(", ")} -> ${want.join(", ")}`, async () => {
      const schemas = Object.fromEntries(given.map((n) => [n, { type: "object", properties: { a: { type: "string" } } }]));
      const ir = await irOf({ components: { schemas } });
      const names = planPythonNames(ir);
      expect(given.map((n) => names.schemaType(n))).toEqual(want);
      // A later inline type never takes a planned name.
      expect(names.take(want[0]!)).not.toBe(want[0]);
    });
  }
});

describe("planPythonNames: parameters", () => {
  const cases: { given: [string, string][]; want: string[] }[] = [
    // The exact name first, then the one that snake-cases to it.
    {
      given: [
        ["X-Request-Id", "header"],
        ["x_request_id", "query"],
      ],
      want: ["x_request_id_", "x_request_id"],
    },
    // What a method body uses: self, body, deadline, result, the modules the client imports, builtins in casts.
    {
      given: [
        ["self", "query"],
        ["body", "query"],
        ["deadline", "query"],
        ["result", "query"],
        ["httpx", "query"],
        ["list", "query"],
        ["dict", "cookie"],
      ],
      want: ["self_", "body_", "deadline_", "result_", "httpx_", "list_", "dict_"],
    },
    {
      given: [
        ["class", "query"],
        ["__proto__", "query"],
        ["type", "header"],
      ],
      want: ["class_", "proto", "type_"],
    },
  ];
  for (const { given, want } of cases) {
    it(`${given.map(([n]) => n).join(", ")} -> ${want.join(", ")}`, async () => {
      const parameters = given.map(([name, location]) => ({ name, in: location, schema: { type: "string" } }));
      const ir = await irOf({ paths: { "/x": { get: { operationId: "op", parameters, responses: ok } } } });
      const names = planPythonNames(ir);
      const op = ir.operations[0]!;
      const all = [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie];
      expect(given.map(([name, location]) => names.param(op, all.find((p) => p.name === name && p.in === location)!))).toEqual(want);
    });
  }
});

describe("planPythonNames: error classes", () => {
  it.each([
    // A class of the error tree gets `Code` before `Error`, as in every language; another runtime name a number.
    { given: ["SERVICE", "SDK", "DEADLINE_EXCEEDED"], want: ["ServiceCodeError", "SdkError2", "DeadlineExceededError2"] },
    { given: ["NOT_FOUND", "RATE_LIMIT", "CONFLICT"], want: ["NotFoundCodeError", "RateLimitCodeError", "ConflictCodeError"] },
    // In the codes' sorted order.
    { given: ["invalid-request", "INVALID_REQUEST"], want: ["InvalidRequestError2", "InvalidRequestError"] },
    // The same words as every language: a last `error` is not said twice.
    { given: ["INTERNAL_ERROR", "GATEWAY_ERROR"], want: ["InternalError", "GatewayError"] },
  ])("$given -> $want", async ({ given, want }) => {
    const schemas = { ErrorCode: { oneOf: given.map((code) => ({ const: code, "x-http-status": 400 })) } };
    const ir = await irOf({ ...operations(["op"]), components: { schemas } });
    const names = planPythonNames(ir);
    expect(given.map((code) => names.errorClass(code))).toEqual(want);
  });
});

describe("planPythonNames: error classes from the description's words", () => {
  it("splits a run-together word by the description's text, as the TypeScript and Go planners do", async () => {
    const oneOf = [
      { const: "BEARERTOKEN_EXPIRED", "x-http-status": 401, description: "The bearer token expired." },
      { const: "NOTFOUND", "x-http-status": 404, description: "Nothing found." },
    ];
    const ir = await irOf({ ...operations(["op"]), components: { schemas: { ErrorCode: { oneOf } } } });
    const names = planPythonNames(ir);
    expect([names.errorClass("BEARERTOKEN_EXPIRED"), names.errorClass("NOTFOUND")]).toEqual(["BearerTokenExpiredError", "NotfoundError"]);
  });
});

describe("planPythonNames is deterministic", () => {
  it("plans the same names for the same description", async () => {
    const document = operations(["getItem", "get_item", "GetItem", "close"]);
    const [a, b] = [await irOf(document), await irOf(document)];
    const plan = (ir: IR) => ir.operations.map((o) => planPythonNames(ir).method(o));
    expect(plan(a)).toEqual(["get_item_2", "get_item", "get_item2", "close_2"]);
    expect(plan(b)).toEqual(plan(a));
  });
});

describe("pyFieldName", () => {
  it.each([
    // Builtins a model's annotations name, what the models modules import or declare, BaseModel's attributes.
    {
      given: ["list", "str", "dict", "int", "object", "bytes", "tuple"],
      want: ["list_", "str_", "dict_", "int_", "object", "bytes", "tuple"],
    },
    { given: ["Field", "ABSENT", "JsonValue", "TypeAliasType"], want: ["field", "absent", "json_value", "type_alias_type"] },
    { given: ["class", "match", "_t", "model_x"], want: ["class_", "match_", "t", "field_model_x"] },
    // Names nothing in the class uses stay as they are; a key whose name an earlier renamed field took gets a suffix.
    { given: ["Optional", "Any", "name", "list", "list_"], want: ["Optional", "Any", "name", "list_", "list_2"] },
  ])("$given -> $want", ({ given, want }) => {
    const taken = new Set<string>();
    const names = given.map((key) => {
      const name = pyFieldName(key, taken, new Set(["Pet"]));
      taken.add(name);
      return name;
    });
    expect(names).toEqual(want);
    expect(pyFieldName("Pet", new Set(), new Set(["Pet"]))).toBe("pet");
  });
});
