// The generated TypeScript client of test/matrix's idempotency-key description against a local server, the rule
// the Python and Go clients follow too: an operation that takes a key sends one per call (the caller's
// idempotencyKey, else a random UUID v4), the same on every retry, so that even a billed write is sent again after
// a 500; the next call sends a new key; an operation without one refuses the option before sending.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { matrixSources, wireSuite } from "../../../test/support/wire.js";
import { withLocalRuntime } from "../local-runtime.js";

type Client = unknown;
type Options = { idempotencyKey?: string; headers?: Record<string, string> };
interface KeysClient {
  createClient(o: object): Client;
  createCharge(c: Client, params: object, body: object, options?: Options): Promise<{ data: unknown }>;
  createRefund(c: Client, body: object, options?: Options): Promise<{ data: unknown }>;
  createNote(c: Client, body: object, options?: Options): Promise<{ data: unknown }>;
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The statuses of the next answers, in order; 200 once it is empty. */
const plan: number[] = [];

const wire = wireSuite(
  "ts-idempotency-key-",
  matrixSources(["idempotency-key"]),
  (out) => ({ ...withLocalRuntime(out), languages: ["typescript"], outputs: [] }),
  (_request, res) => {
    const status = plan.shift() ?? 200;
    const body = status === 200 ? { id: "r1" } : { code: "INTERNAL_ERROR", message: "boom" };
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  },
);
const received = wire.received;

async function client(): Promise<{ sdk: KeysClient; c: Client }> {
  const sdk = (await import(join(wire.base, "idempotency-key", "index.ts"))) as KeysClient;
  return { sdk, c: sdk.createClient({ baseUrl: wire.baseUrl, retry: { baseDelayMs: 1, maxDelayMs: 2 } }) };
}

describe("idempotency keys on the wire (TypeScript)", () => {
  it("makes one key per call, sends it on every retry after a 500 and a 503, and a new one on the next call", async () => {
    const { sdk, c } = await client();
    received.length = 0;
    plan.push(500, 503);
    await sdk.createCharge(c, {}, { amount: 1 });
    const keys = received.map((r) => r.headers["idempotency-key"]);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(UUID_V4);
    expect(new Set(keys).size).toBe(1);
    await sdk.createCharge(c, {}, { amount: 1 });
    expect(received[3]?.headers["idempotency-key"]).toMatch(UUID_V4);
    expect(received[3]?.headers["idempotency-key"]).not.toBe(keys[0]);
  });

  it("sends the caller's key as given, in the header x-idempotency-key names, on a billed write and its retry", async () => {
    const { sdk, c } = await client();
    received.length = 0;
    plan.push(500);
    await sdk.createRefund(c, { amount: 1 }, { idempotencyKey: "order-42" });
    expect(received.map((r) => r.headers["x-request-key"])).toEqual(["order-42", "order-42"]);
    expect(received[0]?.headers["idempotency-key"]).toBeUndefined();
    // A header of that name among the call's own is the caller's key too.
    await sdk.createRefund(c, { amount: 1 }, { headers: { "x-request-key": "from-header" } });
    expect(received[2]?.headers["x-request-key"]).toBe("from-header");
  });

  it("refuses the option on an operation that takes no key, sending nothing, and sends no key without it", async () => {
    const { sdk, c } = await client();
    received.length = 0;
    await expect(sdk.createNote(c, { amount: 1 }, { idempotencyKey: "k" })).rejects.toThrow("createNote takes no idempotency key");
    expect(received).toHaveLength(0);
    await sdk.createNote(c, { amount: 1 });
    expect(received[0]?.headers["idempotency-key"]).toBeUndefined();
    expect(received[0]?.headers["x-request-key"]).toBeUndefined();
  });
});
