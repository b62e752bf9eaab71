import type { IR } from "../ir/types.js";
import type { EmitKit, EmittedFile } from "./kit.js";

/** ir.json: the IR itself, for SDK authors in other languages. */
export async function emitIrJson(ir: IR, _kit: EmitKit): Promise<readonly EmittedFile[]> {
  return [{ path: "ir.json", content: `${JSON.stringify(ir, null, 2)}\n` }];
}
