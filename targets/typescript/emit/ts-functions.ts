// Functions, parameters and calls of generated TypeScript as syntax trees, and their layout in lines of at most
// MAX_LINE columns. TypeScript's printer puts a parameter list or an argument list on one line whatever its length;
// here a list that does not fit is printed an item a line, as formatters lay it out. The tree is the source: the
// layout only breaks lines between the items the printer printed, each item printed by the printer itself.
import type * as TS from "typescript";
import { ts } from "./typescript.js";
import { factory as f, MAX_LINE, printNode, propertyName, withDoc } from "./ts-nodes.js";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Stand-ins the layout prints in place of a list, then replaces; no generated name has this shape. */
const PARAMETERS = "__layout_parameters__";
const ARGUMENTS = "__layout_arguments__";
const BODY = "__layout_body__";

export interface ParameterSpec {
  readonly name: string;
  readonly type: TS.TypeNode;
  readonly optional?: boolean;
  readonly rest?: boolean;
  readonly initializer?: TS.Expression;
}

/** `name?: Type`, `...name: Type` or `name: Type = value`. */
export function parameter(p: ParameterSpec): TS.ParameterDeclaration {
  return f.createParameterDeclaration(
    undefined,
    p.rest ? f.createToken(ts.SyntaxKind.DotDotDotToken) : undefined,
    p.name,
    p.optional ? f.createToken(ts.SyntaxKind.QuestionToken) : undefined,
    p.type,
    p.initializer,
  );
}

export interface FunctionSpec {
  readonly name: string;
  /** Escaped doc lines. */
  readonly doc: readonly string[];
  readonly typeParameters?: readonly TS.TypeParameterDeclaration[];
  readonly parameters: readonly ParameterSpec[];
  readonly returnType: TS.TypeNode;
  /** The body's statements; none for an overload signature. */
  readonly body?: readonly TS.Statement[];
}

const exported = () => [f.createModifier(ts.SyntaxKind.ExportKeyword)];

/** `export function name<T>(params): Returns { body }`, or the overload signature `...;` without a body. */
export function functionDeclaration(spec: FunctionSpec): TS.FunctionDeclaration {
  return withDoc(
    f.createFunctionDeclaration(
      exported(),
      undefined,
      spec.name,
      spec.typeParameters && spec.typeParameters.length > 0 ? spec.typeParameters : undefined,
      spec.parameters.map(parameter),
      spec.returnType,
      spec.body && f.createBlock(spec.body, true),
    ),
    spec.doc,
  );
}

/** Whether every line of `text`, placed at `column` (each of its lines indented by as much), fits. */
const fits = (text: string, column = 0): boolean => text.split("\n").every((line) => column + line.length <= MAX_LINE);

const indent = (text: string, spaces: number): string =>
  text
    .split("\n")
    .map((line) => (line === "" ? line : `${" ".repeat(spaces)}${line}`))
    .join("\n");

/**
 * A function printed: its signature on one line when that fits, else a parameter a line; its statements each laid
 * out by printStatement.
 */
export function printFunction(spec: FunctionSpec): string {
  const { body: statements, ...overload } = spec;
  // Each parameter is printed once: the signature's lower bound below, and the list of a signature that does not fit.
  const printed = spec.parameters.map((p) => printNode(parameter(p)));
  // `export function name(a, b` with the parameters on one line is longer than the line: neither the signature nor
  // the whole function fits, and neither is printed (most operations of a large description).
  const flatParameters = printed.every((p) => !p.includes("\n"));
  const lowerBound = "export function ".length + spec.name.length + 1 + printed.reduce((n, p) => n + p.length + 2, 0);
  const long = flatParameters && lowerBound > MAX_LINE;
  const signature = long ? undefined : printNode(functionDeclaration({ ...overload, doc: [] }));
  // The whole function holds the signature's lines (its last one a character longer): when they do not fit,
  // neither does the whole, and it is not printed.
  if (signature !== undefined && fits(signature)) {
    const whole = printNode(functionDeclaration(spec));
    if (fits(whole)) return whole;
  }
  const oneLine = signature !== undefined && !signature.includes("\n") && fits(signature);
  const shell = printNode(
    functionDeclaration({
      ...spec,
      parameters: oneLine ? spec.parameters : [{ name: PARAMETERS, type: f.createKeywordTypeNode(ts.SyntaxKind.NeverKeyword) }],
      ...(spec.body && { body: [f.createExpressionStatement(f.createIdentifier(BODY))] }),
    }),
  );
  const rest = spec.parameters.at(-1)?.rest === true;
  const list = printed.map((p) => indent(p, 2));
  const parameters = `(\n${list.join(",\n")}${rest ? "" : ","}\n)`;
  const body = (statements ?? []).map((s) => indent(printStatement(s, 2), 2)).join("\n");
  return shell.replace(`(${PARAMETERS}: never)`, () => parameters).replace(`  ${BODY};`, () => body);
}

