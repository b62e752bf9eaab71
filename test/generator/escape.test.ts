// The escapers through which every text of a description reaches generated code, one per target context.
import { execFileSync } from "node:child_process";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { htmlCommentText, plainCommentText } from "../../generator/emit/kit.js";
import { pyComment, pyDocInline, pyDocstring, pyLiteralType, pyString } from "../../targets/python/emit/escape.js";
import {
  tsAccess,
  tsDocCode,
  tsDocText,
  tsLineComment,
  tsLiteralType,
  tsObjectKey,
  tsString,
  tsTypeKey,
  tsValue,
} from "../../targets/typescript/emit/escape.js";

/** Texts written to break generators: comment ends, quotes, every kind of line break, NUL, lone surrogates. */
const HOSTILE = [
  "plain",
  "*/ globalThis.pwned = 1; /*",
  'quote " and \\ backslash',
  "line\nbreak\r\ncrlf\rcr",
  "sep\u2028and\u2029para",
  "nul\u0000bell\u0007esc\u001bdel\u007fnel\u0085",
  "lone \ud800 surrogate \udc00",
  "pair \ud83d\ude00",
  '"""triple""" and trailing "',
  "ends with backslash \\",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: text that would run if it ended up in a template literal
  "`${process.exit(1)}`",
  "# -*- coding: latin-1 -*-",
  "@throws {@link X}",
  "__proto__",
];

describe("TypeScript escapers", () => {
  it.each([
    { given: "a */ b", want: "a *\\/ b" },
    { given: "see @link", want: "see \\@link" },
    { given: "a\r\nb\rc\u2028d", want: "a\nb\nc\nd" },
    { given: "nul\u0000", want: "nul\\u0000" },
    { given: "lone \ud800", want: "lone \\ud800" },
  ])("tsDocText($given)", ({ given, want }) => {
    expect(tsDocText(given)).toBe(want);
  });

  it.each([
    { given: "a`b\nc", want: "a'b c" },
    { given: "*/", want: "*\\/" },
  ])("tsDocCode($given)", ({ given, want }) => {
    expect(tsDocCode(given)).toBe(want);
  });

  it.each([
    { given: "a\nb\u2029c", want: "a b c" },
    { given: "x\u0000", want: "x\\u0000" },
  ])("tsLineComment($given)", ({ given, want }) => {
    expect(tsLineComment(given)).toBe(want);
  });

  it.each([
    { given: "a", want: '"a"' },
    { given: 'a"b', want: '"a\\"b"' },
    { given: "\u2028", want: '"\\u2028"' },
  ])("tsString($given)", ({ given, want }) => {
    expect(tsString(given)).toBe(want);
  });

  it.each([
    { given: "name", want: "name" },
    { given: "__proto__", want: "__proto__" },
    { given: "invalid-request", want: '"invalid-request"' },
    { given: "[globalThis.x = 1]", want: '"[globalThis.x = 1]"' },
  ])("tsTypeKey($given)", ({ given, want }) => {
    expect(tsTypeKey(given)).toBe(want);
  });

  it.each([
    { given: "NOT_FOUND", want: '"NOT_FOUND"' },
    { given: "rate.limited", want: '"rate.limited"' },
    { given: "__proto__", want: '["__proto__"]' },
    { given: "[globalThis.x = 1]", want: '"[globalThis.x = 1]"' },
  ])("tsObjectKey($given)", ({ given, want }) => {
    expect(tsObjectKey(given)).toBe(want);
  });

  it.each([
    { given: { name: "a", optional: false }, want: ".a" },
    { given: { name: "a-b", optional: false }, want: '["a-b"]' },
    { given: { name: "a-b", optional: true }, want: '?.["a-b"]' },
  ])("tsAccess($given.name, $given.optional)", ({ given, want }) => {
    expect(tsAccess(given.name, given.optional)).toBe(want);
  });

  it.each([
    { given: "x", want: '"x"' },
    { given: -1, want: "-1" },
    { given: null, want: "null" },
    { given: { a: 1 }, want: "Record<string, unknown>" },
    { given: [1], want: "unknown[]" },
  ])("tsLiteralType($given)", ({ given, want }) => {
    expect(tsLiteralType(given)).toBe(want);
  });

  it.each([
    { given: { a: [1, "x"], b: {} }, want: JSON.stringify({ a: [1, "x"], b: {} }, null, 2) },
    { given: { __proto__: null, x: 1 }, want: '{\n  "x": 1\n}' },
    { given: Object.fromEntries([["__proto__", { status: 400 }]]), want: '{\n  ["__proto__"]: {\n    "status": 400\n  }\n}' },
  ])("tsValue($given)", ({ given, want }) => {
    expect(tsValue(given, 2)).toBe(want);
  });

  it("keeps every hostile text exact in strings and keys, and inside one comment", () => {
    for (const text of HOSTILE) {
      // The printed literal parses to one string expression and evaluates to the text itself.
      expect(new Function(`return ${tsString(text)};`)()).toBe(text);
      const object = new Function(`return { ${tsObjectKey(text)}: 1 };`)() as object;
      expect(Object.getOwnPropertyNames(object)).toEqual([text]);
      expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
      // A comment holding the text leaves nothing but the comment.
      for (const comment of [`/** ${tsDocText(text)} ${tsDocCode(text)} */`, `// ${tsLineComment(text)}\n`]) {
        const source = ts.createSourceFile("x.ts", `${comment}export {};`, ts.ScriptTarget.Latest);
        expect(source.statements.length, comment).toBe(1);
        expect(source.statements[0]!.getText(source), comment).toBe("export {};");
      }
    }
  });

  it("prints object values whose keys come from the description as data, not as prototypes", () => {
    const value = Object.fromEntries(HOSTILE.map((k) => [k, k]));
    const back = new Function(`return ${tsValue(value, 2)};`)() as Record<string, string>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toEqual(Object.keys(value));
    for (const key of HOSTILE) expect(back[key]).toBe(key);
  });
});

