import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { FixtureCase } from "../../generator/emit/fixtures/index.js";
import { loadDescription } from "../../generator/spec/load.js";
import { resolvePointer } from "../../generator/spec/pointer.js";
import { currentRelease, releaseFile } from "../support/service-releases.js";

// The generated fixtures are checked against the description itself (not the IR they were made from),
// with ajv's JSON Schema 2020-12 dialect, the dialect of OpenAPI 3.1.
const fixturesDir = fileURLToPath(new URL("../../generated/fixtures/", import.meta.url));
const { document } = await loadDescription(releaseFile(currentRelease()));
const BASE = "https://description.invalid/openapi.json";
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ $id: BASE, components: { schemas: (document.components as { schemas: unknown }).schemas } });

type Json = Record<string, unknown>;
/** Follows $refs to components other than schemas (responses, request bodies), which ajv does not hold. */
function follow(node: unknown): Json {
  let n = node as Json;
  while (typeof n?.$ref === "string") n = resolvePointer(document, n.$ref) as Json;
  return n;
}
function validator(schema: unknown) {
  return ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${BASE}#/components/schemas/`)));
}
/** The body as it travels: files as text parts, JSON-text fields as JSON text. */
function wire(body: Json, jsonStrings: readonly string[]): Json {
  const file = (v: unknown): unknown =>
    v !== null && typeof v === "object" && "$file" in v ? "<file>" : Array.isArray(v) ? v.map(file) : v;
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, jsonStrings.includes(k) ? JSON.stringify(v) : file(v)]));
}
const errorsOf = (validate: ReturnType<typeof validator>) => (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);

const files = (await readdir(join(fixturesDir, "operations"))).sort();
const paths = document.paths as Record<string, Record<string, Json>>;

describe.each(files)("fixtures/operations/%s", async (file) => {
  const fixture = JSON.parse(await readFile(join(fixturesDir, "operations", file), "utf8")) as {
    method: string;
    path: string;
    cases: FixtureCase[];
  };
  const operation = paths[fixture.path]![fixture.method.toLowerCase()]!;
  const variantsExt = operation["x-paperoffice-variants"] as
    | { pipelines: { slug: string; variants: { name: string; request: { $ref: string }; jsonStrings?: string[] }[] }[] }
    | undefined;

  it.each(fixture.cases.map((c) => [c.name, c] as const))("%s: the request is valid", (_name, c) => {
    const variant = variantsExt?.pipelines.find((p) => p.slug === c.pipeline)?.variants.find((v) => v.name === c.variant);
    if (c.request.body === undefined)
      return expect(operation.requestBody === undefined || !follow(operation.requestBody).required).toBe(true);
    const media = follow(operation.requestBody).content as Record<string, { schema: unknown }>;
    const body = wire(c.request.body as Json, variant?.jsonStrings ?? []);
    for (const schema of [media[c.request.mediaType ?? ""]!.schema, ...(variant ? [variant.request] : [])]) {
      const validate = validator(schema);
      expect(validate(body), errorsOf(validate).join("\n")).toBe(true);
    }
  });

  it.each(
    fixture.cases.flatMap((c) => Object.entries(c.responses).map(([status, body]) => [`${c.name} ${status}`, status, body] as const)),
  )("%s: the response is valid", (_name, status, body) => {
    const response = follow((operation.responses as Json)[status]);
    const content = response.content as Record<string, { schema: unknown }>;
    const schema = content["application/json"]?.schema ?? Object.values(content)[0]!.schema;
    const validate = validator(schema);
    // A binary body is kept as a `$file` (name, type, content); on the wire it is the content.
    const sent = body !== null && typeof body === "object" && "$file" in body ? (body as { $file: { text: string } }).$file.text : body;
    expect(validate(sent), errorsOf(validate).join("\n")).toBe(true);
  });

  it("has a response for every declared status with a body", () => {
    const declared = Object.entries(operation.responses as Json)
      .filter(([, r]) => follow(r).content !== undefined)
      .map(([s]) => s)
      .sort();
    for (const c of fixture.cases) expect(Object.keys(c.responses).sort()).toEqual(declared);
  });
});

describe("fixtures/webhooks.json", async () => {
  const deliveries = JSON.parse(await readFile(join(fixturesDir, "webhooks.json"), "utf8")) as { event: string; body: unknown }[];
  const webhooks = document.webhooks as Record<string, { post: Json }>;
  it("has a delivery for every event", () => {
    expect(deliveries.map((d) => d.event).sort()).toEqual(Object.keys(webhooks).sort());
  });
  it.each(deliveries.map((d) => [d.event, d.body] as const))("%s is a valid delivery body", (event, body) => {
    const content = follow(webhooks[event]!.post.requestBody).content as Record<string, { schema: unknown }>;
    const validate = validator(content["application/json"]!.schema);
    expect(validate(body), errorsOf(validate).join("\n")).toBe(true);
  });
});

describe("webhook delivery fixtures", () => {
  const description = {
    openapi: "3.1.0",
    info: { title: "hooks", version: "1" },
    webhooks: {
      "thing.done": {
        post: {
          requestBody: {
            required: true,
            content: { "application/json": { schema: { type: "object", required: ["kind"], properties: { kind: { type: "string" } } } } },
          },
          responses: { "200": { description: "ok" } },
        },
      },
    },
  };

  it("name the event only in the body field the description's conventions state, never in an invented one", async () => {
    const { buildIR } = await import("../../generator/ir/build.js");
    const { checkDescription } = await import("../../generator/spec/load.js");
    const { createKit } = await import("../../generator/emit/kit.js");
    const { emitFixtures } = await import("../../generator/emit/fixtures/index.js");
    const ir = buildIR(await checkDescription({ source: "hooks.json", text: JSON.stringify(description), document: description }));
    const files = await emitFixtures(ir, createKit());
    const deliveries = JSON.parse(files.find((f) => f.path === "fixtures/webhooks.json")!.content) as { body: Record<string, unknown> }[];
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.body).not.toHaveProperty("event_type");
    const named = {
      ...ir,
      conventions: {
        webhooks: { signature: { header: "X-Sig", prefix: "" }, headers: { eventId: "X-Id" }, body: { eventType: "kind", eventId: "id" } },
      },
    };
    const renamed = await emitFixtures(named, createKit());
    const body = (JSON.parse(renamed.find((f) => f.path === "fixtures/webhooks.json")!.content) as { body: Record<string, unknown> }[])[0]!
      .body;
    expect(body.kind).toBe("thing.done");
    expect(body).not.toHaveProperty("event_type");
  });
});
