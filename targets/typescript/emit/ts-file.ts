import type * as TS from "typescript";
import type { IR } from "../../../generator/ir/types.js";
import type { EmittedFile } from "../../../generator/emit/kit.js";
import type { TsKit } from "./ts-kit.js";
import { factory as f, MAX_LINE, printNode, withDoc } from "./ts-nodes.js";
import { ts } from "./typescript.js";

export { ts };

/**
 * An import or export of names: `name`, `name as alias`, `type name`, `type name as alias`, as a statement of the
 * file writes them.
 */
type Specifier = string;

/** `import [type] { a, type B, c as d } from "module";` */
export interface ImportDeclaration {
  readonly moduleSpecifier: string;
  readonly namedImports: readonly Specifier[];
  readonly isTypeOnly?: boolean;
}

/** `export * from "module";` or, with names, `export [type] { a, b } from "module";` */
export interface ExportDeclaration {
  readonly moduleSpecifier: string;
  readonly namedExports?: readonly Specifier[];
  readonly isTypeOnly?: boolean;
}

const SPECIFIER = /^(type\s+)?([A-Za-z_$][A-Za-z0-9_$]*)(?:\s+as\s+([A-Za-z_$][A-Za-z0-9_$]*))?$/;

function specifier<T>(text: Specifier, make: (isTypeOnly: boolean, name: string, alias: string | undefined) => T): T {
  const match = SPECIFIER.exec(text.trim());
  if (match === null) throw new Error(`not a name to import or export: ${JSON.stringify(text)}`);
  return make(match[1] !== undefined, match[2]!, match[3]);
}

const moduleName = (name: string): TS.StringLiteral => f.createStringLiteral(name);

function importNode(s: ImportDeclaration): TS.ImportDeclaration {
  if (s.namedImports.length === 0) throw new Error(`an import from ${s.moduleSpecifier} names nothing`);
  const names = s.namedImports.map((n) =>
    specifier(n, (isTypeOnly, name, alias) =>
      f.createImportSpecifier(isTypeOnly, alias === undefined ? undefined : f.createIdentifier(name), f.createIdentifier(alias ?? name)),
    ),
  );
  return f.createImportDeclaration(
    undefined,
    f.createImportClause(s.isTypeOnly === true, undefined, f.createNamedImports(names)),
    moduleName(s.moduleSpecifier),
  );
}

function exportNode(s: ExportDeclaration): TS.ExportDeclaration {
  const names =
    s.namedExports === undefined || s.namedExports.length === 0
      ? undefined
      : f.createNamedExports(
          s.namedExports.map((n) =>
            specifier(n, (isTypeOnly, name, alias) =>
              f.createExportSpecifier(
                isTypeOnly,
                alias === undefined ? undefined : f.createIdentifier(name),
                f.createIdentifier(alias ?? name),
              ),
            ),
          ),
        );
  return f.createExportDeclaration(undefined, s.isTypeOnly === true, names, moduleName(s.moduleSpecifier));
}

/** One statement of a file's body, printed; a declaration with a body stands apart from its neighbours by a blank line. */
interface Printed {
  readonly text: string;
  readonly apart: boolean;
}

/**
 * Collects the statements of one file, each printed from its syntax tree as it is added; the file is joined once.
 */
export class Statements {
  readonly imports: ImportDeclaration[] = [];
  readonly body: Printed[] = [];
  /** A statement printed from a syntax tree (ts-nodes.ts, ts-functions.ts), placed as it is. */
  addPrinted(text: string): void {
    this.body.push({ text, apart: false });
  }
  /** A statement's syntax tree; a class stands apart from its neighbours by a blank line. */
  addStatement(statement: TS.Statement): void {
    this.body.push({ text: printNode(statement), apart: ts.isClassDeclaration(statement) });
  }
  addImportDeclaration(s: ImportDeclaration): void {
    this.imports.push(s);
  }
  addExportDeclaration(s: ExportDeclaration): void {
    this.addPrinted(printExport(s));
  }
}

