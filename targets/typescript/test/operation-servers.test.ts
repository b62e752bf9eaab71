// Operations with servers of their own, over HTTP on 127.0.0.1: two small servers, a description whose document
// server is the first and whose upload operation (and a path item) name the second. Without an explicit base
// address each operation goes to its own first server; an explicit one applies to every operation; a call's
// baseUrl option sends that call elsewhere.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, writeFiles } from "../../../generator/generate.js";
import { operationServersDescription } from "../../../test/support/operation-servers.js";
import { type RecordingServer, recordingServer } from "../../../test/support/wire.js";
import { withLocalRuntime } from "../local-runtime.js";

interface Seen {
  server: "main" | "uploads";
  url: string;
  authorization: string | undefined;
}
type Sdk = {
  createClient(options?: object): object;
  plain(client: object, options?: object): Promise<unknown>;
  upload(client: object, options?: object): Promise<unknown>;
  pathLevel(client: object, options?: object): Promise<unknown>;
  relative(client: object, options?: object): Promise<unknown>;
};
/** operation-specs.ts's operationSpecs: a module of its own, which the index does not re-export. */
type Specs = Record<string, { operationId: string; servers?: { url: string }[] }>;

const seen: Seen[] = [];
let main: RecordingServer;
let uploads: RecordingServer;
let base: string;
let sdk: Sdk;
let specs: Specs;

async function listen(name: Seen["server"]): Promise<RecordingServer> {
  const server = recordingServer((request, res) => {
    seen.push({ server: name, url: request.url, authorization: request.headers.authorization });
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await server.listen();
  return server;
}
const portOf = (server: RecordingServer) => server.port;

beforeAll(async () => {
  [main, uploads] = await Promise.all([listen("main"), listen("uploads")]);
  base = await mkdtemp(join(tmpdir(), "ts-op-servers-"));
  await writeFile(join(base, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
  const source = join(base, "servers.json");
  await writeFile(source, JSON.stringify(operationServersDescription("op-servers-ts", portOf(main), portOf(uploads))));
  const out = join(base, "out");
  const { files } = await generate(source, { ...withLocalRuntime(out), languages: ["typescript"], outputs: [] });
  await writeFiles(out, files);
  sdk = (await import(join(out, "index.ts"))) as Sdk;
  specs = ((await import(join(out, "operation-specs.ts"))) as { operationSpecs: Specs }).operationSpecs;
}, 120_000);

afterAll(async () => {
  await Promise.all([main, uploads].map((s) => s?.close()));
  if (base) await rm(base, { recursive: true, force: true });
});

async function where(call: () => Promise<unknown>): Promise<Seen | undefined> {
  const before = seen.length;
  await call();
  expect(seen.length - before).toBe(1);
  return seen.at(-1);
}

describe("operation servers (TypeScript)", () => {
  it("sends an operation with servers of its own to its first server, the others to the document's", async () => {
    const client = sdk.createClient({ token: "t" });
    expect(await where(() => sdk.plain(client))).toEqual({ server: "main", url: "/v1/plain", authorization: "Bearer t" });
    expect(await where(() => sdk.upload(client))).toEqual({ server: "uploads", url: "/up/upload", authorization: "Bearer t" });
    expect(await where(() => sdk.pathLevel(client))).toMatchObject({ server: "uploads", url: "/path-level" });
    // A relative server is below the client's base address: "/rel" at its origin.
    expect(await where(() => sdk.relative(client))).toMatchObject({ server: "main", url: "/rel/relative" });
  });

  it("exports every operation's spec by its id from operation-specs.ts, not from the index, with the servers of its own that its function sends it to", () => {
    expect(Object.keys(specs).sort()).toEqual(["pathLevel", "plain", "relative", "upload"]);
    for (const [id, spec] of Object.entries(specs)) expect(spec.operationId).toBe(id);
    expect(specs.plain?.servers).toBeUndefined();
    expect(sdk).not.toHaveProperty("operationSpecs");
    expect(specs.upload?.servers?.map((s) => s.url)).toEqual(["http://{host}:{port}/up", `http://127.0.0.1:${portOf(main)}/never`]);
    expect(specs.pathLevel?.servers?.map((s) => s.url)).toEqual([`http://127.0.0.1:${portOf(uploads)}`]);
  });

  it("sends every operation to an explicit base address, so that a mock or proxy sees them all", async () => {
    const client = sdk.createClient({ token: "t", baseUrl: `http://127.0.0.1:${portOf(main)}/mock` });
    expect(await where(() => sdk.upload(client))).toMatchObject({ server: "main", url: "/mock/upload" });
    expect(await where(() => sdk.pathLevel(client))).toMatchObject({ server: "main", url: "/mock/path-level" });
  });

  it("sends one call of such an operation to the baseUrl of its options", async () => {
    const client = sdk.createClient({ token: "t" });
    const elsewhere = { baseUrl: `http://127.0.0.1:${portOf(main)}/other/` };
    expect(await where(() => sdk.upload(client, elsewhere))).toEqual({ server: "main", url: "/other/upload", authorization: "Bearer t" });
    expect(await where(() => sdk.pathLevel(client, elsewhere))).toMatchObject({ server: "main", url: "/other/path-level" });
    // The call's option wins over an explicit client base address too.
    const explicit = sdk.createClient({ token: "t", baseUrl: `http://127.0.0.1:${portOf(main)}/mock` });
    const uploadsBase = { baseUrl: `http://127.0.0.1:${portOf(uploads)}` };
    expect(await where(() => sdk.upload(explicit, uploadsBase))).toMatchObject({ server: "uploads", url: "/upload" });
    const before = seen.length;
    await expect(sdk.upload(client, { baseUrl: "ftp://x" })).rejects.toThrow(/baseUrl must be an absolute http\(s\) address/);
    expect(seen.length).toBe(before);
  });
});
