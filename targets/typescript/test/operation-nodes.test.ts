// The syntax trees of operations.ts (operation-nodes.ts): each case a tiny description and the TypeScript its
// operation's types, request input and function print as.
import { describe, expect, it } from "vitest";
import type { IR, Operation } from "../../../generator/ir/types.js";
import { buildIR } from "../../../generator/ir/build.js";
import { checkDescription } from "../../../generator/spec/load.js";
import {
  billingTypes,
  operationFunctionSpec,
  paramKeys,
  paramsTypeNode,
  pathParamTypeNode,
  requestInput,
  responseTypeNode,
} from "../emit/client/operation-nodes.js";
import { scopes } from "../emit/client/scope.js";
import { tsNames } from "../emit/names.js";
import { printFunction } from "../emit/ts-functions.js";
import { printNode } from "../emit/ts-nodes.js";

const ok = (schema: object) => ({ description: "ok", content: { "application/json": { schema } } });

async function irOf(operation: object, path = "/items/{id}", method = "post"): Promise<{ ir: IR; op: Operation }> {
  const document = {
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    paths: { [path]: { [method]: { operationId: "op", ...operation } } },
  };
  const ir = buildIR(await checkDescription({ source: "t.json", text: JSON.stringify(document), document }));
  return { ir, op: ir.operations[0]! };
}

const idParam = { name: "id", in: "path", required: true, schema: { type: "string" } };

describe("responseTypeNode", () => {
  it.each([
    { case: "one JSON success", responses: { "200": ok({ type: "string" }) }, text: "string" },
    { case: "the same type twice, once", responses: { "200": ok({ type: "string" }), "201": ok({ type: "string" }) }, text: "string" },
    {
      case: "two types, their union",
      responses: { "200": ok({ type: "string" }), "201": ok({ type: "number" }) },
      text: "string | number",
    },
    { case: "no JSON success, unknown", responses: { "204": { description: "none" } }, text: "unknown" },
  ])("$case", async ({ responses, text }) => {
    const { ir, op } = await irOf({ parameters: [idParam], responses });
    expect(printNode(responseTypeNode(op, scopes(ir).response))).toBe(text);
  });
});

describe("pathParamTypeNode and paramsTypeNode", () => {
  it.each([
    { schema: { type: "string" }, text: "string" },
    { schema: { type: "integer" }, text: "number" },
    { schema: { type: "string", nullable: true }, text: "string" },
    { schema: { type: "boolean" }, text: "string | number" },
    { schema: { type: "string", enum: ["a", "b"] }, text: '"a" | "b"' },
  ])("a path parameter of $schema.type is $text", async ({ schema, text }) => {
    const { ir, op } = await irOf({ parameters: [{ ...idParam, schema }], responses: { "200": ok({}) } });
    expect(printNode(pathParamTypeNode(op.parameters.path[0]!.schema, scopes(ir).request))).toBe(text);
  });

  it("puts each parameter under its key with its description", async () => {
    const { ir, op } = await irOf({
      parameters: [idParam, { name: "limit", in: "query", description: "At most this many.", schema: { type: "integer" } }],
      responses: { "200": ok({}) },
    });
    const params = [...op.parameters.path, ...op.parameters.query];
    expect(printNode(paramsTypeNode(params, paramKeys(params), scopes(ir).request)).split("\n")).toEqual([
      "{",
      "  id: string;",
      "  /** At most this many. */",
      "  limit?: number;",
      "}",
    ]);
  });
});

