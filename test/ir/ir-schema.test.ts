// The IR contract: generated/ir.json and the IRs of small descriptions validate against generator/ir/ir.schema.json,
// the schema says what types.ts says, and a change of shape cannot land without a new IR_VERSION.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Project } from "ts-morph";
import { describe, expect, it } from "vitest";
import { buildIR } from "../../generator/ir/build.js";
import { IR_VERSION, type IR, type Schema } from "../../generator/ir/types.js";
import { checkDescription, loadDescription } from "../../generator/spec/load.js";
import { listReleases, releaseFile } from "../support/service-releases.js";
import { currentShape, LOCK_FILE, SCHEMA_FILE, type ShapeEntry, TYPES_FILE } from "./shape.js";

const irSchema = JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as {
  properties: Record<string, unknown> & { irVersion: { const: string } };
  required: string[];
  additionalProperties: unknown;
  $defs: Record<string, { properties?: Record<string, unknown>; required?: string[]; additionalProperties?: unknown }>;
};
const ajv = new Ajv2020({ allErrors: true, strict: true });
const validate = ajv.compile(irSchema);
const problems = (ir: unknown): string[] =>
  validate(ir) ? [] : (validate.errors ?? []).slice(0, 10).map((e) => `${e.instancePath} ${e.message ?? ""}`);

const op = (extra: Record<string, unknown> = {}) => ({
  responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Everything" } } } } },
  ...extra,
});
/** Small descriptions between them producing every node kind. */
const SMALL: Record<string, Record<string, unknown>> = {
  minimal: {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: { "/ping": { get: { responses: { "204": { description: "none" } } } } },
  },
  "every kind (3.1)": {
    openapi: "3.1.0",
    info: { title: "kinds", version: "2", description: "d" },
    servers: [{ url: "https://{host}/v1", variables: { host: { default: "example.com", enum: ["example.com"] } } }],
    security: [{ bearer: [] }],
    paths: {
      "/things/{id}": {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        post: op({
          operationId: "addThing",
          parameters: [{ name: "x-trace", in: "header", schema: { type: "integer", minimum: 1 } }],
          requestBody: {
            required: true,
            content: {
              "multipart/form-data": {
                schema: {
                  type: "object",
                  properties: {
                    file: { type: "string", format: "binary" },
                    meta: {
                      type: "string",
                      contentMediaType: "application/json",
                      contentSchema: { type: "array", items: { type: "number" } },
                    },
                  },
                },
              },
            },
          },
        }),
      },
    },
    webhooks: {
      "thing.done": {
        post: {
          requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Everything" } } } },
          responses: { "200": { description: "ok" } },
        },
      },
    },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      schemas: {
        Code: {
          oneOf: [
            { const: "BAD", "x-http-status": 400, description: "bad" },
            { const: "GONE", "x-http-status": 410 },
          ],
        },
        Base: { type: "object", properties: { id: { type: "string", minLength: 1 } }, required: ["id"], additionalProperties: false },
        Everything: {
          allOf: [
            { $ref: "#/components/schemas/Base" },
            {
              type: "object",
              additionalProperties: { type: "boolean" },
              properties: {
                n: { type: ["number", "null"], maximum: 3, default: 1, examples: [2], deprecated: true },
                tags: { type: "array", items: { enum: ["a", "b"] }, maxItems: 3 },
                pick: { oneOf: [{ $ref: "#/components/schemas/Base" }, { type: "object", properties: { k: { type: "integer" } } }] },
                any: {},
                code: { $ref: "#/components/schemas/Code" },
              },
            },
          ],
        },
      },
    },
  },
  "3.0 with nullable": {
    openapi: "3.0.3",
    info: { title: "old", version: "3" },
    paths: {
      "/a": {
        get: {
          responses: {
            "200": { description: "ok", content: { "application/json": { schema: { type: "string", nullable: true, example: "x" } } } },
          },
        },
      },
    },
  },
};

async function irOf(name: string, document: Record<string, unknown>): Promise<IR> {
  return buildIR(await checkDescription({ source: `${name}.json`, text: JSON.stringify(document), document }));
}

function kindsOf(ir: IR): Set<string> {
  const kinds = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === "object") {
      const kind = (value as Partial<Schema>).kind;
      if (typeof kind === "string") kinds.add(kind);
      Object.values(value).forEach(visit);
    }
  };
  visit(ir);
  return kinds;
}