/** `export const name[: type] = value;` with a doc comment. */
export function exportedConstant(name: string, value: TS.Expression, doc: readonly string[], type?: TS.TypeNode): TS.VariableStatement {
  return withDoc(
    f.createVariableStatement(
      [f.createModifier(ts.SyntaxKind.ExportKeyword)],
      f.createVariableDeclarationList([f.createVariableDeclaration(name, undefined, type, value)], ts.NodeFlags.Const),
    ),
    doc,
  );
}

/** The names of an import or export, a line each, as `import {` or `export {` ... `} from "module";` lays them out. */
function namesApart(keyword: "import" | "export", isTypeOnly: boolean | undefined, names: readonly Specifier[], module: string): string {
  const lines = names.map((n) =>
    specifier(n, (typeOnly, name, alias) => `  ${typeOnly ? "type " : ""}${name}${alias === undefined ? "" : ` as ${alias}`},`),
  );
  return `${keyword} ${isTypeOnly ? "type " : ""}{\n${lines.join("\n")}\n} from ${JSON.stringify(module)};`;
}

/** An import on one line, or a name a line when that is longer than the limit. */
function printImport(s: ImportDeclaration): string {
  const line = printNode(importNode(s));
  if (line.length <= MAX_LINE) return `${line}\n`;
  return `${namesApart("import", s.isTypeOnly, s.namedImports, s.moduleSpecifier)}\n`;
}

/** An export on one line, or a name a line when that is longer than the limit. */
function printExport(s: ExportDeclaration): string {
  const line = printNode(exportNode(s));
  if (line.length <= MAX_LINE || s.namedExports === undefined || s.namedExports.length === 0) return line;
  return namesApart("export", s.isTypeOnly, s.namedExports, s.moduleSpecifier);
}

/**
 * The statements of a body, one after the other: a statement after one that ends with `}` (a class, a function, an
 * object) or one that stands apart starts after a blank line; the others on the next line. Linear in the body's
 * length: only the text's tail is looked at (a large description's operations.ts has tens of thousands of parts).
 */
function joinBody(body: readonly Printed[]): string {
  const parts: string[] = [];
  let empty = true;
  let last = ""; // the last character of the text so far that is not white space
  for (const { text, apart } of body) {
    if (!empty) {
      if (last === "}" || apart) {
        dropTrailingNewlines(parts);
        parts.push("\n\n");
      } else if (!endsWithNewline(parts)) parts.push("\n");
    }
    if (text.length === 0) continue;
    parts.push(text);
    empty = false;
    const trimmed = text.trimEnd();
    if (trimmed.length > 0) last = trimmed[trimmed.length - 1]!;
  }
  if (!empty && !endsWithNewline(parts)) parts.push("\n");
  return parts.join("");
}

/** Removes the newlines that end the joined parts, whichever parts hold them. */
function dropTrailingNewlines(parts: string[]): void {
  while (parts.length > 0) {
    const tail = parts[parts.length - 1]!;
    let end = tail.length;
    while (end > 0 && tail.charCodeAt(end - 1) === 10) end--;
    if (end > 0) {
      parts[parts.length - 1] = tail.slice(0, end);
      return;
    }
    parts.pop();
  }
}

function endsWithNewline(parts: readonly string[]): boolean {
  for (let i = parts.length - 1; i >= 0; i--) if (parts[i]!.length > 0) return parts[i]!.endsWith("\n");
  return false;
}

/**
 * Builds one TypeScript file from statements, each a syntax tree printed by TypeScript's printer. `imports` sees
 * the printed body and returns the imports it needs, so no import goes unused.
 */
export function tsFile(
  ir: IR,
  kit: TsKit,
  path: string,
  build: (file: Statements) => void,
  imports: (body: string) => readonly ImportDeclaration[] = () => [],
): EmittedFile {
  const statements = new Statements();
  build(statements);
  const body = joinBody(statements.body);
  const head = [...statements.imports, ...imports(body)].map(printImport).join("");
  return { path, content: `${kit.fileHeader(ir)}\n${`${head}${body}`.trimEnd()}\n` };
}
