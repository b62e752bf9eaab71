// exampleBody: a fixture body cut down for the usage examples every target writes, from the IR alone.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { exampleBody, fixtureCases } from "../../generator/emit/fixtures/index.js";
import { requestBodyContent } from "../../generator/emit/operation-files.js";
import { generate } from "../../generator/generate.js";
import type { IR, ObjectSchema } from "../../generator/ir/types.js";
import { currentRelease, releaseFile } from "../support/service-releases.js";

const small = fileURLToPath(new URL("./cases/small/openapi.yaml", import.meta.url));
type Body = Record<string, unknown>;
const isObject = (v: unknown): v is Body => v !== null && typeof v === "object" && !Array.isArray(v);

async function irOf(source: string): Promise<IR> {
  return (await generate(source, { emitters: [] })).ir;
}

describe("exampleBody", () => {
  for (const [label, source] of [
    ["the small description", small],
    ["the service", releaseFile(currentRelease())],
  ] as const) {
    it(`keeps of a pipeline variant's fixture its required fields, discriminator and "exactly one of" members (${label})`, async () => {
      const ir = await irOf(source);
      let dropped = 0;
      let cases = 0;
      for (const op of ir.operations.filter((o) => o.variants !== undefined)) {
        for (const c of fixtureCases(ir, op)) {
          const variant = op.variants!.pipelines.find((p) => p.slug === c.pipeline)!.variants.find((v) => v.name === c.variant)!;
          const body = c.request.body as Body;
          const cut = exampleBody(ir, op, c);
          if (!isObject(cut)) throw new Error(`${c.name}: the cut body is not an object`);
          const keep = new Set([
            ...variant.request.properties.filter((p) => p.required).map((p) => p.name),
            ...(variant.discriminator ? [variant.discriminator.property] : []),
            ...variant.exactlyOne.flat(),
          ]);
          expect(Object.keys(cut).sort(), c.name).toEqual(
            Object.keys(body)
              .filter((k) => keep.has(k))
              .sort(),
          );
          for (const [k, v] of Object.entries(cut)) expect(v, `${c.name} ${k}`).toEqual(body[k]);
          if (variant.discriminator) expect(cut[variant.discriminator.property], c.name).toBe(variant.discriminator.value);
          for (const group of variant.exactlyOne)
            expect(
              group.filter((m) => m in cut),
              c.name,
            ).toHaveLength(1);
          dropped += Object.keys(body).length - Object.keys(cut).length;
          cases += 1;
        }
      }
      expect(cases).toBeGreaterThan(0);
      expect(dropped, "optional fields the fixtures have and the examples leave out").toBeGreaterThan(0);
    });
  }

  it("keeps of another operation's object body its required top-level fields, and leaves other bodies as they are", async () => {
    const ir = await irOf(releaseFile(currentRelease()));
    let objects = 0;
    for (const op of ir.operations.filter((o) => o.variants === undefined)) {
      const c = fixtureCases(ir, op)[0]!;
      const cut = exampleBody(ir, op, c);
      if (c.request.body === undefined) {
        expect(cut, op.id).toBeUndefined();
        continue;
      }
      const schema = requestBodyContent(op)!.schema;
      const target = schema.kind === "ref" ? ir.schemas.find((s) => s.name === schema.name)!.schema : schema;
      if (target.kind !== "object" || !isObject(c.request.body)) {
        expect(cut, op.id).toEqual(c.request.body);
        continue;
      }
      const required = new Set((target as ObjectSchema).properties.filter((p) => p.required).map((p) => p.name));
      expect(Object.keys(cut as Body).sort(), op.id).toEqual(
        Object.keys(c.request.body)
          .filter((k) => required.has(k))
          .sort(),
      );
      objects += 1;
    }
    expect(objects).toBeGreaterThan(0);
  });
});
