import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseDescription } from "../../generator/spec/read.js";

const read = (text: string) => parseDescription("d.yaml", text);
const asYaml = (text: string) => parse(text, { maxAliasCount: 10_000, uniqueKeys: true }) as unknown;

describe("reading a YAML description", () => {
  it("reads every scalar as the `yaml` package's YAML 1.2 core schema does", () => {
    const text = [
      "openapi: 3.1.0",
      "numbers: [12, -3, +4, 0o17, 0x1F, 1.50, .5, 1e3, -2.5E-2, .inf, -.Inf, 1_000, 0b11, 012, 1.2.3]",
      "words: [true, False, TRUE, yes, no, on, null, Null, ~, '', 2026-11-27, 2026-11-27T09:00:00Z]",
      "200: a status as a key",
      "1.0: a float key",
      "<<: {merged: no}",
      "empty:",
      "block: |",
      "  two",
      "  lines",
      "anchored: &a {x: 1, list: [1, 2]}",
      "again: *a",
    ].join("\n");
    const value = read(text);
    expect(JSON.stringify(value)).toBe(JSON.stringify(asYaml(text)));
    expect(Number.isNaN((read("nan: [.nan, .NaN]") as { nan: number[] }).nan[0])).toBe(true);
  });

  it("names a key written as null as the `yaml` package does", () => {
    for (const text of ["~: 1\nb: 2", "null: 1", "a:\n  - null: 2", "{Null: 1}"]) expect(read(text)).toEqual(asYaml(text));
  });

  it("reports a bad text with its line and column", () => {
    expect(() => read("a: 1\na: 2\n")).toThrow(/^d\.yaml: not valid YAML or JSON: Map keys must be unique at line 2, column 1/);
    expect(() => read("a:\n  b: 1\n c: 2\n")).toThrow(/^d\.yaml: not valid YAML or JSON: .* at line 3, column 1/);
    expect(() => read("a: *missing\n")).toThrow(/^d\.yaml: not valid YAML or JSON: .*missing/);
    expect(() => read("- a\n- b\n")).toThrow("d.yaml: the description must be an object at its root");
  });

  it("shows the lines where a bad text goes wrong, under the message", () => {
    expect(() => read("openapi: 3.0.0\ninfo:\n  title: x\n   bad: [\n")).toThrow(/at line 3, column 10:\n {4} {2}title: x\n {4} {9}\^$/);
  });

  it("refuses aliases that multiply the document, as the `yaml` package does", () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 6; i++)
      levels.push(
        `${"abcdef"[i]}: &${"abcdef"[i]} [${Array(10)
          .fill(`*${"abcdef"[i - 1]}`)
          .join(", ")}]`,
      );
    expect(() => read(levels.join("\n"))).toThrow(/^d\.yaml: not valid YAML or JSON: Excessive alias count/);
    // A few aliases, as descriptions use them for shared parameters, are read.
    expect(read("p: &p [1, 2]\nq: *p\nr: *p")).toEqual({ p: [1, 2], q: [1, 2], r: [1, 2] });
  });
});
