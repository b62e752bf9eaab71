// allOf members that only annotate (description, title, examples...) add no constraint: an allOf of one reference
// and such members is that reference, with their description, so that every target names the schema instead of
// copying or dropping it (AWS descriptions write `allOf: [{$ref}, {description}]` for every documented reference).
import { describe, expect, it } from "vitest";
import { buildIR } from "../../generator/ir/build.js";
import type { IR, Schema } from "../../generator/ir/types.js";
import { checkDescription } from "../../generator/spec/load.js";

async function irOf(properties: Record<string, unknown>): Promise<IR> {
  const schemas = { Node: { type: "object", properties }, Leaf: { type: "object", properties: { id: { type: "string" } } } };
  const document = { openapi: "3.0.3", info: { title: "allof", version: "1" }, paths: {}, components: { schemas } };
  return buildIR(await checkDescription({ source: "allof.json", text: JSON.stringify(document), document }));
}

const property = (ir: IR, name: string): Schema | undefined => {
  const node = ir.schemas.find((s) => s.name === "Node")?.schema;
  return node?.kind === "object" ? node.properties.find((p) => p.name === name)?.schema : undefined;
};

describe("allOf with annotation-only members", () => {
  it("is the one reference it holds, with the member's description", async () => {
    const ir = await irOf({
      parent: { allOf: [{ $ref: "#/components/schemas/Node" }, { description: "The parent.", "x-note": 1 }] },
      leaf: { allOf: [{ title: "A leaf" }, { $ref: "#/components/schemas/Leaf" }, { example: { id: "a" } }] },
      own: { description: "Own text.", allOf: [{ $ref: "#/components/schemas/Leaf" }, { description: "Member text." }] },
    });
    expect(property(ir, "parent")).toEqual({ kind: "ref", name: "Node", description: "The parent." });
    expect(property(ir, "leaf")).toEqual({ kind: "ref", name: "Leaf", description: "A leaf", examples: [{ id: "a" }] });
    expect(property(ir, "own")).toEqual({ kind: "ref", name: "Leaf", description: "Own text." });
  });

  it("keeps members that constrain, and an allOf of annotations only", async () => {
    const ir = await irOf({
      typed: { allOf: [{ $ref: "#/components/schemas/Leaf" }, { type: "object", description: "Typed." }] },
      nullable: { allOf: [{ $ref: "#/components/schemas/Leaf" }, { nullable: true }] },
      bare: { allOf: [{ description: "Only text." }] },
    });
    expect(property(ir, "typed")?.kind).toBe("intersection");
    expect(property(ir, "nullable")?.kind).toBe("intersection");
    expect(property(ir, "bare")).toEqual({ kind: "unknown", description: "Only text." });
  });
});
