/**
 * The second signal: the type-level test written against the committed client (generated/) is compiled against the
 * client generated from the new release. The new client is written to .tmp/types-check/generated (git-ignored), the
 * test is copied to the same place relative to it (its imports of generated/ then reach the new client, its other
 * relative imports are rewritten to the originals), and the TypeScript compiler reports what no longer compiles.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { resolveRun } from "../../../generator/cli/generate-command.js";
import { loadConfig } from "../../../generator/config/load.js";
import { generate, writeFiles } from "../../../generator/generate.js";
import type { TypeFailure, TypesSignal } from "../../../generator/diff/report.js";

const posix = (path: string) => path.split(sep).join("/");

/** Rewrites the relative imports of a file moved from `from` to `to`, except those into `keep` (kept as written). */
export function rebaseImports(text: string, from: string, to: string, keep: string): string {
  return text.replace(
    /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])(\.{1,2}\/[^"']*)\2/g,
    (whole, head: string, quote: string, spec: string) => {
      const target = resolve(dirname(from), spec);
      if (target === keep || target.startsWith(keep + sep)) return whole;
      const moved = posix(relative(dirname(to), target));
      return `${head}${quote}${moved.startsWith(".") ? moved : `./${moved}`}${quote}`;
    },
  );
}

export async function checkTypes(source: string, testFile: string, root: string): Promise<TypesSignal> {
  const work = join(root, ".tmp", "types-check");
  const outDir = join(work, "generated");
  // Generated as the project's configuration says (in this repository: the runtime imported from its sources), the
  // TypeScript client alone: the test compiles against nothing else.
  const { options } = resolveRun((await loadConfig(root)).config, { spec: source });
  const { files } = await generate(source, { ...options, languages: ["typescript"], outputs: [], outDir });
  await writeFiles(outDir, files);
  const test = resolve(testFile);
  const target = join(work, relative(root, test));
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, rebaseImports(await readFile(test, "utf8"), test, target, join(root, "generated")));

  const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const program = ts.createProgram([target], { ...parsed.options, noEmit: true });
  // The test's own diagnostics only: the client and the runtime it imports are not checked through (their types are
  // read as the test uses them), which is most of a whole program's check.
  const file = program.getSourceFile(target);
  if (file === undefined) throw new Error(`the type-level test ${testFile} was not compiled`);
  const failures: TypeFailure[] = [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]
    .filter((d) => d.category === ts.DiagnosticCategory.Error && d.file !== undefined && resolve(d.file.fileName) === target)
    .map((d) => ({
      file: posix(relative(root, test)),
      line: d.file!.getLineAndCharacterOfPosition(d.start ?? 0).line + 1,
      message: ts.flattenDiagnosticMessageText(d.messageText, " "),
    }));
  return { test: posix(relative(root, test)), failures };
}