describe("Python escapers", () => {
  it.each([
    { given: "a\rimport os", want: "a import os" },
    { given: "a\u2028b\u0085c\fd", want: "a b c d" },
    { given: "nul\u0000", want: "nul\\x00" },
    { given: "-*- coding: latin-1 -*-", want: "-*- coding : latin-1 -*-" },
  ])("pyComment($given)", ({ given, want }) => {
    expect(pyComment(given)).toBe(want);
  });

  it.each([
    { given: { text: "one", indent: 4 }, want: '    """one"""' },
    { given: { text: 'ends "', indent: 0 }, want: '"""ends " """' },
    { given: { text: 'a """ b\\', indent: 0 }, want: '"""a \\"\\"\\" b\\\\"""' },
    { given: { text: "a\r\nb", indent: 2 }, want: '  """a\n  b\n  """' },
    { given: { text: " \n ", indent: 2 }, want: "" },
  ])("pyDocstring($given.text)", ({ given, want }) => {
    expect(pyDocstring(given.text, given.indent)).toBe(want);
  });

  it.each([
    { given: "a\nb  c", want: "a b c" },
    { given: "\u0000", want: "\\x00" },
  ])("pyDocInline($given)", ({ given, want }) => {
    expect(pyDocInline(given)).toBe(want);
  });

  it.each([
    { given: "a", want: '"a"' },
    { given: "\u2028\u0085", want: '"\\u2028\\x85"' },
    { given: "\u0000", want: '"\\u0000"' },
  ])("pyString($given)", ({ given, want }) => {
    expect(pyString(given)).toBe(want);
  });

  const wide = (kind: string) => `<${kind}>`;
  it.each([
    { given: ["a", 1, true, null], want: '_t.Literal["a", 1, True, None]' },
    { given: [1.5], want: "<float>" },
    { given: [1e21], want: "<float>" },
    { given: ["a", { b: 1 }], want: '_t.Union[_t.Literal["a"], <dict>]' },
    { given: [[1]], want: "<list>" },
    { given: [], want: "_t.NoReturn" },
    { given: ["a", "a"], want: '_t.Literal["a"]' },
  ])("pyLiteralType($given)", ({ given, want }) => {
    expect(pyLiteralType(given, wide)).toBe(want);
  });

  it("keeps every hostile text exact in strings and docstrings, and inside one comment line (checked by python3)", () => {
    const lines = HOSTILE.flatMap((text, i) => [
      `s${i} = ${pyString(text)}`,
      `def f${i}():`,
      pyDocstring(text, 4) || "    pass",
      `# ${pyComment(text)}`,
    ]);
    const program = `${lines.join("\n")}\nimport json, sys\nsys.stdout.write(json.dumps([[globals()[f"s{i}"], (globals()[f"f{i}"].__doc__ or "")] for i in range(${HOSTILE.length})]))\n`;
    const out = execFileSync("python3", ["-c", "import sys; exec(compile(sys.stdin.read(), 'x.py', 'exec'))"], { input: program });
    const values = JSON.parse(out.toString("utf8")) as [string, string][];
    // Lone surrogates cannot cross UTF-8; JSON carries them as escapes, so they compare exactly.
    expect(values.map(([s]) => s)).toEqual(HOSTILE);
    // A docstring reads back as the text, its line breaks made LF and its lines trimmed.
    const lines_ = (t: string) =>
      t
        // biome-ignore lint/suspicious/noControlCharactersInRegex: Python's line breaks include controls
        .split(/\r\n|[\r\n\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]/)
        .map((l) => l.trim())
        .join("\n")
        .trim();
    expect(values.map(([, doc]) => lines_(doc))).toEqual(HOSTILE.map(lines_));
  });
});

describe("the shared comment escapers", () => {
  it.each([
    ["Pets -- the API", "Pets - - the API"],
    ["a --> b", "a - -> b"],
    ["line\nbreak\r\nand\u2028more", "line break and more"],
    ["---", "- - -"],
  ])("htmlCommentText(%j) is %j", (text, escaped) => {
    expect(htmlCommentText(text)).toBe(escaped);
    expect(htmlCommentText(text)).not.toContain("--");
  });

  it("plainCommentText keeps a comment one line and writes controls as escapes", () => {
    expect(plainCommentText("a\nb\u0007")).toBe("a b\\u0007");
  });
});
