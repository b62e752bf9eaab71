import type { IR } from "../../../../generator/ir/types.js";
import type { EmittedFile } from "../../../../generator/emit/kit.js";
import type { TsKit } from "../ts-kit.js";
import { tsDocCode, tsDocText, tsString } from "../escape.js";
import { literalType, typeAlias, unionOf } from "../ts-nodes.js";
import { tsNames } from "../names.js";
import { tsFile, VariableDeclarationKind } from "../ts-file.js";

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

/** errors.ts: a class per error code of the catalogue, under the runtime's ServiceError. */
export async function emitErrors(ir: IR, kit: TsKit): Promise<readonly EmittedFile[]> {
  const names = errorClassNames(ir);
  return [
    tsFile(ir, kit, "errors.ts", (file) => {
      file.addImportDeclaration({
        moduleSpecifier: kit.runtimeModule,
        namedImports: [...(ir.errors.length > 0 ? ["ServiceError"] : []), "type ServiceErrorClass", "errorClassTable"],
      });
      file.addPrinted(
        typeAlias("ErrorCode", unionOf(ir.errors.map((e) => literalType(e.code))), [
          "Every stable error code of the description. Other codes may still arrive; they keep the base class.",
        ]),
      );
      const catalogue = ir.errors.map((e) => e.code);
      for (const union of tsNames(ir).errorUnions()) {
        // In the catalogue's order; a code an operation states that the catalogue lacks still belongs to its union.
        const codes = [...union.codes].sort((a, b) => rank(catalogue, a) - rank(catalogue, b));
        file.addPrinted(
          typeAlias(union.name, unionOf(codes.map((c) => literalType(c))), [
            "The error codes these operations state: each arrives as its class below, or as ServiceError when it has none.",
          ]),
        );
      }
      for (const error of ir.errors) {
        file.addClass({
          isExported: true,
          name: names.get(error.code)!,
          extends: "ServiceError",
          docs: [`HTTP ${error.status} \`${tsDocCode(error.code)}\`${error.description ? `: ${tsDocText(error.description)}` : "."}`],
          properties: [
            { isStatic: true, isReadonly: true, name: "code", initializer: tsString(error.code) },
            { isStatic: true, isReadonly: true, name: "httpStatus", initializer: String(error.status) },
          ],
        });
      }
      file.addVariableStatement({
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        docs: ["The class the runtime raises for each code."],
        declarations: [
          {
            name: "errorClasses",
            type: "Readonly<Record<ErrorCode, ServiceErrorClass>>",
            // Marked pure, so that bundlers drop it where nothing reads it; each class states its code.
            initializer: `/* @__PURE__ */ errorClassTable([${ir.errors.map((e) => `\n  ${names.get(e.code)!}`).join(",")}${ir.errors.length > 0 ? "\n" : ""}])`,
          },
        ],
      });
    }),
  ];
}
