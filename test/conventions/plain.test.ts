// A description without the service's extensions gives a plain client: any binary answer is downloadable, a POST
// that may have reached the server is not sent again (unless marked x-idempotent) and fails with the neutral
// MayHaveBeenProcessedError, errors are read by HTTP status with the parsed body, and the job helpers say plainly
// that this description has none.
// A small pet store without extensions (descriptions/petstore.yaml) gives a client whose base address comes from its
// servers and whose credentials follow its security schemes and each operation's requirements.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { generate, writeFiles } from "../../generator/generate.js";
import { withLocalRuntime } from "../../targets/typescript/local-runtime.js";
import {
  type ApiResult,
  type BillingData,
  type ClientOptions,
  type Download,
  downloadFile,
  JobMayExistError,
  MayHaveBeenProcessedError,
  MissingCredentialsError,
  type RequestOptions,
  type Runtime,
  SdkError,
  ServiceError,
  type ServiceModel,
} from "../../targets/typescript/runtime/index.js";
import { ANYWHERE_FROM_LENGTH, redactSecrets } from "../../targets/typescript/runtime/redact.js";
import { userAgentOf } from "../../targets/typescript/runtime/user-agent.js";

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
  const { files } = await generate(source, { languages: ["typescript"], outputs: [], ...withLocalRuntime(out) });
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

  it("has no job helpers at all, and says plainly that token downloads are unavailable, sending nothing", async () => {
    const c = client();
    for (const helper of ["submitJob", "startJob", "waitJob", "priceJob"]) expect(helper in c, helper).toBe(false);
    const error = await downloadFile(c, "tok").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect((error as Error).message).toMatch(/unavailable.*x-paperoffice-job/);
    expect(seen).toHaveLength(0);
  });

  it("generates a client whose createClient returns the plain Runtime, without job functions", async () => {
    const index = await readFile(join(base, "client", "index.ts"), "utf8");
    expect(index).toMatch(/createClient\(options: ClientOptions = \{\}\): Runtime</);
    expect(index).not.toContain("JobRuntime");
    // Its index re-exports no runtime name of jobs or subscriptions: the SDK surface of what it has.
    expect(index).not.toMatch(/\b(JobHandle|JobOptions|JobResult|JobFailedError|JobMayExistError|SubscriptionCheckError)\b/);
    expect(index).toMatch(/\bServiceError\b/);
    const operations = await readFile(join(base, "client", "operations.ts"), "utf8");
    expect(operations).not.toMatch(/JobRuntime|submitJob|startJob|priceJob/);
  });
});

const here = fileURLToPath(new URL("./", import.meta.url));

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type NoParameters = { query?: never; header?: never; path?: never; cookie?: never };
/** The part of the generated `paths` type this file calls through client.openapi, as openapi-typescript writes it. */
interface PetPaths {
  "/store/inventory": {
    parameters: NoParameters;
    get: {
      parameters: NoParameters;
      requestBody?: never;
      responses: { 200: { headers: { [name: string]: unknown }; content: { "application/json": { [status: string]: number } } } };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}

/** The generated client's exports this file calls. */
interface PetStore {
  createClient(options?: ClientOptions): Runtime<BillingData, PetPaths>;
  listPets(client: Runtime, params?: { limit?: number }, options?: RequestOptions): Promise<ApiResult<unknown>>;
  createPet(client: Runtime, body: { id: number; name: string }, options?: RequestOptions): Promise<ApiResult<unknown>>;
  getPet(client: Runtime, params: { petId: number }, options?: RequestOptions): Promise<ApiResult<unknown>>;
  deletePet(client: Runtime, params: { petId: number }, options?: RequestOptions): Promise<ApiResult<unknown>>;
  getInventory(client: Runtime, options?: RequestOptions): Promise<ApiResult<unknown>>;
  getSession(client: Runtime, options?: RequestOptions): Promise<ApiResult<unknown>>;
  listOrders(client: Runtime, options?: RequestOptions): Promise<ApiResult<unknown>>;
  getFeatured(client: Runtime, options?: RequestOptions): Promise<ApiResult<unknown>>;
}

describe("a pet store without extensions", () => {
  let petBase: string;
  let petServer: Server;
  let port: number;
  let sdk: PetStore;
  let received: Received[] = [];
  let answer: (req: Received) => { status: number; body?: unknown; headers?: Record<string, string> } = () => ({ status: 200, body: [] });

  beforeAll(async () => {
    petServer = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const r = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString() };
        received.push(r);
        const { status, body, headers } = answer(r);
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(body === undefined ? "" : JSON.stringify(body));
      });
    });
    await new Promise<void>((ok) => petServer.listen(0, "127.0.0.1", ok));
    port = (petServer.address() as AddressInfo).port;
    petBase = await mkdtemp(join(tmpdir(), "plain-"));
    await writeFile(join(petBase, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
    // The server's port is the default of its `port` variable, so the default base address reaches this server.
    const text = (await readFile(join(here, "descriptions", "petstore.yaml"), "utf8")).replace("__PORT__", String(port));
    await writeFile(join(petBase, "petstore.yaml"), text);
    const out = join(petBase, "out");
    const generation = await generate(join(petBase, "petstore.yaml"), {
      languages: ["typescript"],
      outputs: [],
      ...withLocalRuntime(out),
    });
    await writeFiles(out, generation.files);
    sdk = (await import(join(out, "index.ts"))) as PetStore;
  }, 120_000);

