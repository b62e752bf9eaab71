// Operation- and path-level servers reach the IR: the operation's own list wins over its path's, and an operation
// with neither has none, so the document's servers apply to it.
import { Ajv2020 } from "ajv/dist/2020.js";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildIR } from "../../generator/ir/build.js";
import type { IR } from "../../generator/ir/types.js";
import { checkDescription } from "../../generator/spec/load.js";
import { SCHEMA_FILE } from "./shape.js";

const ok = { responses: { "204": { description: "none" } } };
const DOCUMENT = {
  openapi: "3.1.0",
  info: { title: "servers", version: "1" },
  servers: [{ url: "https://api.example.test/v1" }],
  paths: {
    "/plain": { get: { operationId: "plain", ...ok } },
    "/uploads": {
      servers: [
        {
          url: "https://{region}.uploads.example.test",
          description: "uploads",
          variables: { region: { default: "eu", enum: ["eu", "us"] } },
        },
      ],
      get: { operationId: "pathLevel", ...ok },
      post: { operationId: "operationLevel", servers: [{ url: "https://direct.example.test/in" }, { url: "/relative" }], ...ok },
      put: { operationId: "emptyOwnList", servers: [], ...ok },
    },
  },
};

async function ir(): Promise<IR> {
  const text = JSON.stringify(DOCUMENT);
  return buildIR(await checkDescription({ source: "servers.json", text, document: JSON.parse(text) as Record<string, unknown> }));
}

describe("operation servers in the IR", () => {
  it("takes the operation's servers, else its path's, else none", async () => {
    const byId = new Map((await ir()).operations.map((o) => [o.id, o]));
    expect(byId.get("plain")?.servers).toBeUndefined();
    const regional = [
      {
        url: "https://{region}.uploads.example.test",
        description: "uploads",
        variables: [{ name: "region", default: "eu", enum: ["eu", "us"] }],
      },
    ];
    expect(byId.get("pathLevel")?.servers).toEqual(regional);
    expect(byId.get("operationLevel")?.servers).toEqual([
      { url: "https://direct.example.test/in", variables: [] },
      { url: "/relative", variables: [] },
    ]);
    // An empty list states nothing: the path's servers still apply.
    expect(byId.get("emptyOwnList")?.servers).toEqual(regional);
  });

  it("keeps the document's servers as they were and validates against the IR schema", async () => {
    const built = await ir();
    expect(built.servers).toEqual([{ url: "https://api.example.test/v1", variables: [] }]);
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as object);
    expect(validate(built), JSON.stringify(validate.errors)).toBe(true);
  });
});
