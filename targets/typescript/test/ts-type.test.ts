// The TypeScript type printer: a tree that knows precedence, never text searched for `|` and `&`.
import { describe, expect, it } from "vitest";
import type { Schema } from "../../../generator/ir/types.js";
import { atom, printNode, printType, type TypeNode, type TypeScope } from "../emit/ts-type.js";

const scope: TypeScope = { named: new Map(), inline: new Set() };
const obj = (name: string): Schema => ({
  kind: "object",
  properties: [{ name, required: true, schema: { kind: "string" } }],
  additionalProperties: false,
});

describe("printNode", () => {
  const a = atom("A");
  const b = atom("B");
  const c = atom("C");
  it.each<{ given: TypeNode; want: string }>([
    { given: { kind: "union", members: [a, b] }, want: "A | B" },
    { given: { kind: "intersection", members: [a, { kind: "union", members: [b, c] }] }, want: "A & (B | C)" },
    { given: { kind: "union", members: [{ kind: "intersection", members: [a, b] }, c] }, want: "(A & B) | C" },
    { given: { kind: "array", item: { kind: "union", members: [a, b] } }, want: "(A | B)[]" },
    { given: { kind: "array", item: a }, want: "A[]" },
    { given: { kind: "array", item: atom("Record<string, never>") }, want: "(Record<string, never>)[]" },
    { given: { kind: "union", members: [] }, want: "never" },
    { given: { kind: "array", item: { kind: "array", item: a } }, want: "(A[])[]" },
  ])("$want", ({ given, want }) => {
    expect(printNode(given)).toBe(want);
  });
});

describe("printType", () => {
  it.each<{ given: Schema; want: string }>([
    {
      // properties plus a oneOf of two objects: the own shape applies to both members.
      given: { kind: "intersection", members: [obj("name"), { kind: "union", mode: "oneOf", members: [obj("a"), obj("b")] }] },
      want: "{\n  name: string;\n} & ({\n  a: string;\n} | {\n  b: string;\n})",
    },
    { given: { kind: "enum", values: ["x", { o: 1 } as unknown as string] }, want: '"x" | Record<string, unknown>' },
    { given: { kind: "union", mode: "anyOf", members: [] }, want: "never" },
    { given: { kind: "array", items: { kind: "enum", values: ["a", "b"] } }, want: '("a" | "b")[]' },
    {
      given: { kind: "union", mode: "anyOf", members: [{ kind: "enum", values: ["a", "b"] }, { kind: "null" }] },
      want: '("a" | "b") | null',
    },
  ])("$want", ({ given, want }) => {
    expect(printType(given, scope)).toBe(want);
  });
});
