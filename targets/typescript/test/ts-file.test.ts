// How tsFile lays out the statements of a file's body: each case a few printed statements and the text they make.
import { describe, expect, it } from "vitest";
import type { IR } from "../../../generator/ir/types.js";
import { tsFile } from "../emit/ts-file.js";
import type { TsKit } from "../emit/ts-kit.js";
import { ts } from "../emit/typescript.js";

const kit = { fileHeader: () => "// header" } as unknown as TsKit; // tsFile reads only the header
const ir = {} as IR;

function body(parts: readonly (string | { apart: string })[]): string {
  const file = tsFile(ir, kit, "x.ts", (statements) => {
    for (const p of parts) {
      if (typeof p === "string") statements.addPrinted(p);
      else statements.addStatement(classNamed(p.apart));
    }
  });
  return file.content.replace(/^\/\/ header\n/, "");
}

const classNamed = (name: string) =>
  ts.factory.createClassDeclaration([ts.factory.createModifier(ts.SyntaxKind.ExportKeyword)], name, undefined, undefined, []);

describe("tsFile's body", () => {
  it.each([
    {
      case: "statements that do not end with a brace: a line each",
      parts: ["const a = 1;", "const b = 2;"],
      text: "const a = 1;\nconst b = 2;\n",
    },
    { case: "after a brace: a blank line", parts: ["function a() {}", "const b = 2;"], text: "function a() {}\n\nconst b = 2;\n" },
    {
      case: "after a brace and trailing newlines: exactly one blank line",
      parts: ["function a() {}\n\n\n", "const b = 2;"],
      text: "function a() {}\n\nconst b = 2;\n",
    },
    {
      case: "a brace followed by spaces still counts",
      parts: ["type A = {}  ", "const b = 2;"],
      text: "type A = {}  \n\nconst b = 2;\n",
    },
    {
      case: "an empty statement between keeps the brace rule of the one before",
      parts: ["function a() {}", "", "const b = 2;"],
      text: "function a() {}\n\nconst b = 2;\n",
    },
    { case: "a class stands apart", parts: ["const a = 1;", { apart: "A" }], text: "const a = 1;\n\nexport class A {\n}\n" },
    {
      case: "a statement already ending with a newline gets no second",
      parts: ["const a = 1;\n", "const b = 2;"],
      text: "const a = 1;\nconst b = 2;\n",
    },
  ])("$case", ({ parts, text }) => {
    expect(body(parts)).toBe(text);
  });

  // A large description's operations.ts has tens of thousands of statements: joining them once looked at the whole
  // text so far for each, which took minutes on MS Graph's description.
  it("joins 40,000 statements in linear time", () => {
    const parts = Array.from({ length: 40_000 }, (_, i) => `export function f${i}(): void {}`);
    const started = performance.now();
    const text = body(parts);
    const took = performance.now() - started;
    expect(text.split("\n\n")).toHaveLength(40_000);
    expect(took).toBeLessThan(5_000);
  });
});