describe("IR JSON Schema", () => {
  it("has irVersion const equal to IR_VERSION", () => {
    expect(irSchema.properties.irVersion.const).toBe(IR_VERSION);
  });

  it("validates generated/ir.json", () => {
    const ir = JSON.parse(readFileSync(new URL("../../generated/ir.json", import.meta.url), "utf8")) as IR;
    expect(problems(ir)).toEqual([]);
  });

  it.each(listReleases())("validates the IR of release %s", async (id) => {
    expect(problems(buildIR(await loadDescription(releaseFile(id))))).toEqual([]);
  });

  it("validates the IRs of small descriptions, which between them hold every node kind", async () => {
    const kinds = new Set<string>();
    for (const [name, document] of Object.entries(SMALL)) {
      const ir = await irOf(name, document);
      expect(problems(ir), name).toEqual([]);
      for (const k of kindsOf(ir)) kinds.add(k);
    }
    // Schema is a union discriminated by `kind`: one if/then branch per node type, and the list of kinds.
    const union = irSchema.$defs.Schema as unknown as { allOf: { then: { $ref: string } }[]; properties: { kind: { enum: string[] } } };
    expect(new Set(union.allOf.map((branch) => branch.then.$ref)).size).toBe(13);
    expect([...union.properties.kind.enum].sort()).toEqual([...kinds].sort());
    expect([...kinds].sort()).toEqual(
      [
        "array",
        "boolean",
        "enum",
        "file",
        "integer",
        "intersection",
        "json-text",
        "null",
        "number",
        "object",
        "ref",
        "string",
        "union",
        "unknown",
      ].sort(),
    );
  });

  it("refuses what the IR must not hold", () => {
    const ir = JSON.parse(readFileSync(new URL("../../generated/ir.json", import.meta.url), "utf8")) as Record<string, unknown>;
    expect(problems({ ...ir, extra: 1 })).not.toEqual([]);
    expect(problems({ ...ir, irVersion: "0.0.0" })).not.toEqual([]);
    expect(problems({ ...ir, schemas: [{ name: "X", identifier: "X", schema: { kind: "string", bogus: true } }] })).not.toEqual([]);
    expect(problems({ ...ir, schemas: [{ name: "X", identifier: "X", schema: { kind: "array" } }] })).not.toEqual([]);
    expect(problems({ ...ir, schemas: [{ name: "X", identifier: "X", schema: { kind: "tuple" } }] })).not.toEqual([]);
    expect(problems({ ...ir, schemas: [{ name: "X", identifier: "1X", schema: { kind: "unknown" } }] })).not.toEqual([]);
  });

  it("declares exactly the fields of every interface of types.ts, with the same required-ness", () => {
    const project = new Project({ skipAddingFilesFromTsConfig: true });
    const file = project.addSourceFileAtPath(decodeURIComponent(TYPES_FILE.pathname));
    const mismatches: string[] = [];
    for (const iface of file.getInterfaces()) {
      const def = iface.getName() === "IR" ? irSchema : irSchema.$defs[iface.getName()];
      if (iface.getName() === "SchemaMeta") continue;
      if (!def) {
        mismatches.push(`${iface.getName()}: no $defs entry`);
        continue;
      }
      const props = iface.getType().getProperties();
      const names = props.map((p) => p.getName()).sort();
      const required = props
        .filter((p) => !p.isOptional())
        .map((p) => p.getName())
        .sort();
      if (def.additionalProperties !== false) mismatches.push(`${iface.getName()}: not closed`);
      if (JSON.stringify(Object.keys(def.properties ?? {}).sort()) !== JSON.stringify(names))
        mismatches.push(`${iface.getName()}: properties differ`);
      if (JSON.stringify([...(def.required ?? [])].sort()) !== JSON.stringify(required))
        mismatches.push(`${iface.getName()}: required differs`);
    }
    expect(mismatches).toEqual([]);
  });
});

describe("IR versioning", () => {
  const lock = JSON.parse(readFileSync(LOCK_FILE, "utf8")) as { versions: ShapeEntry[] };

  it("records the current shape of types.ts and ir.schema.json under the current IR_VERSION", () => {
    const now = currentShape(IR_VERSION);
    const last = lock.versions.at(-1);
    const hint =
      `The IR's shape (generator/ir/types.ts or ir.schema.json) differs from the entry recorded for ${last?.irVersion}.\n` +
      "Bump IR_VERSION in generator/ir/types.ts, run `npm run ir-schema`, then append to test/ir/ir-shape.lock.json:\n" +
      JSON.stringify(currentShape(IR_VERSION), null, 2);
    expect(last, hint).toEqual(now);
  });

  it("keeps versions strictly increasing, so a new shape needs a new version", () => {
    const parse = (v: string) => v.split(".").map(Number);
    for (let i = 1; i < lock.versions.length; i++) {
      const [a, b] = [parse(lock.versions[i - 1]!.irVersion), parse(lock.versions[i]!.irVersion)];
      const cmp = a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;
      expect(cmp, `${lock.versions[i - 1]!.irVersion} before ${lock.versions[i]!.irVersion}`).toBeLessThan(0);
    }
    for (const entry of lock.versions) expect(entry.irVersion).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("never rewrites a committed entry (append-only against HEAD)", async () => {
    const run = promisify(execFile);
    const committed = await run("git", ["show", "HEAD:test/ir/ir-shape.lock.json"], { cwd: new URL("../../", import.meta.url) }).catch(
      () => undefined,
    );
    if (!committed) return; // not committed yet, or no git: nothing to compare with
    const before = (JSON.parse(committed.stdout) as { versions: ShapeEntry[] }).versions;
    expect(lock.versions.slice(0, before.length)).toEqual(before);
  });
});
