import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
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

const OPTIONS = { alphabetize: false, defaultNonNullable: false, exportType: false, immutable: false, silent: true } as const;

// openapi-typescript is the longest emitter; in a worker thread it runs beside the others instead of before them.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
import(workerData.module)
  .then(async (m) => {
    const api = typeof m.default === "function" ? m : m.default; // the CommonJS build, seen through import()
    parentPort.postMessage({ text: api.astToString(await api.default(workerData.document, workerData.options)) });
  })
  .catch((error) => parentPort.postMessage({ error: String((error && error.message) || error) }));
`;

function typesInWorker(document: Record<string, unknown>): Promise<string> {
  const module = pathToFileURL(createRequire(import.meta.url).resolve("openapi-typescript")).href;
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { module, document, options: OPTIONS } });
    worker.once("message", (message: { text?: string; error?: string }) => {
      void worker.terminate();
      if (message.text !== undefined) resolve(message.text);
      else reject(new Error(`openapi-typescript: ${message.error ?? "no output"}`));
    });
    worker.once("error", reject);
  });
}

/** types.ts: paths, components, webhooks and operations, by openapi-typescript. */
export async function emitTypes(ir: IR, kit: EmitKit): Promise<readonly EmittedFile[]> {
  const document = irToOpenApi(ir);
  // A worker costs its start-up; it pays off only when there is much to generate.
  const text = ir.operations.length >= 100 ? await typesInWorker(document) : astToString(await openapiTS(document as never, OPTIONS));
  return [{ path: "types.ts", content: `${kit.header(ir, "//")}\n${text}` }];
}
