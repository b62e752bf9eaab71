// The behaviour suite's driver contract as a JSON Schema (driver-contract.schema.json), for authors of drivers in any
// language: made from scenario.ts's types as the IR's schema is made from its types, so the two cannot drift
// (UPDATE_DRIVER_SCHEMA=1 writes it), and every case the suite sends validates against it.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { schemaValidator } from "../../generator/schema-validator.js";
import { buildTypeSchema } from "../../scripts/ir-schema/build.js";
import { DEFAULT_CLIENT, loadScenarios, PIPELINE, TOKEN } from "./scenario.js";

const SCENARIO_TYPES = fileURLToPath(new URL("./scenario.ts", import.meta.url));
const SCHEMA_FILE = fileURLToPath(new URL("./driver-contract.schema.json", import.meta.url));

describe("the driver contract's schema", () => {
  const built = { ...buildTypeSchema(SCENARIO_TYPES, "DriverContract"), title: "The behaviour suite's driver contract" };

  it("is the one scenario.ts's types make", () => {
    if (process.env.UPDATE_DRIVER_SCHEMA === "1") writeFileSync(SCHEMA_FILE, `${JSON.stringify(built, null, 2)}\n`);
    expect(JSON.parse(readFileSync(SCHEMA_FILE, "utf8"))).toEqual(built);
  });

  it("accepts every case the suite sends, and refuses a result that breaks it", () => {
    const validate = schemaValidator({ schema: built, options: { allErrors: true, strict: false } });
    const cases = loadScenarios().map((s) => ({
      name: s.name,
      baseUrl: `http://127.0.0.1:1/typescript/${s.name}/latest`,
      foreignUrl: "http://127.0.0.1:2",
      token: TOKEN,
      client: { ...DEFAULT_CLIENT, ...s.client },
      ...(s.call && { call: s.call }),
      ...(s.copy && { copy: s.copy }),
      action: s.action,
      pipeline: PIPELINE,
      body: { ...s.body },
      ...(s.log !== undefined && { log: { variable: "SERVICE_LOG", value: s.log === "unset" ? null : s.log } }),
    }));
    const result = { name: "x", ok: false, kind: "service", status: 500, caughtAs: ["service"], texts: ["m"], startedAt: 1, elapsedMs: 2 };
    expect(validate({ cases, results: [result] }), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(validate({ cases, results: [{ ...result, texts: "m" }] })).toBe(false);
    expect(validate({ cases, results: [{ name: "x", ok: true }] })).toBe(false);
    expect(validate({ cases, results: [{ ...result, logs: ["request GET"] }] })).toBe(true);
    expect(validate({ cases, results: [{ ...result, logs: "request GET" }] })).toBe(false);
  });
});
