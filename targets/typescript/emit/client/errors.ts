import type { IR } from "../../../../generator/ir/types.js";
import type { EmittedFile } from "../../../../generator/emit/kit.js";
import type { TsKit } from "../ts-kit.js";
import type * as TS from "typescript";
import { codeStatusClass, SERVICE_ERROR } from "../../../../generator/emit/error-names.js";
import { tsDocCode, tsDocText } from "../escape.js";
import { factory, literalType, typeAlias, typeRef, unionOf, withDoc } from "../ts-nodes.js";
import { tsNames } from "../names.js";
import { exportedConstant, ts, tsFile } from "../ts-file.js";

/** The error class of each code, by code; one place so that errors.ts and the docs agree. */
export function errorClassNames(ir: IR): ReadonlyMap<string, string> {
  const names = tsNames(ir);
  return new Map(ir.errors.map((e) => [e.code, names.errorClass(e.code)]));
}

/** Where a code stands in the catalogue; codes it lacks come last. */
function rank(catalogue: readonly string[], code: string): number {
  const i = catalogue.indexOf(code);
  return i === -1 ? catalogue.length : i;
}

/**
 * The class a code's class extends: the runtime's class of the code's HTTP status when the description gives the code
 * exactly one status that has a class (generator/emit/error-names.ts), else ServiceError.
 */
function parentOf(ir: IR, code: string): string {
  return codeStatusClass(ir, code)?.name ?? SERVICE_ERROR;
}

/** errors.ts: a class per error code of the catalogue, under the runtime's class of its status. */
export async function emitErrors(ir: IR, kit: TsKit): Promise<readonly EmittedFile[]> {
  const names = errorClassNames(ir);
  const parents = [...new Set(ir.errors.map((e) => parentOf(ir, e.code)))].sort();
  return [
    tsFile(ir, kit, "errors.ts", (file) => {
      file.addImportDeclaration({
        moduleSpecifier: kit.runtimeModule,
        namedImports: [...parents, "type ServiceErrorClass", "errorClassTable"],
      });
      if (ir.errors.length > 0) {
        file.addPrinted(
          "// A code's class extends the runtime's class of the code's HTTP status (BadRequestError, ... InternalServerError)\n" +
            "// when the description gives the code exactly one status that has a class, else ServiceError.",
        );
      }
      file.addPrinted(
        typeAlias("ErrorCode", unionOf(ir.errors.map((e) => literalType(e.code))), [
          "Every stable error code of the description. Other codes may still arrive, as the class of their HTTP status.",
        ]),
      );
      const catalogue = ir.errors.map((e) => e.code);
      for (const union of tsNames(ir).errorUnions()) {
        // In the catalogue's order; a code an operation states that the catalogue lacks still belongs to its union.
        const codes = [...union.codes].sort((a, b) => rank(catalogue, a) - rank(catalogue, b));
        file.addPrinted(
          typeAlias(union.name, unionOf(codes.map((c) => literalType(c))), [
            "The error codes these operations state: each arrives as its class below, or as the class of its HTTP status.",
          ]),
        );
      }
      for (const error of ir.errors) {
        const member = (name: string, value: TS.Expression) =>
          factory.createPropertyDeclaration(
            [factory.createModifier(ts.SyntaxKind.StaticKeyword), factory.createModifier(ts.SyntaxKind.ReadonlyKeyword)],
            name,
            undefined,
            undefined,
            value,
          );
        file.addStatement(
          withDoc(
            factory.createClassDeclaration(
              [factory.createModifier(ts.SyntaxKind.ExportKeyword)],
              names.get(error.code)!,
              undefined,
              [
                factory.createHeritageClause(ts.SyntaxKind.ExtendsKeyword, [
                  factory.createExpressionWithTypeArguments(factory.createIdentifier(parentOf(ir, error.code)), undefined),
                ]),
              ],
              [member("code", factory.createStringLiteral(error.code)), member("httpStatus", factory.createNumericLiteral(error.status))],
            ),
            [`HTTP ${error.status} \`${tsDocCode(error.code)}\`${error.description ? `: ${tsDocText(error.description)}` : "."}`],
          ),
        );
      }
      file.addStatement(
        exportedConstant(
          "errorClasses",
          // Marked pure, so that bundlers drop it where nothing reads it; each class states its code.
          ts.addSyntheticLeadingComment(
            factory.createCallExpression(factory.createIdentifier("errorClassTable"), undefined, [
              factory.createArrayLiteralExpression(
                ir.errors.map((e) => factory.createIdentifier(names.get(e.code)!)),
                ir.errors.length > 0,
              ),
            ]),
            ts.SyntaxKind.MultiLineCommentTrivia,
            " @__PURE__ ",
            false,
          ),
          ["The class the runtime raises for each code."],
          typeRef("Readonly", [typeRef("Record", [typeRef("ErrorCode"), typeRef("ServiceErrorClass")])]),
        ),
      );
    }),
  ];
}