  afterAll(async () => {
    await new Promise((ok) => petServer?.close(ok));
    if (petBase) await rm(petBase, { recursive: true, force: true });
  });

  beforeEach(() => {
    received = [];
    answer = () => ({ status: 200, body: [] });
  });

  describe("base address", () => {
    it("defaults to the first server with its variables' defaults, and needs no token without security", async () => {
      const client = sdk.createClient();
      const result = await sdk.listPets(client, { limit: 2 });
      expect(result.meta.status).toBe(200);
      expect(received.map((r) => `${r.method} ${r.url}`)).toEqual(["GET /api/v1/pets?limit=2"]);
      expect(received[0]?.headers.authorization).toBeUndefined();
    });

    it("takes server variables and an explicit baseUrl", async () => {
      await sdk.listPets(sdk.createClient({ serverVariables: { version: "v2" } }));
      await sdk.listPets(sdk.createClient({ baseUrl: `http://127.0.0.1:${port}/other/` }));
      expect(received.map((r) => r.url)).toEqual(["/api/v2/pets", "/other/pets"]);
    });

    it("defaults the base address and the token to the environment variables the README names", async () => {
      const env = process.env;
      const before = { base: env.TINY_PET_STORE_BASE_URL, token: env.TINY_PET_STORE_TOKEN };
      env.TINY_PET_STORE_BASE_URL = `http://127.0.0.1:${port}/from-env`;
      env.TINY_PET_STORE_TOKEN = "env-token-1";
      try {
        await sdk.createPet(sdk.createClient(), { id: 2, name: "Tom" });
        // An option wins over the environment.
        await sdk.createPet(sdk.createClient({ baseUrl: `http://127.0.0.1:${port}/given`, token: "given-1" }), { id: 2, name: "Tom" });
      } finally {
        for (const [name, value] of [
          ["TINY_PET_STORE_BASE_URL", before.base],
          ["TINY_PET_STORE_TOKEN", before.token],
        ] as const) {
          if (value === undefined) delete env[name];
          else env[name] = value;
        }
      }
      expect(received.map((r) => [r.url, r.headers.authorization])).toEqual([
        ["/from-env/pets", "Bearer env-token-1"],
        ["/given/pets", "Bearer given-1"],
      ]);
    });

    it.each<{ options: ClientOptions; message: RegExp }>([
      { options: { serverVariables: { version: "v3" } }, message: /options\.serverVariables\.version must be one of "v1", "v2", got "v3"/ },
      {
        options: { serverVariables: { region: "eu" } },
        message: /options\.serverVariables\.region: the server .* has only host, port, version/,
      },
      {
        options: { baseUrl: "127.0.0.1/api" },
        message: /baseUrl must be an absolute http\(s\) address.*options\.baseUrl gives "127\.0\.0\.1\/api"/,
      },
      { options: { baseUrl: "ftp://127.0.0.1/api" }, message: /baseUrl must be an absolute http\(s\) address/ },
      { options: { baseUrl: "http://127.0.0.1/api?x=1" }, message: /without query or fragment/ },
    ])("refuses $options with an error naming the option", ({ options, message }) => {
      expect(() => sdk.createClient(options)).toThrow(SdkError);
      expect(() => sdk.createClient(options)).toThrow(message);
    });
  });

