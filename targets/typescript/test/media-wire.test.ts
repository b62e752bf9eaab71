// The generated TypeScript client of the media descriptions of test/matrix, against a local server: a body declared
// only as application/x-www-form-urlencoded travels urlencoded (not multipart), and a JSON schema served under a
// media range (*/*, application/*) is read as JSON, while a binary schema, or none, under */* stays a download.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MEDIA_ANSWERS } from "../../../test/support/media-answers.js";
import { matrixSources, wireSuite } from "../../../test/support/wire.js";
import { withLocalRuntime } from "../local-runtime.js";

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

const wire = wireSuite(
  "ts-media-",
  matrixSources(["media-form-urlencoded", "media-star-json", "media-json-suffix"]),
  (out) => ({ ...withLocalRuntime(out), languages: ["typescript"], outputs: [] }),
  MEDIA_ANSWERS,
);
const received = wire.received;

const load = async <T>(name: string): Promise<T> => (await import(join(wire.base, name, "index.ts"))) as T;

describe("form bodies on the wire (TypeScript)", () => {
  it("sends a body declared only as application/x-www-form-urlencoded urlencoded, arrays repeated and objects as name[key]", async () => {
    const sdk = await load<FormClient>("media-form-urlencoded");
    const client = sdk.createClient({ baseUrl: wire.baseUrl });
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
    await sdk.addNote(sdk.createClient({ baseUrl: wire.baseUrl }), { text: "hi" });
    expect(received[0]?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(received[0]?.body).toContain('name="text"');
  });
});

describe("JSON under media ranges on the wire (TypeScript)", () => {
  it("reads */* with an object schema as JSON", async () => {
    const sdk = await load<StarClient>("media-star-json");
    const answer = await sdk.getComic(sdk.createClient({ baseUrl: wire.baseUrl }));
    expect(answer.data).toEqual({ num: 614, title: "Woodpecker" });
  });

  it("reads application/* with an array schema as JSON", async () => {
    const sdk = await load<StarClient>("media-star-json");
    const answer = await sdk.listComics(sdk.createClient({ baseUrl: wire.baseUrl }));
    expect(answer.data).toEqual([{ num: 1 }, { num: 2 }]);
  });

  it("keeps */* with a binary schema, or with none, a download", async () => {
    const sdk = await load<StarClient>("media-star-json");
    const client = sdk.createClient({ baseUrl: wire.baseUrl });
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
    const client = sdk.createClient({ baseUrl: wire.baseUrl });
    received.length = 0;
    const patched = await sdk.patchThing(client, { id: "1" }, { name: "b" });
    expect(received[0]?.contentType).toBe("application/merge-patch+json");
    expect(JSON.parse(received[0]?.body ?? "null")).toEqual({ name: "b" });
    expect(patched.data).toEqual({ name: "b" });
    expect((await sdk.getLegacy(client)).data).toEqual({ name: "old" });
  });
});
