// The function, call and object layout of generated TypeScript (ts-functions.ts): each case a small tree and the
// text it prints.
import { describe, expect, it } from "vitest";
import { call, constant, fitExpression, id, objectOf, printFunction, printStatement, readProperty, returns } from "../emit/ts-functions.js";
import { exportedConstant } from "../emit/ts-file.js";
import { factory as f, MAX_LINE, printNode, typeRef } from "../emit/ts-nodes.js";
import { ts } from "../emit/typescript.js";

const name = (n: number, letter = "A") => letter.repeat(n);

/** `(a, b) => body`, its parameters typed by the constant's type. */
const arrow = (parameters: readonly string[], body: Parameters<typeof f.createArrowFunction>[5]) =>
  f.createArrowFunction(
    undefined,
    undefined,
    parameters.map((p) => f.createParameterDeclaration(undefined, undefined, p)),
    undefined,
    f.createToken(ts.SyntaxKind.EqualsGreaterThanToken),
    body,
  );

describe("printFunction", () => {
  it.each([
    {
      case: "a signature that fits stays on one line",
      spec: {
        name: "get",
        doc: ["Gets."],
        parameters: [
          { name: "client", type: typeRef("Runtime") },
          { name: "options", type: typeRef("RequestOptions"), optional: true },
        ],
        returnType: typeRef("Promise", [typeRef("R")]),
        body: [returns(call("send", undefined, [id("client"), id("options")]))],
      },
      text: [
        "/** Gets. */",
        "export function get(client: Runtime, options?: RequestOptions): Promise<R> {",
        "  return send(client, options);",
        "}",
      ],
    },
    {
      case: "a signature too long for a line takes a parameter a line, with a trailing comma",
      spec: {
        name: "get",
        doc: [],
        parameters: [
          { name: "client", type: typeRef(name(50)) },
          { name: "params", type: typeRef(name(50, "B")), optional: true },
        ],
        returnType: typeRef("Promise", [typeRef("R")]),
        body: [returns(id("x"))],
      },
      text: ["export function get(", `  client: ${name(50)},`, `  params?: ${name(50, "B")},`, "): Promise<R> {", "  return x;", "}"],
    },
    {
      case: "an overload ending in a rest parameter has no comma after it",
      spec: {
        name: "add",
        doc: [],
        parameters: [
          { name: "body", type: typeRef(name(60)) },
          { name: "options", type: typeRef(name(60, "O")), rest: true },
        ],
        returnType: typeRef("Promise", [typeRef("R")]),
      },
      text: ["export function add(", `  body: ${name(60)},`, `  ...options: ${name(60, "O")}`, "): Promise<R>;"],
    },
  ])("$case", ({ spec, text }) => {
    expect(printFunction(spec).split("\n")).toEqual(text);
  });
});