/** The call a statement makes: `return call(...)`, `call(...);` or `const x = call(...);`. */
function callOf(statement: TS.Statement): TS.CallExpression | undefined {
  const expression = ts.isReturnStatement(statement)
    ? statement.expression
    : ts.isExpressionStatement(statement)
      ? statement.expression
      : ts.isVariableStatement(statement)
        ? statement.declarationList.declarations[0]?.initializer
        : undefined;
  return expression !== undefined && ts.isCallExpression(expression) ? expression : undefined;
}

/**
 * A statement with its call's arguments replaced by the stand-in, to print around the laid-out arguments. Updated
 * rather than made anew, so that the statement keeps its doc comment and the call its annotations.
 */
function withArguments(statement: TS.Statement, call: TS.CallExpression, args: readonly TS.Expression[]): TS.Statement {
  const replaced = f.updateCallExpression(call, call.expression, call.typeArguments, args);
  if (ts.isReturnStatement(statement)) return f.updateReturnStatement(statement, replaced);
  if (ts.isExpressionStatement(statement)) return f.updateExpressionStatement(statement, replaced);
  const constant = statement as TS.VariableStatement;
  const list = constant.declarationList;
  const [declaration] = list.declarations;
  return f.updateVariableStatement(
    constant,
    constant.modifiers,
    f.updateVariableDeclarationList(list, [
      f.updateVariableDeclaration(declaration!, declaration!.name, declaration!.exclamationToken, declaration!.type, replaced),
    ]),
  );
}

/** The arrow a `const` statement holds and the arrow's body, when that is an expression. */
function arrowOf(
  statement: TS.Statement,
): { readonly constant: TS.VariableStatement; readonly arrow: TS.ArrowFunction; readonly body: TS.Expression } | undefined {
  if (!ts.isVariableStatement(statement)) return undefined;
  const arrow = statement.declarationList.declarations[0]?.initializer;
  if (arrow === undefined || !ts.isArrowFunction(arrow) || ts.isBlock(arrow.body)) return undefined;
  return { constant: statement, arrow, body: arrow.body };
}

const arrowWithBody = (arrow: TS.ArrowFunction, body: TS.Expression): TS.ArrowFunction =>
  f.updateArrowFunction(arrow, arrow.modifiers, arrow.typeParameters, arrow.parameters, arrow.type, arrow.equalsGreaterThanToken, body);

/** A `const` statement with another value; updated rather than made anew, so that it keeps its doc comment. */
function withInitializer(statement: TS.VariableStatement, value: TS.Expression): TS.VariableStatement {
  const list = statement.declarationList;
  const [declaration] = list.declarations;
  return f.updateVariableStatement(
    statement,
    statement.modifiers,
    f.updateVariableDeclarationList(list, [
      f.updateVariableDeclaration(declaration!, declaration!.name, declaration!.exclamationToken, declaration!.type, value),
    ]),
  );
}

/**
 * A statement printed at `column`: on one line when it fits; else its call's arguments an argument a line, an
 * object literal among them on several lines where it does not fit either.
 */
export function printStatement(statement: TS.Statement, column = 0): string {
  const call = callOf(statement);
  if (call === undefined || call.arguments.length === 0) {
    const flat = printNode(statement);
    if (fits(flat, column)) return flat;
    const held = arrowOf(statement);
    if (held === undefined) return flat;
    // The body of an arrow that does not fit goes on the next line, indented, as formatters break it.
    const shell = printNode(withInitializer(held.constant, arrowWithBody(held.arrow, f.createIdentifier(BODY))));
    const body = printStatement(f.createExpressionStatement(held.body), column + 2);
    return shell.replace(` ${BODY};`, () => `\n${indent(body, 2)}`);
  }
  // The statement around its arguments and each argument are printed once; the statement on one line is the two
  // joined, as the printer joins an argument list. Where it does not fit, the same prints are laid out.
  const shell = printNode(withArguments(statement, call, [f.createIdentifier(ARGUMENTS)]));
  const flatArguments = call.arguments.map((a) => printNode(a));
  const flat = shell.replace(`(${ARGUMENTS})`, () => `(${flatArguments.join(", ")})`);
  if (fits(flat, column)) return flat;
  // A last argument that is an object literal opens on the call's line and closes the call (`f(a, {` ... `});`)
  // when the rest fits, as formatters hug it.
  const last = call.arguments.at(-1);
  if (last !== undefined && ts.isObjectLiteralExpression(last) && last.properties.length > 0) {
    const hugged = printNode(withArguments(statement, call, [...call.arguments.slice(0, -1), multiLineObject(last, column + 2)]));
    if (fits(hugged, column)) return hugged;
  }
  const args = call.arguments.map((a, i) => indent(printFitted(a, flatArguments[i]!, column + 2, 1), 2));
  return shell.replace(`(${ARGUMENTS})`, () => `(\n${args.join(",\n")},\n)`);
}

