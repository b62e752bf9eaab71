// The merge of an intersection into one object (flattenObject), as docs/ir.md states it for generators in any
// language: each pair is a tiny input and the object it becomes.
import { describe, expect, it } from "vitest";
import { flattenObject } from "../../generator/ir/flatten.js";
import type { Schema } from "../../generator/ir/types.js";

const str: Schema = { kind: "string" };
const int: Schema = { kind: "integer" };
const obj = (props: [string, Schema, boolean][], additionalProperties: boolean | Schema = false, description?: string): Schema => ({
  kind: "object",
  properties: props.map(([name, schema, required]) => ({ name, schema, required })),
  additionalProperties,
  ...(description !== undefined && { description }),
});
const named = new Map<string, Schema>([
  [
    "Base",
    obj(
      [
        ["id", str, true],
        ["note", str, false],
      ],
      false,
      "The base.",
    ),
  ],
  ["Loop", { kind: "intersection", members: [{ kind: "ref", name: "Loop" }, obj([["x", int, false]])] }],
]);

describe("flattenObject", () => {
  it.each<[string, Schema, Schema]>([
    [
      "members in order; a later property's schema wins; required is the union",
      {
        kind: "intersection",
        members: [
          { kind: "ref", name: "Base" },
          obj([
            ["note", int, true],
            ["extra", str, false],
          ]),
        ],
      },
      obj(
        [
          ["id", str, true],
          ["note", int, true],
          ["extra", str, false],
        ],
        false,
        "The base.",
      ),
    ],
    [
      "open when any member is open",
      { kind: "intersection", members: [{ kind: "ref", name: "Base" }, obj([], true)] },
      obj(
        [
          ["id", str, true],
          ["note", str, false],
        ],
        true,
        "The base.",
      ),
    ],
    [
      "a typed additionalProperties is kept, not made true",
      { kind: "intersection", members: [{ kind: "ref", name: "Base" }, obj([], { kind: "integer" })] },
      obj(
        [
          ["id", str, true],
          ["note", str, false],
        ],
        { kind: "integer" },
        "The base.",
      ),
    ],
    ["a reference already on the path is not entered again (recursion ends)", { kind: "ref", name: "Loop" }, obj([["x", int, false]])],
    ["what is no object adds nothing", { kind: "intersection", members: [str, obj([["a", str, false]])] }, obj([["a", str, false]])],
  ])("%s", (_what, input, expected) => {
    expect(flattenObject(input, named)).toEqual(expected);
  });
});
