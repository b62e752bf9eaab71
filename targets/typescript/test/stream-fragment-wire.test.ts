// The generated TypeScript client of two matrix descriptions against a local server: a text/event-stream answer is
// handed back as a stream as soon as its headers arrive, one that stays open as well as one with no body (Prism's
// Content-Length: 0), which ends at once; and a path key with a #fragment (Microsoft's `/x#overload=stream`) is
// sent as the path before `#`, with the query after it, since a fragment never reaches the server.
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { matrixSources, type Recorded, wireSuite } from "../../../test/support/wire.js";
import { withLocalRuntime } from "../local-runtime.js";

type Client = unknown;
interface Download {
  contentType: string | undefined;
  stream: ReadableStream<Uint8Array>;
}
interface SseClient {
  createClient(o: object): Client;
  subscribe(c: Client, params: { topic: string[] }, options?: object): Promise<Download>;
  subscribeTyped(c: Client, options?: object): Promise<Download>;
}
interface FragmentClient {
  createClient(o: object): Client;
  thumbnailFromUrl(c: Client, params: { width: number }, body: { url: string }): Promise<{ data: unknown }>;
  thumbnailFromStream(c: Client, params: { width: number }, body: Blob): Promise<{ data: unknown }>;
  patchItemsIdOverloadPatch(c: Client, params: { id: string; note?: string }): Promise<unknown>;
}

/** Each request as it arrived: its request line's method and target, and its Content-Type. */
const received: { method: string; target: string; contentType: string | undefined }[] = [];
/** Event streams still open, ended when the suite does. */
const open = new Set<ServerResponse>();
/** Answers by path: an event stream left open, one without a body, JSON for thumbnails, 204 for items. */
function answer({ method, url: target, contentType }: Recorded, res: ServerResponse): void {
  received.push({ method, target, contentType });
  if (target.startsWith("/events")) {
    // One event, then the stream stays open, as a live subscription does.
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write("id: 1\ndata: first\n\n");
    open.add(res);
    const end = setTimeout(() => res.end(), 10_000);
    res.on("close", () => clearTimeout(end));
  } else if (target === "/typed-events") {
    res.writeHead(200, { "content-type": "text/event-stream", "content-length": "0" }).end();
  } else if (target.startsWith("/thumbnail")) {
    res.writeHead(200, { "content-type": "application/json" }).end('{"size":1}');
  } else if (target.startsWith("/items/")) {
    res.writeHead(204).end();
  } else {
    res.writeHead(404).end();
  }
}
const wire = wireSuite(
  "ts-stream-fragment-",
  matrixSources(["wire3-sse", "wire3-fragment-path"]),
  (out) => ({ ...withLocalRuntime(out), languages: ["typescript"], outputs: [] }),
  answer,
);
afterAll(() => {
  for (const res of open) res.destroy();
});

const load = async <T>(name: string): Promise<T> => (await import(join(wire.base, name, "index.ts"))) as T;

describe("text/event-stream answers (TypeScript)", () => {
  it("hands back a stream that stays open as soon as it starts, its events readable as they come", async () => {
    const sdk = await load<SseClient>("wire3-sse");
    const started = Date.now();
    const answer = await sdk.subscribe(sdk.createClient({ baseUrl: wire.baseUrl }), { topic: ["a"] }, { deadlineMs: 60_000 });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(answer.contentType).toBe("text/event-stream");
    const reader = answer.stream.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("id: 1\ndata: first\n\n");
    expect(Date.now() - started).toBeLessThan(3_000);
    await reader.cancel();
  });

  it("hands back an answer without a body (Content-Length: 0) as a stream that has ended, not one read until the deadline", async () => {
    const sdk = await load<SseClient>("wire3-sse");
    const started = Date.now();
    const answer = await sdk.subscribeTyped(sdk.createClient({ baseUrl: wire.baseUrl }), { deadlineMs: 5_000 });
    expect(await new Response(answer.stream).text()).toBe("");
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe("path keys with a #fragment (TypeScript)", () => {
  it("sends the path before `#`, with the query after it, for each of two operations that share it", async () => {
    const sdk = await load<FragmentClient>("wire3-fragment-path");
    const client = sdk.createClient({ baseUrl: wire.baseUrl });
    received.length = 0;
    expect((await sdk.thumbnailFromStream(client, { width: 64 }, new Blob(["png"]))).data).toEqual({ size: 1 });
    expect((await sdk.thumbnailFromUrl(client, { width: 32 }, { url: "https://x.test/a.png" })).data).toEqual({ size: 1 });
    expect(received).toEqual([
      { method: "POST", target: "/thumbnail?width=64", contentType: "application/octet-stream" },
      { method: "POST", target: "/thumbnail?width=32", contentType: "application/json" },
    ]);
  });

  it("fills the path parameters of a path with a #fragment and drops the fragment", async () => {
    const sdk = await load<FragmentClient>("wire3-fragment-path");
    received.length = 0;
    await sdk.patchItemsIdOverloadPatch(sdk.createClient({ baseUrl: wire.baseUrl }), { id: "a b", note: "n" });
    expect(received).toEqual([{ method: "PATCH", target: "/items/a%20b?note=n", contentType: undefined }]);
  });
});
