// The release check of the TypeScript client: a strict type-check of its entries, as a user's project would run it.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Node's type declarations, as the project sees them from the output folder, else as the toolchain does: the runtime's Node-only modules use them. */
function nodeTypes(out: string): string[] {
  try {
    return [
      dirname(
        createRequire(import.meta.url).resolve("@types/node/package.json", { paths: [resolve(out), fileURLToPath(import.meta.url)] }),
      ),
    ];
  } catch {
    return [];
  }
}

/** The first 20 type errors of the client in `out`, [] when it compiles. */
export async function checkTypeScriptClient(out: string): Promise<string[]> {
  const ts = (await import("typescript")).default;
  const entries = ["index.ts", "webhooks.ts"].map((f) => join(out, f)).filter((f) => existsSync(f));
  const program = ts.createProgram(entries, {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: nodeTypes(out),
  });
  return ts
    .getPreEmitDiagnostics(program)
    .slice(0, 20)
    .map((d) => {
      const where = d.file
        ? `${relative(process.cwd(), d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: `
        : "";
      return `${where}${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
    });
}
