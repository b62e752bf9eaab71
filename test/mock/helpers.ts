// Helpers of the mock's tests: the IR and fixtures, request bodies built from fixtures, an independent response
// validator (its own ajv instance over the IR), and a local webhook receiver.
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { toJsonSchema } from "../../generator/ir/json-schema.js";
import type { IR, Operation, Schema } from "../../generator/ir/types.js";
import { mergedView } from "../../mock/schema-view.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export const ir = JSON.parse(readFileSync(new URL("../../generated/ir.json", import.meta.url), "utf8")) as IR;

export interface FixtureCase {
  name: string;
  pipeline?: string;
  variant?: string;
  request: { path: Record<string, string>; query: Record<string, unknown>; mediaType?: string; body?: Record<string, unknown> };
  responses: Record<string, unknown>;
}

export function fixtureCases(operationId: string): FixtureCase[] {
  const file = new URL(`../../generated/fixtures/operations/${operationId}.json`, import.meta.url);
  return (JSON.parse(readFileSync(file, "utf8")) as { cases: FixtureCase[] }).cases;
}

export function operation(id: string): Operation {
  const op = ir.operations.find((o) => o.id === id);
  if (!op) throw new Error(`no operation ${id}`);
  return op;
}

export const TOKEN = "svc_sk_test_0001";
export const auth = (token = TOKEN): Record<string, string> => ({ Authorization: `Bearer ${token}` });

const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
const named = new Map<string, Schema>(ir.schemas.map((s) => [s.name, s.schema]));
// Intersections of closed objects are merged first: as plain allOf they admit no value (see mock/schema-view.ts).
for (const s of ir.schemas) ajv.addSchema(toJsonSchema(mergedView(s.schema, named)), `#/components/schemas/${s.name}`);

/** Errors of a JSON body against the IR schema of an operation's response with that status ([] when valid). */
export function responseErrors(operationId: string, status: number, body: unknown): string[] {
  const response = operation(operationId).responses.find((r) => r.status === String(status));
  const content = response?.contents.find((c) => c.mediaType === "application/json");
  if (!content) return [`${operationId} has no JSON response ${status}`];
  const validate = ajv.compile(toJsonSchema(mergedView(content.schema, named)));
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ""}`);
}

export function schemaErrors(schemaName: string, value: unknown): string[] {
  const validate = ajv.getSchema(`#/components/schemas/${schemaName}`);
  if (!validate) return [`no schema ${schemaName}`];
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ""}`);
}

function isFile(value: unknown): value is { $file: { name: string; contentType: string; text: string } } {
  return typeof value === "object" && value !== null && "$file" in value;
}

/** The JSON-text fields of a variant (decoded values in the fixtures, sent as JSON text). */
export function jsonStringsOf(pipeline: string, variant: string): readonly string[] {
  const p = operation("addJob").variants?.pipelines.find((x) => x.slug === pipeline);
  return p?.variants.find((v) => v.name === variant)?.jsonStrings ?? [];
}

/** A fixture body as the service's form encoding: lists as `name[]`, files as parts, JSON-text fields as JSON. */
export function formOf(body: Record<string, unknown>, jsonStrings: readonly string[] = []): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    if (jsonStrings.includes(name)) form.append(name, JSON.stringify(value));
    else if (isFile(value)) form.append(name, new Blob([value.$file.text], { type: value.$file.contentType }), value.$file.name);
    else if (Array.isArray(value)) {
      for (const item of value) {
        if (isFile(item)) form.append(`${name}[]`, new Blob([item.$file.text], { type: item.$file.contentType }), item.$file.name);
        else form.append(`${name}[]`, typeof item === "string" ? item : JSON.stringify(item));
      }
    } else form.append(name, typeof value === "string" ? value : JSON.stringify(value));
  }
  return form;
}

/** The fixture request body of one variant of addJob. */
export function variantBody(pipeline: string, variant: string): Record<string, unknown> {
  const found = fixtureCases("addJob").find((c) => c.pipeline === pipeline && c.variant === variant);
  if (!found?.request.body) throw new Error(`no fixture for ${pipeline}/${variant}`);
  return structuredClone(found.request.body);
}

export interface JsonAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export async function json(response: Response): Promise<JsonAnswer> {
  const text = await response.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`HTTP ${response.status}: not JSON: ${text.slice(0, 200)}`);
  }
  return { status: response.status, headers: response.headers, body };
}

export async function submit(
  baseUrl: string,
  pipeline: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = auth(),
  jsonStrings: readonly string[] = [],
): Promise<JsonAnswer> {
  return json(await fetch(`${baseUrl}/job/add/${pipeline}`, { method: "POST", headers, body: formOf(body, jsonStrings) }));
}

export async function postJson(
  baseUrl: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = auth(),
): Promise<JsonAnswer> {
  return json(
    await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
}

export async function getJson(baseUrl: string, path: string, headers: Record<string, string> = auth()): Promise<JsonAnswer> {
  return json(await fetch(`${baseUrl}${path}`, { headers }));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls a job until its job_status is neither queued nor running. */
export async function pollUntilDone(
  baseUrl: string,
  jobId: string,
  headers = auth(),
  maxPolls = 200,
): Promise<{ answers: JsonAnswer[]; last: JsonAnswer }> {
  const answers: JsonAnswer[] = [];
  for (let i = 0; i < maxPolls; i++) {
    const answer = await getJson(baseUrl, `/job/get/${jobId}`, headers);
    answers.push(answer);
    const status = answer.body.job_status;
    if (answer.status !== 200 || (status !== "queued" && status !== "running")) return { answers, last: answer };
    await sleep(25);
  }
  throw new Error(`job ${jobId} still running after ${maxPolls} polls`);
}

export interface Delivery {
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
}

export interface Receiver {
  url: string;
  deliveries: Delivery[];
  /** Answers with this status (default 200); a function picks per attempt (0-based). */
  respond: number | ((index: number) => number);
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 that records every delivery with its raw body. */
export async function startReceiver(): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const receiver: Receiver = {
    url: "",
    deliveries,
    respond: 200,
    close: () => Promise.resolve(),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const index = deliveries.length;
      deliveries.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      const status = typeof receiver.respond === "function" ? receiver.respond(index) : receiver.respond;
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(status < 300 ? "ok" : "nope");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return receiver;
}
