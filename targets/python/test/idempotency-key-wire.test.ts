// The generated Python clients (sync and async) of test/matrix's idempotency-key description against a local server,
// the rule the TypeScript and Go clients follow too: an operation that takes a key sends one per call (the caller's
// idempotency_key, else a random UUID v4), the same on every retry, so that even a billed write is sent again after a
// 500; the next call sends a new key; an operation without one refuses the option before sending.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { matrixSources, wireSuite } from "../../../test/support/wire.js";
import { emitPython } from "../emit/index.js";
import { runPython } from "./python-program.js";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The statuses of the next answers, in order; 200 once it is empty. */
const plan: number[] = [];

const wire = wireSuite(
  "python-idempotency-key-",
  matrixSources(["idempotency-key"]),
  () => ({ emitters: [emitPython] }),
  (_request, res) => {
    const status = plan.shift() ?? 200;
    const body = status === 200 ? { id: "r1" } : { code: "INTERNAL_ERROR", message: "boom" };
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  },
);
const received = wire.received;

/** Runs a program with the generated package importable; it prints what it wants the test to see. */
function python(program: string): Promise<string> {
  const prelude = `
import asyncio, sys
from wire4_keys.client import Client
from wire4_keys.aio import AsyncClient
from paperoffice_runtime import SdkError
fast = dict(base_url=sys.argv[1], base_delay=0.001, max_delay=0.002)
`;
  return runPython(prelude + program, [wire.baseUrl], wire.base, join(wire.base, "idempotency-key", "python"));
}

describe("idempotency keys on the wire (Python)", () => {
  it("makes one key per call, sends it on every retry after a 500 and a 503, and a new one on the next call", async () => {
    received.length = 0;
    plan.push(500, 503);
    await python(`
client = Client(**fast)
client.create_charge({"amount": 1})
client.create_charge({"amount": 1})
`);
    const keys = received.map((r) => r.headers["idempotency-key"]);
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(UUID_V4);
    expect(keys.slice(0, 3)).toEqual([keys[0], keys[0], keys[0]]);
    expect(keys[3]).toMatch(UUID_V4);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it("sends the caller's key as given, in the header x-idempotency-key names, on a billed write and its retry (async)", async () => {
    received.length = 0;
    plan.push(500);
    await python(`
async def main():
    async with AsyncClient(**fast) as client:
        await client.create_refund({"amount": 1}, idempotency_key="order-42")
        await client.create_refund({"amount": 1}, extra_headers={"x-request-key": "from-header"})
asyncio.run(main())
`);
    expect(received.map((r) => r.headers["x-request-key"])).toEqual(["order-42", "order-42", "from-header"]);
    expect(received[0]?.headers["idempotency-key"]).toBeUndefined();
  });

  it("refuses the option on an operation that takes no key, sending nothing, and sends no key without it", async () => {
    received.length = 0;
    const out = await python(`
client = Client(**fast)
try:
    client.create_note({"amount": 1}, idempotency_key="k")
except SdkError as error:
    print(type(error).__name__, error)
client.create_note({"amount": 1})
`);
    expect(out.trim()).toBe("SdkError createNote: the operation takes no idempotency key; nothing was sent");
    expect(received).toHaveLength(1);
    expect(received[0]?.headers["idempotency-key"]).toBeUndefined();
  });
});
