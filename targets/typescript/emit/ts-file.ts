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
/** The TypeScript compiler API ts-morph bundles: its factory builds the syntax trees that ts-nodes.ts prints. */
export const { ts } = tsMorph;

/** A `/** *\/` block from ts-morph's `docs` strings (already escaped), as ts-morph prints one. */
function docBlock(docs: OptionalKind<TypeAliasDeclarationStructure>["docs"]): string {
  const texts = (docs ?? []).map((d) => (typeof d === "string" ? d : typeof d.description === "string" ? d.description : ""));
  return texts
    .map((text) =>
      text.includes("\n")
        ? `/**\n${text
            .split("\n")
            .map((l) => ` * ${l}`.trimEnd())
            .join("\n")}\n */\n`
        : `/** ${text} */\n`,
    )
    .join("");
}

/**
 * Text of several lines, laid out by its maker from column 0: ts-morph would indent every line after the first of a
 * type or an initializer one level more (a hanging indent), so that a `{` and its `}` disagree. A declaration holding
 * such text is written here instead, with the text as it is.
 */
const multiLine = (text: unknown): text is string => typeof text === "string" && text.includes("\n");

/**
 * Collects the statements of one file. ts-morph re-parses a file after every manipulation, so emitters
 * describe statements as structures and the file is printed once: linear in the size of the description.
 */
export class Statements {
  readonly imports: ImportDeclarationStructure[] = [];
  readonly body: (StatementStructures | string)[] = [];
  /** A statement printed from a syntax tree (ts-nodes.ts), placed as it is. */
  addPrinted(text: string): void {
    this.body.push(text);
  }
  addImportDeclaration(s: OptionalKind<ImportDeclarationStructure>): void {
    this.imports.push({ ...s, kind: StructureKind.ImportDeclaration });
  }
  addExportDeclaration(s: OptionalKind<ExportDeclarationStructure>): void {
    this.body.push({ ...s, kind: StructureKind.ExportDeclaration });
  }
  addTypeAlias(s: OptionalKind<TypeAliasDeclarationStructure>): void {
    if (multiLine(s.type) && (s.typeParameters ?? []).length === 0) {
      this.body.push(`${docBlock(s.docs)}${s.isExported ? "export " : ""}type ${s.name} = ${s.type};`);
      return;
    }
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
    const [only, ...more] = s.declarations;
    if (only !== undefined && more.length === 0 && multiLine(only.initializer) && !multiLine(only.type)) {
      const kind = s.declarationKind ?? VariableDeclarationKind.Let;
      const type = only.type === undefined ? "" : `: ${only.type}`;
      this.body.push(`${docBlock(s.docs)}${s.isExported ? "export " : ""}${kind} ${only.name}${type} = ${only.initializer};`);
      return;
    }
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

/** The longest line of generated TypeScript (ts-nodes.ts's MAX_LINE, which imports this module). */
const MAX_IMPORT_LINE = 120;

/** An import on one line, or a name a line when that is longer than the limit. */
function printImport(s: ImportDeclarationStructure): string {
  const line = printStructure({ kind: StructureKind.SourceFile, statements: [s] }, PRINT);
  const named = Array.isArray(s.namedImports) ? s.namedImports : [];
  if (line.trimEnd().length <= MAX_IMPORT_LINE || s.defaultImport !== undefined || s.namespaceImport !== undefined || named.length === 0)
    return line;
  const names = named.map((n) => {
    if (typeof n === "string") return n;
    if (typeof n === "function") throw new Error("an import's names are given as text or structures");
    return `${n.isTypeOnly ? "type " : ""}${n.name}${n.alias === undefined ? "" : ` as ${n.alias}`}`;
  });
  return `import ${s.isTypeOnly ? "type " : ""}{\n${names.map((n) => `  ${n},`).join("\n")}\n} from ${JSON.stringify(s.moduleSpecifier)};\n`;
}

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
  const head = needed.map(printImport).join("");
  return { path, content: `${kit.header(ir, "//")}\n${`${head}${body}`.trimEnd()}\n` };
}
