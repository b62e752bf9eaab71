import { describe, expect, it } from "vitest";
import { emitOperations } from "../emit/client/operations.js";
import { createKit } from "../../../generator/emit/kit.js";
import { tsKit } from "../emit/ts-kit.js";
import { buildIR } from "../../../generator/ir/build.js";
import { checkDescription } from "../../../generator/spec/load.js";

// Shapes found in Kubernetes' description that public descriptions may have and ours does not.
const document = {
  openapi: "3.0.3",
  info: { title: "shapes", version: "1" },
  paths: {
    "/pods/{path}/proxy": {
      get: {
        operationId: "proxy",
        parameters: [
          { name: "path", in: "path", required: true, schema: { type: "string" } },
          { name: "path", in: "query", description: "The URL path to proxy.", schema: { type: "string" } },
        ],
        responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "string" } } } } },
      },
    },
    "/namespaces": {
      post: {
        operationId: "createNamespace",
        parameters: [{ name: "dryRun", in: "query", schema: { type: "string" } }],
        requestBody: { required: true, content: { "application/json": { schema: { type: "object" } } } },
        responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
      },
    },
  },
};

async function operationsTs(): Promise<string> {
  const ir = buildIR(await checkDescription({ source: "shapes.json", text: JSON.stringify(document), document }));
  const [file] = await emitOperations(ir, tsKit(createKit()));
  return file!.content;
}

describe("operation functions", () => {
  it("keep a path and a query parameter of the same name apart, the later one with a trailing _", async () => {
    const text = await operationsTs();
    expect(text).toMatch(/path: string;\s+\/\*\*\s+(\*\s+)?The URL path to proxy\.\s+\*\/\s+path_\?: string;/);
    expect(text).toContain("{ path: { path: params.path }, query: { path: params.path_ } }");
  });

  it("take the params as required when a required body follows them, even if every parameter is optional", async () => {
    const text = await operationsTs();
    // The signature is longer than a line: a parameter a line.
    expect(text).toContain(
      "createNamespace(\n  client: Runtime,\n  params: CreateNamespaceParams,\n  body: CreateNamespaceBody,\n  options?: RequestOptions,\n)",
    );
    expect(text).toContain("{ query: { dryRun: params.dryRun }, body }");
  });
});
