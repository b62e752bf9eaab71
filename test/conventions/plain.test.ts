// A description without the service's extensions gives a plain client: any binary answer is downloadable, a POST
// that may have reached the server is not sent again (unless marked x-idempotent) and fails with the neutral
// MayHaveBeenProcessedError, errors are read by HTTP status with the parsed body, and the job helpers say plainly
// that this description has none.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, runtimeModuleFor, writeFiles } from "../../generator/generate.js";
import {
  type ApiResult,
  type ClientOptions,
  type Download,
  JobMayExistError,
  MayHaveBeenProcessedError,
  type Runtime,
  SdkError,
  ServiceError,
  type ServiceModel,
} from "../../runtime/index.js";

const DESCRIPTION = `openapi: 3.1.0
info: { title: Plain Files, version: 1.0.0 }
servers: [{ url: "http://127.0.0.1:1/v1" }]
paths:
  /files/{id}:
    get:
      operationId: getFile
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: The file.
          content: { application/pdf: { schema: { type: string, format: binary } } }
        "404":
          description: Not found.
          content: { application/json: { schema: { type: object } } }
  /things:
    post:
      operationId: createThing
      requestBody:
        required: true
        content: { application/json: { schema: { type: object, properties: { name: { type: string } } } } }
      responses:
        "200":
          description: Created.
          content: { application/json: { schema: { type: object } } }
  /things/put:
    post:
      operationId: putThing
      x-idempotent: true
      requestBody:
        required: true
        content: { application/json: { schema: { type: object, properties: { name: { type: string } } } } }
      responses:
        "200":
          description: Stored.
          content: { application/json: { schema: { type: object } } }
`;

interface PlainClient {
  createClient(options: ClientOptions): Runtime;
  getFile(client: Runtime, params: { id: string }, options?: unknown): Promise<Download>;
  createThing(client: Runtime, body: { name?: string }, options?: unknown): Promise<ApiResult<unknown>>;
  putThing(client: Runtime, body: { name?: string }, options?: unknown): Promise<ApiResult<unknown>>;
  serviceModel: ServiceModel;
}

interface Seen {
  method: string;
  url: string;
}

let base: string;
let plain: PlainClient;
let server: Server;
let origin: string;
const seen: Seen[] = [];
let handler: (req: IncomingMessage, res: ServerResponse, index: number) => void = (_req, res) => res.end();

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "conventions-plain-"));
  const source = join(base, "plain.yaml");
  await writeFile(source, DESCRIPTION);
  const out = join(base, "client");
  const { files } = await generate(source, { languages: ["typescript"], outputs: [], runtimeModule: runtimeModuleFor(out) });
  await writeFiles(out, files);
  plain = (await import(pathToFileURL(join(out, "index.ts")).href)) as PlainClient;
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "" });
      handler(req, res, seen.length - 1);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 240_000);

afterAll(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  if (base) await rm(base, { recursive: true, force: true });
});

function client(): Runtime {
  seen.length = 0;
  return plain.createClient({ baseUrl: `${origin}/v1`, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
}

describe("a plain description", () => {
  it("has no conventions and no job operations in its model", () => {
    expect(plain.serviceModel.conventions).toBeUndefined();
    expect(plain.serviceModel.jobs).toBeUndefined();
  });

  it("downloads a binary answer through the operation's own path", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf", "content-disposition": 'attachment; filename="a.pdf"' });
      res.end("%PDF-1.7 plain");
    };
    const file = await plain.getFile(client(), { id: "f 1" });
    expect(file.contentType).toBe("application/pdf");
    expect(file.fileName).toBe("a.pdf");
    expect(await (await file.blob()).text()).toBe("%PDF-1.7 plain");
    expect(seen).toEqual([{ method: "GET", url: "/v1/files/f%201" }]);
  });

  it("maps an error by HTTP status with the parsed body, reading no envelope fields", async () => {
    handler = (_req, res) => json(res, 404, { code: "GONE", message: "no such file", processing_time: "1ms" });
    const error = await plain.getFile(client(), { id: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: 404, body: { code: "GONE", message: "no such file", processing_time: "1ms" } });
    expect((error as ServiceError).code).toBeUndefined();
    expect((error as ServiceError).processingTime).toBeUndefined();
    expect(seen).toHaveLength(1);
  });

  it("never sends a POST that answered 500 again: MayHaveBeenProcessedError, not JobMayExistError", async () => {
    handler = (_req, res) => json(res, 500, { error: "boom" });
    const error = await plain.createThing(client(), { name: "n" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MayHaveBeenProcessedError);
    expect(error).not.toBeInstanceOf(JobMayExistError);
    expect((error as MayHaveBeenProcessedError).status).toBe(500);
    expect((error as Error).message).not.toMatch(/job/i);
    expect((error as Error).cause).toBeInstanceOf(ServiceError);
    expect(seen).toEqual([{ method: "POST", url: "/v1/things" }]);
  });

  it("sends a POST marked x-idempotent again after a 500", async () => {
    handler = (_req, res, index) => (index === 0 ? json(res, 500, { error: "boom" }) : json(res, 200, { stored: true }));
    const result = await plain.putThing(client(), { name: "n" });
    expect(result.data).toEqual({ stored: true });
    expect(result.meta.requestCount).toBe(2);
    expect(result.meta.processingTime).toBeUndefined();
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(["POST /v1/things/put", "POST /v1/things/put"]);
  });

  it("says plainly that job helpers and token downloads are unavailable, sending nothing", async () => {
    const c = client();
    for (const attempt of [() => c.submitJob("any", {}), () => c.startJob("any", {}), () => c.waitJob("j1"), () => c.download("tok")]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SdkError);
      expect((error as Error).message).toMatch(/unavailable.*x-paperoffice-job/);
    }
    expect(seen).toHaveLength(0);
  });
});
