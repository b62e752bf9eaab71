import type { OpenAPI3 } from "openapi-typescript";
import { toJsonSchema, toPathItems } from "../../../generator/ir/json-schema.js";
import type { IR } from "../../../generator/ir/types.js";
import type { EmittedFile } from "../../../generator/emit/kit.js";
import type { TsKit } from "./ts-kit.js";
import { openApiTypePieces } from "./openapi-types.js";

/** The OpenAPI 3.1 document that the IR stands for, rebuilt from the IR alone. */
export function irToOpenApi(ir: IR): OpenAPI3 {
  const document = {
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
  return document as unknown as OpenAPI3; // toJsonSchema types its output as plain records
}

/** types.ts: paths, components, webhooks and operations, by openapi-typescript. */
export async function emitTypes(ir: IR, kit: TsKit): Promise<readonly EmittedFile[]> {
  // Between parts, the garbage of the parts printed so far may go (kit.collect decides whether there is enough).
  // toJsonSchema writes no `discriminator` keyword, so the rebuilt document has no discriminator object to scan for.
  const pieces = openApiTypePieces(irToOpenApi(ir), { afterPart: () => kit.collect(), withoutDiscriminators: true });
  // The document the types were made from is garbage now (on MS Graph's description, hundreds of MB): it goes
  // before the text is put together.
  kit.collect();
  return [{ path: "types.ts", content: [kit.fileHeader(ir), "\n", ...pieces].join("") }];
}
