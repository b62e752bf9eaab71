// The generated TypeScript client of the media descriptions of test/matrix, against a local server: a body declared
// only as application/x-www-form-urlencoded travels urlencoded (not multipart), and a JSON schema served under a
// media range (*/*, application/*) is read as JSON, while a binary schema, or none, under */* stays a download.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, writeFiles } from "../../../generator/generate.js";
import { withLocalRuntime } from "../local-runtime.js";

const DESCRIPTIONS = fileURLToPath(new URL("../../../test/matrix/descriptions/", import.meta.url));

interface Received {
  readonly url: string;
  readonly contentType: string | undefined;
  readonly body: string;
}
type Client = unknown;
interface FormClient {
  createClient(o: object): Client;
  createCharge(c: Client, body: object): Promise<{ data: unknown }>;
  addNote(c: Client, body: object): Promise<unknown>;
}
interface SuffixClient {
  createClient(o: object): Client;
  patchThing(c: Client, params: object, body: object): Promise<{ data: unknown }>;
  getLegacy(c: Client): Promise<{ data: unknown }>;
}
interface StarClient {
  createClient(o: object): Client;
  getComic(c: Client): Promise<{ data: unknown }>;
  listComics(c: Client): Promise<{ data: unknown }>;
  getRaw(c: Client): Promise<{ contentType: string | undefined; blob(): Promise<Blob> }>;
  getUntyped(c: Client): Promise<{ contentType: string | undefined; blob(): Promise<Blob> }>;
}

let base = "";
let server: Server;
let baseUrl = "";
const received: Received[] = [];

/** What the server answers per path: JSON under `application/json` and bytes under `application/octet-stream`. */
const ANSWERS: Readonly<Record<string, { status: number; type?: string; body?: string }>> = {
  "/charges": { status: 200, type: "application/json", body: '{"id":"ch_1"}' },
  "/notes": { status: 204 },
  "/info.0.json": { status: 200, type: "application/json", body: '{"num":614,"title":"Woodpecker"}' },
  "/comics": { status: 200, type: "application/json", body: '[{"num":1},{"num":2}]' },
  "/raw": { status: 200, type: "application/octet-stream", body: '{"not":"parsed"}' },
  "/untyped": { status: 200, type: "application/octet-stream", body: "%PDF-1.7" },
  "/things/1": { status: 200, type: "application/vnd.things+json", body: '{"name":"b"}' },
  "/legacy": { status: 200, type: "text/json", body: '{"name":"old"}' },
};

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "ts-media-"));
  await writeFile(join(base, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
  for (const name of ["media-form-urlencoded", "media-star-json", "media-json-suffix"]) {
    const out = join(base, name);
    const { files } = await generate(join(DESCRIPTIONS, `${name}.yaml`), {
      ...withLocalRuntime(out),
      languages: ["typescript"],
      outputs: [],
    });
    await writeFiles(out, files);
  }
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString("utf8");
    });
    req.on("end", () => {
      const url = req.url ?? "";
      received.push({ url, contentType: req.headers["content-type"], body });
      const answer = ANSWERS[url] ?? { status: 404 };
      res.writeHead(answer.status, answer.type === undefined ? {} : { "content-type": answer.type }).end(answer.body);
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise((ok) => server.close(ok));
  if (base !== "") await rm(base, { recursive: true, force: true });
});

const load = async <T>(name: string): Promise<T> => (await import(join(base, name, "index.ts"))) as T;

describe("form bodies on the wire (TypeScript)", () => {
  it("sends a body declared only as application/x-www-form-urlencoded urlencoded, arrays repeated and objects as name[key]", async () => {
    const sdk = await load<FormClient>("media-form-urlencoded");
    const client = sdk.createClient({ baseUrl });
    received.length = 0;
    const answer = await sdk.createCharge(client, { amount: 100, description: "a b&c=d", expand: ["x", "y"], metadata: { order: "7" } });
    expect(answer.data).toEqual({ id: "ch_1" });
    expect(received[0]?.contentType).toBe("application/x-www-form-urlencoded");
    const fields = new URLSearchParams(received[0]?.body);
    expect([...fields.entries()]).toEqual([
      ["amount", "100"],
      ["description", "a b&c=d"],
      ["expand", "x"],
      ["expand", "y"],
      ["metadata[order]", "7"],
    ]);
  });

  it("keeps multipart for a body that declares both forms", async () => {
    const sdk = await load<FormClient>("media-form-urlencoded");
    received.length = 0;
    await sdk.addNote(sdk.createClient({ baseUrl }), { text: "hi" });
    expect(received[0]?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(received[0]?.body).toContain('name="text"');
  });
});

describe("JSON under media ranges on the wire (TypeScript)", () => {
  it("reads */* with an object schema as JSON", async () => {
    const sdk = await load<StarClient>("media-star-json");
    const answer = await sdk.getComic(sdk.createClient({ baseUrl }));
    expect(answer.data).toEqual({ num: 614, title: "Woodpecker" });
  });

  it("reads application/* with an array schema as JSON", async () => {
    const sdk = await load<StarClient>("media-star-json");
    const answer = await sdk.listComics(sdk.createClient({ baseUrl }));
    expect(answer.data).toEqual([{ num: 1 }, { num: 2 }]);
  });

  it("keeps */* with a binary schema, or with none, a download", async () => {
    const sdk = await load<StarClient>("media-star-json");
    const client = sdk.createClient({ baseUrl });
    const raw = await sdk.getRaw(client);
    expect(await (await raw.blob()).text()).toBe('{"not":"parsed"}');
    const untyped = await sdk.getUntyped(client);
    expect(untyped.contentType).toBe("application/octet-stream");
    expect(await (await untyped.blob()).text()).toBe("%PDF-1.7");
  });
});

describe("JSON of other JSON media types on the wire (TypeScript)", () => {
  it("sends a merge-patch body as application/merge-patch+json, and reads +json and text/json answers as JSON", async () => {
    const sdk = await load<SuffixClient>("media-json-suffix");
    const client = sdk.createClient({ baseUrl });
    received.length = 0;
    const patched = await sdk.patchThing(client, { id: "1" }, { name: "b" });
    expect(received[0]?.contentType).toBe("application/merge-patch+json");
    expect(JSON.parse(received[0]?.body ?? "null")).toEqual({ name: "b" });
    expect(patched.data).toEqual({ name: "b" });
    expect((await sdk.getLegacy(client)).data).toEqual({ name: "old" });
  });
});
