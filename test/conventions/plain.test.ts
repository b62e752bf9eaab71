// A client generated from a small description without extensions, called over HTTP on 127.0.0.1: the base address
// from its servers, credentials from its security schemes and each operation's requirements.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { generate, runtimeModuleFor, writeFiles } from "../../generator/generate.js";
import type { ApiResult, ClientOptions, RequestOptions, Runtime } from "../../runtime/index.js";
import { MissingCredentialsError, SdkError } from "../../runtime/index.js";

const here = fileURLToPath(new URL("./", import.meta.url));

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The generated client's exports this file calls. */
interface PetStore {
  createClient(options?: ClientOptions): Runtime;
  listPets(client: Runtime, params?: { limit?: number }, options?: RequestOptions): Promise<ApiResult<unknown>>;
  createPet(client: Runtime, body: { id: number; name: string }, options?: RequestOptions): Promise<ApiResult<unknown>>;
  getPet(client: Runtime, params: { petId: number }, options?: RequestOptions): Promise<ApiResult<unknown>>;
  deletePet(client: Runtime, params: { petId: number }, options?: RequestOptions): Promise<ApiResult<unknown>>;
  getInventory(client: Runtime, options?: RequestOptions): Promise<ApiResult<unknown>>;
  getSession(client: Runtime, options?: RequestOptions): Promise<ApiResult<unknown>>;
  listOrders(client: Runtime, options?: RequestOptions): Promise<ApiResult<unknown>>;
  getFeatured(client: Runtime, options?: RequestOptions): Promise<ApiResult<unknown>>;
}

let base: string;
let server: Server;
let port: number;
let sdk: PetStore;
let received: Received[] = [];
let answer: (req: Received) => { status: number; body?: unknown; headers?: Record<string, string> } = () => ({ status: 200, body: [] });

beforeAll(async () => {
  server = createServer((req, res) => {
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
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  port = (server.address() as AddressInfo).port;
  base = await mkdtemp(join(tmpdir(), "plain-"));
  await writeFile(join(base, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
  // The server's port is the default of its `port` variable, so the default base address reaches this server.
  const text = (await readFile(join(here, "descriptions", "petstore.yaml"), "utf8")).replace("__PORT__", String(port));
  await writeFile(join(base, "petstore.yaml"), text);
  const out = join(base, "out");
  const generation = await generate(join(base, "petstore.yaml"), {
    languages: ["typescript"],
    outputs: [],
    runtimeModule: runtimeModuleFor(out),
  });
  await writeFiles(out, generation.files);
  sdk = (await import(join(out, "index.ts"))) as PetStore;
}, 120_000);

afterAll(async () => {
  await new Promise((ok) => server?.close(ok));
  if (base) await rm(base, { recursive: true, force: true });
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
