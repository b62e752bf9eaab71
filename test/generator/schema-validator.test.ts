import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";
import { describe, expect, it } from "vitest";
import { configSchemaCheck } from "../../generator/config/load.js";
import { type SchemaCheck, standaloneValidator, validatorFile } from "../../generator/schema-validator.js";
import { conventionSchemaChecks } from "../../generator/spec/conventions.js";
import { paginationSchemaCheck } from "../../generator/spec/pagination.js";
import { openApi31SchemaCheck } from "../../generator/spec/schema-check.js";
import { variantsSchemaCheck } from "../../generator/spec/variants.js";

const require = createRequire(import.meta.url);
const checks = async (): Promise<SchemaCheck[]> => [
  ...conventionSchemaChecks(),
  variantsSchemaCheck,
  paginationSchemaCheck(),
  await configSchemaCheck(),
  openApi31SchemaCheck(),
];

/** Values that break each schema in different ways, and ones of the right shape. */
const SAMPLES: unknown[] = [
  {},
  [],
  "text",
  null,
  true,
  { unknown: 1 },
  { role: "submit" },
  { role: "poll", status: 3 },
  { limit: "limit", offset: "offset", items: "items", total: 1 },
  { spec: "a.yaml", out: "x", languages: ["typescript", "cobol"], outputs: { fixtures: "yes" }, typescript: { package: "A B" } },
  { pipelines: [{ slug: 1 }], pricing: { laneMultipliers: { fast: "2" } } },
  { openapi: "3.1.0", info: { title: "t", version: "1" }, paths: {} },
  { openapi: "3.1.0", info: { title: "t" }, paths: { "/x": { get: { responses: "none" } } }, components: { schemas: { A: 1 } } },
  { openapi: "3.1.0", info: { title: "t", version: "1" }, components: { schemas: { A: { type: "object", $ref: "#/x" } } } },
];

describe("validators compiled ahead by the build", () => {
  it("give the same answers and errors, with the same JSON pointers, as Ajv compiling the schema", async () => {
    // Inside the repository, where the code's `require("ajv/dist/runtime/...")` resolves, as it does from dist/.
    const modules = fileURLToPath(new URL("../../node_modules/.cache/", import.meta.url));
    await mkdir(modules, { recursive: true });
    const dir = await mkdtemp(join(modules, "validators-"));
    for (const check of await checks()) {
      const file = join(dir, validatorFile(check));
      await writeFile(file, standaloneValidator(check));
      const ahead = require(file) as ValidateFunction;
      const compiled = new Ajv2020(check.options).compile(check.schema);
      for (const sample of SAMPLES) {
        expect(ahead(sample)).toBe(compiled(sample));
        expect(ahead.errors ?? null).toEqual(compiled.errors ?? null);
      }
    }
    await rm(dir, { recursive: true, force: true });
  });

  it("are named by the schema, its options and Ajv's version: an edited schema is compiled again", async () => {
    const [check] = await checks();
    const names = new Set([
      validatorFile(check!),
      validatorFile({ ...check!, schema: { ...check!.schema, title: "edited" } }),
      validatorFile({ ...check!, options: { ...check!.options, allErrors: false } }),
    ]);
    expect(names.size).toBe(3);
    expect(validatorFile(check!)).toBe(validatorFile({ schema: structuredClone(check!.schema), options: { ...check!.options } }));
  });
});
