// generator/ir/ir.schema.json is generated from generator/ir/types.ts (`npm run ir-schema`): regenerating it in memory
// must give the committed file, so the schema and the types cannot disagree.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { IR_VERSION } from "../../generator/ir/types.js";
import { buildIrSchema, SCHEMA_PATH } from "../../scripts/ir-schema/build.js";

describe("generator/ir/ir.schema.json", () => {
  const committed = JSON.parse(readFileSync(SCHEMA_PATH, "utf8")) as Record<string, unknown>;
  const generated = buildIrSchema();

  it("is what `npm run ir-schema` generates from types.ts (run it when this fails)", () => {
    // Key order counts too: the text differs from the regenerated one only by formatting, which biome checks.
    expect(JSON.stringify(committed)).toBe(JSON.stringify(generated));
  });

  it("carries the identity and the version the types state", () => {
    expect(generated).toMatchObject({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $id: "https://sdk-toolchain.invalid/ir.schema.json",
      additionalProperties: false,
      properties: { irVersion: { const: IR_VERSION } },
    });
    expect(typeof generated.title).toBe("string");
    expect(typeof generated.description).toBe("string");
  });

  it("has no draft-07 leftovers", () => {
    const text = JSON.stringify(generated);
    expect(text).not.toContain('"definitions"');
    expect(text).not.toContain("#/definitions/");
    expect(text).not.toMatch(/"type":\[/);
  });
});