describe("printStatement", () => {
  it.each([
    {
      case: "a call that fits stays on one line",
      statement: returns(call("send", [typeRef("R")], [id("client"), objectOf([["query", objectOf([["a", id("b")]])]])])),
      column: 2,
      text: ["return send<R>(client, { query: { a: b } });"],
    },
    {
      case: "a call too long for a line takes an argument a line",
      statement: returns(call("send", undefined, [id(name(60)), id(name(60, "B")), id("options")])),
      column: 2,
      text: ["return send(", `  ${name(60)},`, `  ${name(60, "B")},`, "  options,", ");"],
    },
    {
      case: "a last object argument opens on the call's line",
      statement: returns(
        call("send", undefined, [
          objectOf([
            ["first", id(name(50))],
            ["second", id(name(50, "B"))],
          ]),
        ]),
      ),
      column: 2,
      text: ["return send({", `  first: ${name(50)},`, `  second: ${name(50, "B")}`, "});"],
    },
    {
      case: "a constant's call is laid out too",
      statement: constant("checked", call("check", undefined, [id(name(60)), id(name(60, "B")), id("c")])),
      column: 0,
      text: ["const checked = check(", `  ${name(60)},`, `  ${name(60, "B")},`, "  c,", ");"],
    },
    {
      case: "a constant's call keeps the constant's doc on one line",
      statement: exportedConstant("bound", call("bind", undefined, [id("model")]), ["Bound."]),
      column: 0,
      text: ["/** Bound. */", "export const bound = bind(model);"],
    },
    {
      case: "a constant's call too long for a line keeps the constant's doc",
      statement: exportedConstant("bound", call("bind", undefined, [id(name(60)), id(name(60, "B"))]), ["Bound."]),
      column: 0,
      text: ["/** Bound. */", "export const bound = bind(", `  ${name(60)},`, `  ${name(60, "B")},`, ");"],
    },
    {
      case: "an object argument made to take a line per property keeps them where the lines fit",
      statement: returns(
        call("send", undefined, [id("client"), f.createObjectLiteralExpression([f.createPropertyAssignment("a", id("b"))], true)]),
      ),
      column: 2,
      text: ["return send(client, {", "  a: b", "});"],
    },
    {
      case: "an arrow constant that fits stays on one line",
      statement: exportedConstant("wait", arrow(["a", "b"], call("waitOf", undefined, [id("a"), id("b")])), ["Waits."], typeRef("W")),
      column: 0,
      text: ["/** Waits. */", "export const wait: W = (a, b) => waitOf(a, b);"],
    },
    {
      case: "an arrow's body that does not fit goes on the next line, and keeps the constant's doc",
      statement: exportedConstant(
        "submit",
        arrow(["client", name(40)], call("submitOf", undefined, [id("client"), id(name(40)), id(name(40, "B"))])),
        ["Submits."],
        f.createTypeQueryNode(id("submitOf")),
      ),
      column: 0,
      text: [
        "/** Submits. */",
        `export const submit: typeof submitOf = (client, ${name(40)}) =>`,
        `  submitOf(client, ${name(40)}, ${name(40, "B")});`,
      ],
    },
    {
      case: "an arrow's body too long for its own line takes an argument a line",
      statement: constant("x", arrow(["a", "b"], call("send", undefined, [id(name(60)), id(name(60, "B"))]))),
      column: 0,
      text: ["const x = (a, b) =>", "  send(", `    ${name(60)},`, `    ${name(60, "B")},`, "  );"],
    },
  ])("$case", ({ statement, column, text }) => {
    expect(printStatement(statement, column).split("\n")).toEqual(text);
  });
});

describe("fitExpression", () => {
  it("keeps an object that fits on one line and breaks one that does not, at each level", () => {
    const inner = objectOf([
      ["a", id(name(70))],
      ["b", id(name(70, "B"))],
    ]);
    const outer = objectOf([
      ["small", objectOf([["x", id("y")]])],
      ["big", inner],
    ]);
    expect(printNode(fitExpression(objectOf([["x", id("y")]]), 0))).toBe("{ x: y }");
    expect(printNode(fitExpression(outer, 0)).split("\n")).toEqual([
      "{",
      "  small: { x: y },",
      "  big: {",
      `    a: ${name(70)},`,
      `    b: ${name(70, "B")}`,
      "  }",
      "}",
    ]);
  });

  it("counts the column it starts at and what follows it", () => {
    const object = objectOf([["a", id(name(MAX_LINE - "{ a:  }".length))]]);
    expect(printNode(fitExpression(object, 0))).not.toContain("\n");
    expect(printNode(fitExpression(object, 0, 1))).toContain("\n");
  });
});

describe("objectOf and readProperty", () => {
  it.each([
    { case: "an identifier key", entries: [["a", "x"]], text: "{ a: x }" },
    { case: "another key quoted", entries: [["a-b", "x"]], text: '{ "a-b": x }' },
    { case: "__proto__ computed, so that it stays a key", entries: [["__proto__", "x"]], text: '{ ["__proto__"]: x }' },
  ] as const)("$case", ({ entries, text }) => {
    expect(printNode(objectOf(entries.map(([k, v]) => [k, id(v)])))).toBe(text);
  });

  it.each([
    { name: "id", optional: false, inherited: false, text: "params.id" },
    { name: "id", optional: true, inherited: false, text: "params?.id" },
    { name: "a-b", optional: false, inherited: false, text: 'params["a-b"]' },
    { name: "a-b", optional: true, inherited: false, text: 'params?.["a-b"]' },
    {
      name: "constructor",
      optional: false,
      inherited: true,
      text: '(Object.hasOwn(params, "constructor") ? params["constructor"] : undefined)',
    },
    {
      name: "toString",
      optional: true,
      inherited: true,
      text: '(params !== undefined && Object.hasOwn(params, "toString") ? params["toString"] : undefined)',
    },
  ])("reads $name (optional $optional)", ({ name: key, optional, inherited, text }) => {
    expect(printNode(readProperty("params", key, optional, inherited))).toBe(text);
  });

  it("prints an empty object literal as {}", () => {
    expect(printNode(f.createObjectLiteralExpression([], false))).toBe("{}");
  });
});