/** An argument printed as fitExpression lays it out, from its print as it stands when that is the one-line print. */
function printFitted(expression: TS.Expression, printed: string, column: number, reserve: number): string {
  if (!ts.isObjectLiteralExpression(expression)) return printed;
  // An object printed on several lines as it stands is printed flat first, as fitExpression does; printed on one
  // line, it is its flat print.
  if (printed.includes("\n")) return printNode(fitExpression(expression, column, reserve));
  if (column + printed.length + reserve <= MAX_LINE) return printed;
  return printNode(multiLineObject(expression, column));
}

/**
 * An expression whose object literals take a line per property where they do not fit at `column` (with `reserve`
 * columns after them, for a comma or a closing bracket); an object that fits stays on one line.
 */
export function fitExpression(expression: TS.Expression, column: number, reserve = 0): TS.Expression {
  if (!ts.isObjectLiteralExpression(expression)) return expression;
  const flat = f.createObjectLiteralExpression(expression.properties, false);
  const printed = printNode(flat);
  if (!printed.includes("\n") && column + printed.length + reserve <= MAX_LINE) return flat;
  return multiLineObject(expression, column);
}

/** An object literal a property a line, each value fitted (fitExpression) at its column. */
function multiLineObject(expression: TS.ObjectLiteralExpression, column: number): TS.ObjectLiteralExpression {
  const properties = expression.properties.map((p) => {
    if (!ts.isPropertyAssignment(p)) return p;
    const key = printNode(p.name).length + 2;
    return f.createPropertyAssignment(p.name, fitExpression(p.initializer, column + 2 + key, 1));
  });
  return f.createObjectLiteralExpression(properties, true);
}

/**
 * Reads a property of an object held in a variable: `v.name`, `v?.name`, `v?.["a-b"]`. `x.constructor` or
 * `x.__proto__` would read an inherited member when the key is absent, so such keys are read only as own
 * properties: `(Object.hasOwn(v, "constructor") ? v["constructor"] : undefined)`.
 */
export function readProperty(variable: string, name: string, optional: boolean, inherited: boolean): TS.Expression {
  const target = f.createIdentifier(variable);
  if (!inherited) {
    const dot = optional ? f.createToken(ts.SyntaxKind.QuestionDotToken) : undefined;
    if (IDENTIFIER.test(name))
      return optional ? f.createPropertyAccessChain(target, dot, name) : f.createPropertyAccessExpression(target, name);
    return optional
      ? f.createElementAccessChain(target, dot, f.createStringLiteral(name))
      : f.createElementAccessExpression(target, f.createStringLiteral(name));
  }
  const own = f.createCallExpression(f.createPropertyAccessExpression(f.createIdentifier("Object"), "hasOwn"), undefined, [
    f.createIdentifier(variable),
    f.createStringLiteral(name),
  ]);
  const condition = optional
    ? f.createLogicalAnd(f.createStrictInequality(f.createIdentifier(variable), f.createIdentifier("undefined")), own)
    : own;
  return f.createParenthesizedExpression(
    f.createConditionalExpression(
      condition,
      f.createToken(ts.SyntaxKind.QuestionToken),
      f.createElementAccessExpression(f.createIdentifier(variable), f.createStringLiteral(name)),
      f.createToken(ts.SyntaxKind.ColonToken),
      f.createIdentifier("undefined"),
    ),
  );
}

/**
 * An object literal from keys and values: a key that is an identifier plain, any other quoted, and `__proto__`
 * computed, so that it stays a key and does not set the prototype.
 */
export function objectOf(entries: readonly (readonly [string, TS.Expression])[]): TS.ObjectLiteralExpression {
  return f.createObjectLiteralExpression(
    entries.map(([k, v]) =>
      f.createPropertyAssignment(k === "__proto__" ? f.createComputedPropertyName(f.createStringLiteral(k)) : propertyName(k), v),
    ),
    false,
  );
}

/** `callee<TypeArgs>(args)`. */
export const call = (
  callee: string,
  typeArguments: readonly TS.TypeNode[] | undefined,
  args: readonly TS.Expression[],
): TS.CallExpression =>
  f.createCallExpression(f.createIdentifier(callee), typeArguments && typeArguments.length > 0 ? typeArguments : undefined, args);

/** `return expression;` */
export const returns = (expression: TS.Expression): TS.Statement => f.createReturnStatement(expression);

/** `const name = value;` */
export const constant = (name: string, value: TS.Expression, type?: TS.TypeNode): TS.VariableStatement =>
  f.createVariableStatement(
    undefined,
    f.createVariableDeclarationList([f.createVariableDeclaration(name, undefined, type, value)], ts.NodeFlags.Const),
  );

/** An identifier expression. */
export const id = (name: string): TS.Identifier => f.createIdentifier(name);
