import openapiTS, { astToString } from "openapi-typescript";
import { toJsonSchema, toPathItems } from "../ir/json-schema.js";
import type { IR } from "../ir/types.js";
import type { EmitKit, EmittedFile } from "./kit.js";

/** The OpenAPI 3.1 document that the IR stands for, rebuilt from the IR alone. */
export function irToOpenApi(ir: IR): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: { title: ir.info.title, version: ir.info.version },
    paths: toPathItems(ir.operations),
    webhooks: Object.fromEntries(
      ir.webhooks.map((w) => [
        w.event,
        {
          post: {
            operationId: w.id,
            ...(w.summary !== undefined && { summary: w.summary }),
            ...(w.description !== undefined && { description: w.description }),
            parameters: w.headers.map((h) => ({ name: h.name, in: h.in, required: h.required, schema: toJsonSchema(h.schema) })),
            requestBody: { required: true, content: { "application/json": { schema: toJsonSchema(w.body) } } },
            responses: { "200": { description: "Delivery accepted." } },
          },
        },
      ]),
    ),
    components: { schemas: Object.fromEntries(ir.schemas.map((s) => [s.name, toJsonSchema(s.schema)])) },
  };
}

/** types.ts: paths, components, webhooks and operations, by openapi-typescript. */
export async function emitTypes(ir: IR, kit: EmitKit): Promise<readonly EmittedFile[]> {
  const ast = await openapiTS(irToOpenApi(ir) as never, {
    alphabetize: false,
    defaultNonNullable: false,
    exportType: false,
    immutable: false,
    silent: true,
  });
  return [{ path: "types.ts", content: `${kit.header(ir, "//")}\n${astToString(ast)}` }];
}
