import { createRequire } from "node:module";
import type {
  ClassDeclarationStructure,
  ExportDeclarationStructure,
  FunctionDeclarationStructure,
  ImportDeclarationStructure,
  InterfaceDeclarationStructure,
  OptionalKind,
  StatementStructures,
  TypeAliasDeclarationStructure,
  VariableStatementStructure,
} from "ts-morph";
import type { IR } from "../../../generator/ir/types.js";
import type { EmittedFile } from "../../../generator/emit/kit.js";
import type { TsKit } from "./ts-kit.js";

// ts-morph is CommonJS: `require` loads it directly, where an ESM import first scans its whole bundle for export
// names (about 0.3 s of CPU at every start). The emitters take its values from here.
const tsMorph = createRequire(import.meta.url)("ts-morph") as typeof import("ts-morph");
const { printStructure, StructureKind } = tsMorph;
export const { VariableDeclarationKind } = tsMorph;

/**
 * Collects the statements of one file. ts-morph re-parses a file after every manipulation, so emitters
 * describe statements as structures and the file is printed once: linear in the size of the description.
 */
export class Statements {
  readonly imports: ImportDeclarationStructure[] = [];
  readonly body: StatementStructures[] = [];
  addImportDeclaration(s: OptionalKind<ImportDeclarationStructure>): void {
    this.imports.push({ ...s, kind: StructureKind.ImportDeclaration });
  }
  addExportDeclaration(s: OptionalKind<ExportDeclarationStructure>): void {
    this.body.push({ ...s, kind: StructureKind.ExportDeclaration });
  }
  addTypeAlias(s: OptionalKind<TypeAliasDeclarationStructure>): void {
    this.body.push({ ...s, kind: StructureKind.TypeAlias });
  }
  addInterface(s: OptionalKind<InterfaceDeclarationStructure>): void {
    this.body.push({ ...s, kind: StructureKind.Interface });
  }
  addClass(s: OptionalKind<ClassDeclarationStructure>): void {
    this.body.push({ ...s, kind: StructureKind.Class });
  }
  addFunction(s: OptionalKind<FunctionDeclarationStructure>): void {
    this.body.push({ ...s, kind: StructureKind.Function });
  }
  addVariableStatement(s: OptionalKind<VariableStatementStructure>): void {
    this.body.push({ ...s, kind: StructureKind.VariableStatement });
  }
}

/** The formatting of every generated TypeScript file: 2 spaces, double quotes, LF, `{ a }`. */
const PRINT = {
  indentNumberOfSpaces: 2,
  newLine: "\n",
  useSingleQuote: false,
  insertSpaceAfterOpeningAndBeforeClosingNonemptyBraces: true,
} as const;

/**
 * Builds one TypeScript file from ts-morph structures, printed in one writer pass: no Project, no parse
 * (on large descriptions a Project spent seconds parsing what it had just printed), and nothing shared
 * between emitters. `imports` sees the printed body and returns the imports it needs, so no import goes unused.
 */
export function tsFile(
  ir: IR,
  kit: TsKit,
  path: string,
  build: (file: Statements) => void,
  imports: (body: string) => readonly OptionalKind<ImportDeclarationStructure>[] = () => [],
): EmittedFile {
  const statements = new Statements();
  build(statements);
  const body = printStructure({ kind: StructureKind.SourceFile, statements: statements.body }, PRINT);
  const needed = [
    ...statements.imports,
    ...imports(body).map((s) => ({ ...s, kind: StructureKind.ImportDeclaration as typeof StructureKind.ImportDeclaration })),
  ];
  const head = needed.length > 0 ? printStructure({ kind: StructureKind.SourceFile, statements: needed }, PRINT) : "";
  return { path, content: `${kit.header(ir, "//")}\n${`${head}${body}`.trimEnd()}\n` };
}