  describe("credentials from the security schemes", () => {
    it("sends an API key in a header, a query parameter or a cookie, as each operation's scheme says", async () => {
      answer = () => ({ status: 200, body: {} });
      const client = sdk.createClient({ apiKey: "k-1 2" });
      await sdk.getPet(client, { petId: 7 });
      await sdk.getInventory(client);
      await sdk.getSession(client, { headers: { Cookie: "theme=dark" } });
      expect(received[0]?.headers["x-api-key"]).toBe("k-1 2");
      expect(received[0]?.headers.authorization).toBeUndefined();
      expect(received[1]?.url).toBe("/api/v1/store/inventory?api_key=k-1%202");
      expect(received[1]?.headers["x-api-key"]).toBeUndefined();
      expect(received[2]?.headers.cookie).toBe("theme=dark; session_key=k-1%202");
    });

    it("sends HTTP basic credentials and a bearer token where the operation asks for them", async () => {
      answer = (r) => (r.method === "POST" ? { status: 201, body: { id: 1, name: "Rex" } } : { status: 204 });
      const client = sdk.createClient({ username: "ann", password: "pä:ss", token: "tok-123" });
      await sdk.deletePet(client, { petId: 1 });
      await sdk.createPet(client, { id: 1, name: "Rex" });
      expect(received[0]?.headers.authorization).toBe(`Basic ${Buffer.from("ann:pä:ss").toString("base64")}`);
      expect(received[1]?.headers.authorization).toBe("Bearer tok-123");
      expect(JSON.parse(received[1]?.body ?? "null")).toEqual({ id: 1, name: "Rex" });
    });

    it("uses the first alternative the client has credentials for, and optional security only when given", async () => {
      await sdk.listOrders(sdk.createClient({ token: "tok-1" }));
      await sdk.listOrders(sdk.createClient({ token: "tok-1", apiKey: "key-1" }));
      await sdk.getFeatured(sdk.createClient());
      await sdk.getFeatured(sdk.createClient({ token: "tok-2" }));
      expect(received.map((r) => [r.headers.authorization, r.headers["x-api-key"]])).toEqual([
        ["Bearer tok-1", undefined],
        [undefined, "key-1"],
        [undefined, undefined],
        ["Bearer tok-2", undefined],
      ]);
    });

    it("lets the token stand in for an API key when no apiKey is given", async () => {
      answer = () => ({ status: 200, body: {} });
      await sdk.getPet(sdk.createClient({ token: "tok-3" }), { petId: 1 });
      expect(received[0]?.headers["x-api-key"]).toBe("tok-3");
    });

    it("client.openapi sends the credentials of the first scheme (by name) the client has, in the query too", async () => {
      answer = () => ({ status: 200, body: { available: 3 } });
      const { data } = await sdk.createClient({ token: "tok-9" }).openapi.GET("/store/inventory");
      expect(data).toEqual({ available: 3 });
      expect(received[0]?.url).toBe("/api/v1/store/inventory");
      expect(received[0]?.headers.authorization).toBe("Bearer tok-9");
      expect(received[0]?.headers["user-agent"]).toBe("tiny-pet-store-sdk-typescript/1.2.0");
      await sdk.createClient({ credentials: { keyQuery: "q&1" } }).openapi.GET("/store/inventory");
      expect(received[1]?.url).toBe("/api/v1/store/inventory?api_key=q%261");
      expect(received[1]?.headers.authorization).toBeUndefined();
    });

    it("takes credentials by scheme name, over the general ones", async () => {
      answer = () => ({ status: 200, body: {} });
      await sdk.getPet(sdk.createClient({ apiKey: "general", credentials: { keyHeader: "special" } }), { petId: 1 });
      expect(received[0]?.headers["x-api-key"]).toBe("special");
    });

    it("names the operation and the scheme when a credential is missing, and sends nothing", async () => {
      const client = sdk.createClient();
      const error = await sdk.getPet(client, { petId: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MissingCredentialsError);
      expect((error as Error).message).toMatch(
        /^getPet needs credentials: security scheme "keyHeader" \(API key in header "X-Api-Key": pass options\.apiKey/,
      );
      const either = await sdk.listOrders(client).catch((e: unknown) => e);
      expect((either as Error).message).toMatch(
        /^listOrders needs credentials: one of security scheme "keyHeader" .*; or security scheme "bearerAuth" \(bearer token: pass options\.token/,
      );
      const basic = await sdk.deletePet(client, { petId: 1 }).catch((e: unknown) => e);
      expect((basic as Error).message).toMatch(/pass options\.username and options\.password/);
      expect(received).toEqual([]);
    });

    it("refuses half of the basic credentials when the client is created", () => {
      expect(() => sdk.createClient({ username: "ann" })).toThrow(/options\.username and options\.password go together/);
    });
  });

  describe("User-Agent", () => {
    it("names the description's title and version", async () => {
      await sdk.listPets(sdk.createClient({ userAgentSuffix: "my-app/2.1" }));
      expect(received[0]?.headers["user-agent"]).toBe("tiny-pet-store-sdk-typescript/1.2.0 my-app/2.1");
    });

    it.each<{ title: string | undefined; release: string; suffix?: string; want: string }>([
      { title: "Café Orders API", release: "2.0.0-beta.1", want: "cafe-orders-api-sdk-typescript/2.0.0-beta.1" },
      { title: "API (v2) / Ünïcode ✓", release: "v2", want: "api-v2-unicode-sdk-typescript/v2" },
      { title: "日本語", release: "1.0", want: "api-sdk-typescript/1.0" },
      { title: undefined, release: "R1 beta", want: "api-sdk-typescript/R1-beta" },
      { title: "Shop", release: "1", suffix: "app/1 ✓\r\nX-Evil: 1", want: "shop-sdk-typescript/1 app/1 ?X-Evil: 1" },
    ])("$title $release gives $want", ({ title, release, suffix, want }) => {
      const ua = userAgentOf({ release, descriptionHash: "", errors: {}, pipelines: {}, ...(title !== undefined && { title }) }, suffix);
      expect(ua).toBe(want);
      expect(ua).toMatch(/^[\x20-\x7e]+$/);
      // A header fetch accepts.
      expect(() => new Headers({ "user-agent": ua })).not.toThrow();
    });
  });

  describe("redaction", () => {
    const long = "sk-live-0123456789abcdef";
    it.each<{ text: string; secrets: string[]; want: string }>([
      { text: "no pet", secrets: ["t"], want: "no pet" },
      { text: "t", secrets: ["t"], want: "[redacted]" },
      { text: "token t is invalid", secrets: ["t"], want: "token [redacted] is invalid" },
      { text: "key=t&next=1", secrets: ["t"], want: "key=[redacted]&next=1" },
      { text: '{"token":"t"}', secrets: ["t"], want: '{"token":"[redacted]"}' },
      { text: "the pet store", secrets: ["pet"], want: "the [redacted] store" },
      { text: "petstore, carpet, pets", secrets: ["pet"], want: "petstore, carpet, pets" },
      { text: "user_abc1 and abc1", secrets: ["abc1"], want: "user_abc1 and [redacted]" },
      { text: "Größe größer", secrets: ["ße"], want: "Größe größer" },
      { text: `x${long}y and ${long}`, secrets: [long], want: "x[redacted]y and [redacted]" },
      { text: "Authorization: Bearer abc.def-123", secrets: [], want: "Authorization: Bearer [redacted]" },
      { text: "a bearer of bad news, bearer authentication", secrets: [], want: "a bearer of bad news, bearer authentication" },
      { text: "pass%20word and pass word", secrets: ["pass word", "pass%20word"], want: "[redacted] and [redacted]" },
    ])("$secrets in $text", ({ text, secrets, want }) => {
      expect(redactSecrets(text, secrets, undefined)).toBe(want);
    });

    it("redacts branded tokens only where the description states token kinds", () => {
      expect(redactSecrets("got svc_sk_abc", [], "svc_(?:sk_|pk_)[A-Za-z0-9._~-]+")).toBe("got [redacted]");
      expect(redactSecrets("got svc_sk_abc", [], undefined)).toBe("got svc_sk_abc");
      expect(ANYWHERE_FROM_LENGTH).toBeGreaterThanOrEqual(8);
    });

    it("leaves the server's message whole with a one-letter token, and keeps the token out of the error", async () => {
      answer = () => ({ status: 404, body: { message: "no pet with id t" } });
      const error = await sdk.getPet(sdk.createClient({ apiKey: "t" }), { petId: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceError);
      expect((error as ServiceError).body).toEqual({ message: "no pet with id [redacted]" });
    });

    it("redacts API keys sent in the query, basic credentials and passwords from errors", async () => {
      const key = "key with spaces&=";
      answer = (r) => ({ status: 400, body: { message: `bad ${r.url} ${r.headers.authorization ?? ""}` } });
      const byQuery = await sdk.getInventory(sdk.createClient({ apiKey: key })).catch((e: unknown) => e);
      const byBasic = await sdk
        .deletePet(sdk.createClient({ username: "ann", password: "hunter2" }), { petId: 1 })
        .catch((e: unknown) => e);
      const texts = [byQuery, byBasic].map((e) => `${(e as Error).message} ${JSON.stringify((e as ServiceError).body)}`);
      expect(texts[0]).toContain("api_key=[redacted]");
      expect(texts[0]).not.toContain(encodeURIComponent(key));
      expect(texts[1]).toContain("Basic [redacted]");
      expect(texts[1]).not.toContain(Buffer.from("ann:hunter2").toString("base64"));
    });
  });

  describe("per-request options", () => {
    it("maxRetries for one call, over the client's", async () => {
      answer = () => ({ status: 503, body: { message: "busy" } });
      const client = sdk.createClient({ retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 2 } });
      await expect(sdk.listPets(client, {}, { maxRetries: 0 })).rejects.toBeInstanceOf(ServiceError);
      expect(received).toHaveLength(1);
      await expect(sdk.listPets(client, {}, { maxRetries: 1 })).rejects.toBeInstanceOf(ServiceError);
      expect(received).toHaveLength(3);
      await expect(sdk.listPets(client)).rejects.toBeInstanceOf(ServiceError);
      expect(received).toHaveLength(7);
      await expect(sdk.listPets(client, {}, { maxRetries: -1 })).rejects.toThrow(/maxRetries must be a whole number/);
    });

    it("timeout ends a call whose answer does not come in time", async () => {
      const { DeadlineExceededError } = await import("../../targets/typescript/runtime/index.js");
      const slow = createServer((_req, res) => {
        setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end("[]"), 5_000).unref();
      });
      await new Promise<void>((ok) => slow.listen(0, "127.0.0.1", ok));
      try {
        const client = sdk.createClient({ baseUrl: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/api/v1` });
        const started = Date.now();
        const error = await sdk.listPets(client, {}, { timeout: 300, maxRetries: 0 }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DeadlineExceededError);
        // Well before the server's answer at 5 s, on a busy machine too.
        expect(Date.now() - started).toBeLessThan(4_000);
        await expect(sdk.listPets(client, {}, { timeout: 0 })).rejects.toThrow(/timeout must be a positive number/);
      } finally {
        slow.closeAllConnections();
        await new Promise((ok) => slow.close(ok));
      }
    });

    it("headers for one call, and a signal that aborts it", async () => {
      const { AbortedError } = await import("../../targets/typescript/runtime/index.js");
      const client = sdk.createClient({ apiKey: "k" });
      await sdk.listPets(client, {}, { headers: { "X-Request-Id": "r-1" } });
      // The credential wins over a caller header of the same name.
      answer = () => ({ status: 200, body: {} });
      await sdk.getPet(client, { petId: 1 }, { headers: { "x-api-key": "other" } });
      expect(received[0]?.headers["x-request-id"]).toBe("r-1");
      expect(received[1]?.headers["x-api-key"]).toBe("k");
      const controller = new AbortController();
      controller.abort();
      await expect(sdk.listPets(client, {}, { signal: controller.signal })).rejects.toBeInstanceOf(AbortedError);
      expect(received).toHaveLength(2);
    });
  });

  describe("withOptions", () => {
    it("returns a copy with changed options and leaves the original as it was", async () => {
      const original = sdk.createClient({ token: "tok-a", userAgentSuffix: "a/1", retry: { maxRetries: 0, baseDelayMs: 1 } });
      const copy = original.withOptions({ token: "tok-b", serverVariables: { version: "v2" }, retry: { maxRetries: 1 } });
      answer = () => ({ status: 502, body: {} });
      await sdk.createPet(copy, { id: 1, name: "a" }).catch(() => undefined);
      await sdk.listPets(copy).catch(() => undefined);
      const copyRequests = received.length;
      await sdk.createPet(original, { id: 1, name: "a" }).catch(() => undefined);
      await sdk.listPets(original).catch(() => undefined);
      expect(received.map((r) => [r.method, r.url, r.headers.authorization ?? "", r.headers["user-agent"]?.endsWith(" a/1")])).toEqual([
        // A POST is never resent after a 502; the GET is retried once, as the copy's retry.maxRetries says.
        ["POST", "/api/v2/pets", "Bearer tok-b", true],
        ["GET", "/api/v2/pets", "", true],
        ["GET", "/api/v2/pets", "", true],
        ["POST", "/api/v1/pets", "Bearer tok-a", true],
        ["GET", "/api/v1/pets", "", true],
      ]);
      expect(copyRequests).toBe(3);
      expect(copy).not.toBe(original);
    });
  });
});
