import type { IR } from "../../../../generator/ir/types.js";
import type { EmittedFile } from "../../../../generator/emit/kit.js";
import type { TsKit } from "../ts-kit.js";
import { tsNames } from "../names.js";
import { tsFile } from "../ts-file.js";
import { docLinesOf } from "../ts-type.js";
import { factory, literalType, typeAlias, typeRef } from "../ts-nodes.js";
import { scopes } from "./scope.js";

/**
 * schemas.ts: every named schema as a plain alias (`export type ModelTier = ...`), so that users and the other
 * generated files name a schema without `components["schemas"]["ModelTier"]`.
 */
export async function emitSchemas(ir: IR, kit: TsKit): Promise<readonly EmittedFile[]> {
  const names = tsNames(ir);
  const { response } = scopes(ir);
  return [
    tsFile(ir, kit, "schemas.ts", (file) => {
      if (ir.schemas.length > 0)
        file.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: "./types.js", namedImports: ["components"] });
      for (const s of ir.schemas) {
        // components["schemas"]["<name>"]
        const type = factory.createIndexedAccessTypeNode(
          factory.createIndexedAccessTypeNode(typeRef("components"), literalType("schemas")),
          literalType(s.name),
        );
        file.addPrinted(typeAlias(names.schema(s.name), type, docLinesOf(s.schema, response)));
      }
    }),
  ];
}
