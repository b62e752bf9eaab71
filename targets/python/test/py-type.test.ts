// Python annotations printed from a type tree, and the split of the model types into modules.
import { describe, expect, it } from "vitest";
import {
  isPyRef,
  printPyType,
  type PyType,
  pyBuiltin,
  pyDict,
  pyList,
  pyLiteral,
  pyOptional,
  pyRef,
  pyTypeRefs,
  pyUnion,
} from "../emit/py-type.js";
import { splitByPrefix } from "../emit/type-modules.js";

const quoted = (id: string) => JSON.stringify(id);
const client = (id: string) => `_ty.${id}`;

describe("printPyType", () => {
  const cases: { given: PyType; style?: (id: string) => string; want: string }[] = [
    { given: pyBuiltin("str"), want: "str" },
    { given: pyRef("Pet"), want: '"Pet"' },
    { given: pyRef("Pet"), style: client, want: "_ty.Pet" },
    { given: pyList(pyRef("Pet")), want: 'list["Pet"]' },
    { given: pyDict(pyList(pyBuiltin("int"))), want: "dict[str, list[int]]" },
    // Nested unions are spread, each member once, in first-seen order.
    {
      given: pyUnion([pyBuiltin("str"), pyUnion([pyBuiltin("int"), pyBuiltin("str")]), pyBuiltin("None")]),
      want: "str | int | None",
    },
    { given: pyUnion([pyRef("A"), pyRef("A")]), want: '"A"' },
    // No member (a `false` schema): no value fits.
    { given: pyUnion([]), want: "_t.NoReturn" },
    { given: pyList(pyUnion([])), want: "list[_t.NoReturn]" },
    { given: pyOptional(pyUnion([pyRef("A"), pyBuiltin("int")])), style: client, want: "_ty.A | int | None" },
    { given: pyOptional(pyBuiltin("None")), want: "None" },
    // Literal takes str, int, bool and None; a float, list or object value widens the type instead.
    { given: pyLiteral(["a", 1, true, null, "a", -0]), want: '_t.Literal["a", 1, True, None, 0]' },
    { given: pyLiteral([1.5, "x"]), want: '_t.Literal["x"] | float' },
    { given: pyLiteral([{ a: 1 }]), want: 'dict[str, "JsonValue"]' },
    { given: pyLiteral([[1], { a: 1 }]), style: client, want: "list[_ty.JsonValue] | dict[str, _ty.JsonValue]" },
    { given: pyLiteral([]), want: "_t.NoReturn" },
    { given: pyLiteral(['quote " */\n']), want: '_t.Literal["quote \\" */\\n"]' },
  ];
  for (const { given, style = quoted, want } of cases) {
    it(`${JSON.stringify(given)} -> ${want}`, () => {
      expect(printPyType(given, style)).toBe(want);
    });
  }
});

describe("isPyRef", () => {
  it.each([
    { given: pyRef("JsonValue"), want: true },
    { given: pyUnion([pyRef("JsonValue"), pyUnion([pyRef("JsonValue")])]), want: true },
    { given: pyUnion([pyRef("JsonValue"), pyBuiltin("int")]), want: false },
    { given: pyList(pyRef("JsonValue")), want: false },
  ])("$given -> $want", ({ given, want }) => {
    expect(isPyRef(given, "JsonValue")).toBe(want);
  });
});

describe("pyTypeRefs", () => {
  it.each([
    { given: pyUnion([pyList(pyRef("A")), pyDict(pyRef("B")), pyOptional(pyRef("A"))]), want: ["A", "B"] },
    { given: pyLiteral([{ x: 1 }]), want: ["JsonValue"] },
    { given: pyBuiltin("int"), want: [] },
  ])("$want", ({ given, want }) => {
    expect([...pyTypeRefs(given)].sort()).toEqual(want);
  });
});

describe("splitByPrefix", () => {
  const items = (spec: string) =>
    spec.split(" ").map((s) => {
      const [name, lines] = s.split(":");
      return { name: name!, lines: Number(lines) };
    });
  const groups = (spec: string, limit: number) =>
    splitByPrefix(items(spec), limit).map((g) => `${g.first}-${g.last}: ${g.items.map((i) => i.name).join(" ")}`);
  const cases: { given: [string, number]; want: string[] }[] = [
    // Everything fits: one module.
    { given: ["Pet:10 Owner:10 Apple:10", 100], want: ["a-p: Pet Owner Apple"] },
    // Neighbouring prefixes share a module while they fit; names keep their order inside one.
    { given: ["Bb:40 Ab:40 Aa:30 Cc:50", 100], want: ["a-a: Ab Aa", "b-c: Bb Cc"] },
    // A letter too large for one module is split by its second letter, then deeper.
    {
      given: ["Ca:60 Cb:60 Cba:60 Cbb:60 D:10", 100],
      want: ["ca-ca: Ca", "cb-cb: Cb", "cba-cba: Cba", "cbb-d: Cbb D"],
    },
    // A declaration larger than the limit gets a module of its own; case does not separate names.
    { given: ["Big:500 big2:1 Small:1", 100], want: ["big-big: Big", "big2-s: big2 Small"] },
  ];
  for (const { given, want } of cases) {
    it(`${given[0]} (limit ${given[1]})`, () => {
      expect(groups(...given)).toEqual(want);
      expect(groups(given[0].split(" ").reverse().join(" "), given[1]).map((g) => g.split(":")[0])).toEqual(
        want.map((g) => g.split(":")[0]),
      );
    });
  }
});