describe("requestInput", () => {
  const body = (required: boolean) => ({ required, content: { "application/json": { schema: { type: "object" } } } });
  it.each([
    { case: "parameters by where they go", requestBody: undefined, optional: false, checked: false, text: "{ path: { id: params.id } }" },
    { case: "optional params read with ?.", requestBody: undefined, optional: true, checked: false, text: "{ path: { id: params?.id } }" },
    {
      case: "a required body as it is",
      requestBody: body(true),
      optional: false,
      checked: false,
      text: "{ path: { id: params.id }, body }",
    },
    {
      case: "an optional body left out when undefined",
      requestBody: body(false),
      optional: false,
      checked: false,
      text: "{ path: { id: params.id }, ...(body === undefined ? {} : { body }) }",
    },
    {
      case: "a checked body as checked",
      requestBody: body(true),
      optional: false,
      checked: true,
      text: "{ path: { id: params.id }, body: checked }",
    },
  ])("$case", async ({ requestBody, optional, checked, text }) => {
    const { op } = await irOf({ parameters: [idParam], ...(requestBody && { requestBody }), responses: { "200": ok({}) } });
    expect(printNode(requestInput(op, paramKeys(op.parameters.path), optional, checked))).toBe(text);
  });
});

describe("operationFunctionSpec", () => {
  it("prints a function that passes its params and body to the runtime, the signature a parameter a line when long", async () => {
    const { ir, op } = await irOf({
      parameters: [idParam],
      // A form body: the runtime's call with every body encoder (a JSON-only body has its own, tested below).
      requestBody: { required: true, content: { "multipart/form-data": { schema: { type: "object" } } } },
      responses: { "200": ok({ type: "string" }) },
    });
    const names = tsNames(ir);
    const spec = operationFunctionSpec(op, {
      names,
      billing: billingTypes("Billing"),
      keys: paramKeys(op.parameters.path),
      check: undefined,
      doc: ["Does it."],
    });
    expect(spec.send).toBe("callOperationWithBody");
    expect(printFunction(spec.function).split("\n")).toEqual([
      "/** Does it. */",
      "export function op(",
      "  client: Runtime<Billing>,",
      "  params: OpParams,",
      "  body: OpBody,",
      "  options?: RequestOptions,",
      "): Promise<ApiResult<OpResponse, Billing>> {",
      "  return callOperationWithBody<OpResponse, Billing>(client, opOperation, { path: { id: params.id }, body }, options);",
      "}",
    ]);
  });

  it("sends a body that can only be JSON with callJsonOperation, and a JSON or form body with callOperationWithBody", async () => {
    const sendOf = async (content: Record<string, { schema: { type: "object" } }>) => {
      const { ir, op } = await irOf({ requestBody: { required: true, content }, responses: { "200": ok({ type: "string" }) } }, "/items");
      return operationFunctionSpec(op, {
        names: tsNames(ir),
        billing: billingTypes(undefined),
        keys: paramKeys([]),
        check: undefined,
        doc: [],
      });
    };
    const json = await sendOf({ "application/json": { schema: { type: "object" } } });
    expect(json.send).toBe("callJsonOperation");
    expect(printFunction(json.function)).toContain("return callJsonOperation<OpResponse>(client, opOperation, { body }, options);");
    // A body offering JSON beside a form is sent as JSON, as in every client (requestBodyContent).
    const either = await sendOf({
      "application/json": { schema: { type: "object" } },
      "application/x-www-form-urlencoded": { schema: { type: "object" } },
    });
    expect(either.send).toBe("callJsonOperation");
    // A form alone may be sent as the other form (options.mediaType): every encoder is needed.
    const form = await sendOf({ "application/x-www-form-urlencoded": { schema: { type: "object" } } });
    expect(form.send).toBe("callOperationWithBody");
  });

  it("calls the body-less function without a body, with no billing type argument when there is none", async () => {
    const { ir, op } = await irOf({ parameters: [idParam], responses: { "200": ok({ type: "string" }) } }, "/items/{id}", "get");
    const spec = operationFunctionSpec(op, {
      names: tsNames(ir),
      billing: billingTypes(undefined),
      keys: paramKeys(op.parameters.path),
      check: undefined,
      doc: [],
    });
    expect(printFunction(spec.function).split("\n")).toEqual([
      "export function op(client: Runtime, params: OpParams, options?: RequestOptions): Promise<ApiResult<OpResponse>> {",
      "  return callOperation<OpResponse>(client, opOperation, { path: { id: params.id } }, options);",
      "}",
    ]);
  });
});
