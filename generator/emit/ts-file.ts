import {
  type ClassDeclarationStructure,
  type ExportDeclarationStructure,
  type FunctionDeclarationStructure,
  type ImportDeclarationStructure,
  IndentationText,
  type InterfaceDeclarationStructure,
  NewLineKind,
  type OptionalKind,
  Project,
  QuoteKind,
  type StatementStructures,
  StructureKind,
  type TypeAliasDeclarationStructure,
  type VariableStatementStructure,
} from "ts-morph";
import type { IR } from "../ir/types.js";
import type { EmitKit, EmittedFile } from "./kit.js";

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

/**
 * Builds one TypeScript file with ts-morph in an in-memory project of its own, so that emitters share
 * nothing. `imports` sees the printed body and returns the imports it needs, so no import goes unused.
 */
export function tsFile(
  ir: IR,
  kit: EmitKit,
  path: string,
  build: (file: Statements) => void,
  imports: (body: string) => readonly OptionalKind<ImportDeclarationStructure>[] = () => [],
): EmittedFile {
  const project = new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: { indentationText: IndentationText.TwoSpaces, newLineKind: NewLineKind.LineFeed, quoteKind: QuoteKind.Double },
  });
  const statements = new Statements();
  build(statements);
  const file = project.createSourceFile(path, "", { overwrite: true });
  file.addStatements(statements.body);
  const needed = [
    ...statements.imports,
    ...imports(file.getFullText()).map((s) => ({ ...s, kind: StructureKind.ImportDeclaration as const })),
  ];
  if (needed.length > 0) file.insertStatements(0, needed);
  return { path, content: `${kit.header(ir, "//")}\n${file.getFullText().trimEnd()}\n` };
}
