// The import boundaries of the repository, checked over its import graph: the core names no target, a target
// imports no other target, a runtime imports nothing of the repository outside itself, the mock reaches the
// generator only through the IR's public module, and the shared test helpers (test/support) name no target. Imports
// are read with TypeScript's own pre-processor, so static, dynamic and type-only imports and re-exports all count.
import { readdirSync, readFileSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";
import ts from "typescript";

/** Repository-relative path (forward slashes) -> source text. */
export type SourceFiles = ReadonlyMap<string, string>;

export interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: string;
}

const SOURCE = /\.(ts|mts|cts|mjs|js)$/;
const SKIP = new Set(["node_modules", "dist", ".venv", ".tools", "__pycache__"]);

/** Every source file below the given folders of `root`. */
export function readSources(root: string, folders: readonly string[]): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIP.has(entry.name) || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts"))
        files.set(relative(root, path).split(sep).join("/"), readFileSync(path, "utf8"));
    }
  };
  for (const folder of folders) walk(join(root, folder));
  return files;
}

/** The repository paths a file's relative imports reach (`.js` specifiers name the `.ts` sources). */
export function importsOf(path: string, text: string): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((spec) => spec.startsWith("./") || spec.startsWith("../"))
    .map((spec) => posix.normalize(posix.join(posix.dirname(path), spec)).replace(/\.js$/, ".ts"));
}

const targetOf = (path: string): string | undefined => /^targets\/([^/]+)\//.exec(path)?.[1];
const runtimeOf = (path: string): string | undefined => /^(targets\/[^/]+\/runtime)\//.exec(path)?.[1];

/** The registry: the one module that names the targets, and the one module of the core allowed to import it. */
export const REGISTRY = "targets/index.ts";
const REGISTRY_USER = "generator/languages.ts";
/** The IR's public module: all the mock may take from the generator. */
export const IR_PUBLIC = "generator/ir/index.ts";

/** Why an import from `from` to `to` breaks a boundary, or undefined when it does not. */
export function ruleBroken(from: string, to: string): string | undefined {
  const fromTarget = targetOf(from);
  const toTarget = targetOf(to);
  const fromRuntime = runtimeOf(from);
  if (fromRuntime !== undefined && !to.startsWith(`${fromRuntime}/`))
    return "a runtime imports nothing of the repository outside itself (not the generator, not its target's emitter)";
  if (from.startsWith("generator/")) {
    if (to === REGISTRY) return from === REGISTRY_USER ? undefined : `only ${REGISTRY_USER} reaches the registry`;
    if (to.startsWith("targets/")) return "the core and the shared emitting helpers name no target";
  }
  if (from === REGISTRY)
    return to.startsWith("generator/") || /^targets\/[^/]+\/target\.ts$/.test(to)
      ? undefined
      : "the registry imports each target's target.ts only";
  if (fromTarget !== undefined && toTarget !== undefined && fromTarget !== toTarget) return "a target imports no other target";
  if (from.startsWith("mock/") && to.startsWith("generator/") && to !== IR_PUBLIC)
    return `the mock takes from the generator only its IR's public module (${IR_PUBLIC})`;
  if (from.startsWith("mock/") && to.startsWith("targets/")) return "the mock imports no target (a runtime by its package name only)";
  // Every target's tests import the shared test helpers, so those must stay neutral: a target's module reached
  // through them would let one target's tests depend on another's.
  if (from.startsWith("test/support/") && to.startsWith("targets/"))
    return "the shared test helpers name no target (each test passes its language's options)";
  return undefined;
}

/** Every import of the files that breaks a boundary. */
export function violations(files: SourceFiles): Violation[] {
  const found: Violation[] = [];
  for (const [from, text] of files)
    for (const to of importsOf(from, text)) {
      const rule = ruleBroken(from, to);
      if (rule !== undefined) found.push({ from, to, rule });
    }
  return found;
}
