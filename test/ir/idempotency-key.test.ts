// Idempotency keys in the IR: `x-idempotency-key` names the header an operation takes a key in, a header parameter
// named Idempotency-Key (any case) is recognised without it, and the loader reports a wrong use at its pointer.
import { describe, expect, it } from "vitest";
import { buildIR } from "../../generator/ir/build.js";
import type { IR } from "../../generator/ir/types.js";
import { checkDescription } from "../../generator/spec/load.js";
import { SpecError } from "../../generator/spec/problems.js";

type Json = Record<string, unknown>;
const ok = { responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } } };
const header = (name: string, required = false) => ({ name, in: "header", required, schema: { type: "string" } });

function document(extra: Json = {}): Json {
  return {
    openapi: "3.1.0",
    info: { title: "keys", version: "1" },
    paths: {
      "/charges": {
        post: { operationId: "createCharge", parameters: [header("idempotency-key", true), header("X-Trace")], ...ok },
      },
      "/refunds": {
        post: {
          operationId: "createRefund",
          "x-idempotency-key": { header: "X-Request-Key" },
          parameters: [header("X-Request-Key")],
          ...ok,
        },
      },
      "/payouts": {
        post: { operationId: "createPayout", "x-paperoffice-billed": true, "x-idempotency-key": { header: "Idempotency-Key" }, ...ok },
      },
      "/notes": { post: { operationId: "createNote", parameters: [header("X-Idempotency")], ...ok } },
      ...extra,
    },
  };
}

async function ir(doc: Json): Promise<IR> {
  const text = JSON.stringify(doc);
  return buildIR(await checkDescription({ source: "keys.json", text, document: JSON.parse(text) as Json }));
}

async function problems(doc: Json): Promise<string[]> {
  try {
    await ir(doc);
  } catch (error) {
    if (error instanceof SpecError) return error.problems.map((p) => `${p.pointer}: ${p.message}`);
    throw error;
  }
  return [];
}

describe("idempotency keys in the IR", () => {
  it("takes the extension's header, and recognises a header parameter named Idempotency-Key in any case", async () => {
    const byId = new Map((await ir(document())).operations.map((o) => [o.id, o]));
    expect(byId.get("createCharge")?.idempotencyKey).toBe("idempotency-key");
    expect(byId.get("createRefund")?.idempotencyKey).toBe("X-Request-Key");
    expect(byId.get("createPayout")?.idempotencyKey).toBe("Idempotency-Key");
    // Another header name is no key, and no key is invented for an operation without one.
    expect(byId.get("createNote")).not.toHaveProperty("idempotencyKey");
  });

  it("leaves the key's header parameter out of the call's parameters, keeping the others", async () => {
    const byId = new Map((await ir(document())).operations.map((o) => [o.id, o]));
    expect(byId.get("createCharge")?.parameters.header.map((p) => p.name)).toEqual(["X-Trace"]);
    expect(byId.get("createRefund")?.parameters.header).toEqual([]);
    expect(byId.get("createNote")?.parameters.header.map((p) => p.name)).toEqual(["X-Idempotency"]);
  });

  it("keeps billed and idempotent as the description says: the key is what lets a billed operation be sent again", async () => {
    const payout = (await ir(document())).operations.find((o) => o.id === "createPayout");
    expect(payout).toMatchObject({ billed: true, idempotent: false, idempotencyKey: "Idempotency-Key" });
  });

  it.each([
    { given: "no header", value: {}, want: "/paths/~1x/post/x-idempotency-key: x-idempotency-key must have required property 'header'" },
    { given: "a string", value: "Idempotency-Key", want: "/paths/~1x/post/x-idempotency-key: x-idempotency-key must be object" },
    {
      given: "another member",
      value: { header: "K", scope: "user" },
      want: '/paths/~1x/post/x-idempotency-key: x-idempotency-key must NOT have additional properties ("scope")',
    },
    {
      given: "a header name with a space",
      value: { header: "Idempotency Key" },
      want: `/paths/~1x/post/x-idempotency-key/header: x-idempotency-key must match pattern "^[!#$%&'*+.^_\`|~0-9A-Za-z-]+$"`,
    },
    {
      given: "a header the clients set themselves",
      value: { header: "authorization" },
      want: "/paths/~1x/post/x-idempotency-key/header: authorization is a header the clients set themselves",
    },
  ])("reports an extension with $given at its pointer", async ({ value, want }) => {
    const found = await problems(document({ "/x": { post: { operationId: "x", "x-idempotency-key": value, ...ok } } }));
    expect(found).toEqual([want]);
  });
});
