// The generated TypeScript client of two descriptions of test/matrix against a local server: a body that offers
// JSON beside both forms travels as JSON (as the Python and Go clients send it), and a header parameter named
// User-Agent is sent as the caller gave it, while the client's own User-Agent goes where no parameter sets one.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { matrixSources, wireSuite } from "../../../test/support/wire.js";
import { withLocalRuntime } from "../local-runtime.js";

type Client = unknown;
interface JsonFormClient {
  createClient(o: object): Client;
  createApp(c: Client, body: object): Promise<{ data: unknown }>;
}
interface AgentClient {
  createClient(o: object): Client;
  getEcho(c: Client, params: object): Promise<{ data: unknown }>;
  getPlain(c: Client): Promise<{ data: unknown }>;
}

const wire = wireSuite(
  "ts-request-choice-",
  matrixSources(["wire2-json-or-form", "wire2-user-agent-param"]),
  (out) => ({ ...withLocalRuntime(out), languages: ["typescript"], outputs: [] }),
  (request, res) => {
    const answer = request.url === "/clients" ? request.body : '{"ok":true}';
    res.writeHead(200, { "content-type": "application/json" }).end(answer);
  },
);
const received = wire.received;

const load = async <T>(name: string): Promise<T> => (await import(join(wire.base, name, "index.ts"))) as T;

describe("a body offering JSON and forms on the wire (TypeScript)", () => {
  it("sends JSON, a one-element array staying an array", async () => {
    const sdk = await load<JsonFormClient>("wire2-json-or-form");
    received.length = 0;
    await sdk.createApp(sdk.createClient({ baseUrl: wire.baseUrl }), { name: "a", redirect_uris: ["https://x.test/cb"] });
    expect(received[0]?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(received[0]?.body ?? "null")).toEqual({ name: "a", redirect_uris: ["https://x.test/cb"] });
  });
});

describe("a header parameter named User-Agent on the wire (TypeScript)", () => {
  it("sends the caller's value, and the client's own User-Agent where no parameter sets it", async () => {
    const sdk = await load<AgentClient>("wire2-user-agent-param");
    const client = sdk.createClient({ baseUrl: wire.baseUrl });
    received.length = 0;
    await sdk.getEcho(client, { "User-Agent": "SiriKit/1.0", "X-Trace": "t1" });
    await sdk.getPlain(client);
    expect(received[0]?.headers["user-agent"]).toBe("SiriKit/1.0");
    expect(received[0]?.headers["x-trace"]).toBe("t1");
    expect(received[1]?.headers["user-agent"]).toMatch(/^wire2-agent-sdk-typescript\//);
  });
});
