// The runtime's package: runtime/ compiled to ESM (runtime/dist) and CommonJS (runtime/dist/cjs), with the
// package.json users install, derived from runtime/package.json. In the sources "#read-file" points at the .ts files
// (so tsc, tsx, vitest and Bun resolve it); the built package maps it per platform to the compiled ones: Node gets
// node:fs, every other condition (browsers, bundlers for the web) a module without it.
import { cp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ROOT, tsc } from "./run.js";

const DIR = join(ROOT, "targets", "typescript", "runtime");
export const RUNTIME_DIST = join(DIR, "dist");

/** The entries of the package, each as `<subpath>` -> `<module without extension>`. */
const ENTRIES: Readonly<Record<string, string>> = { ".": "index", "./webhooks": "webhooks/index", "./node": "node" };

interface SourceManifest {
  name: string;
  version: string;
  description: string;
  dependencies: Record<string, string>;
  engines: Record<string, string>;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const conditions = (file: string) => ({
  import: { types: `./${file}.d.ts`, default: `./${file}.js` },
  require: { types: `./cjs/${file}.d.cts`, default: `./cjs/${file}.cjs` },
});

/**
 * The CommonJS build as .cjs and .d.cts files (no package.json of its own below cjs/: "#read-file" resolves from
 * the package's root package.json only), with the relative specifiers tsc wrote renamed to match.
 */
async function toCjsExtensions(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const renamed = path.endsWith(".d.ts") ? `${path.slice(0, -5)}.d.cts` : path.endsWith(".js") ? `${path.slice(0, -3)}.cjs` : undefined;
    if (renamed === undefined) continue;
    const text = await readFile(path, "utf8");
    await writeFile(path, text.replace(/((?:require\(|import\(|from )")(\.{1,2}\/[^"]*)\.js"/g, '$1$2.cjs"'));
    await rename(path, renamed);
  }
}

export async function buildRuntime(): Promise<string> {
  await rm(RUNTIME_DIST, { recursive: true, force: true });
  await tsc(join(DIR, "tsconfig.build.json"));
  await tsc(join(DIR, "tsconfig.build.cjs.json"));
  const source = JSON.parse(await readFile(join(DIR, "package.json"), "utf8")) as SourceManifest;
  await toCjsExtensions(join(RUNTIME_DIST, "cjs"));
  const manifest = {
    name: source.name,
    version: source.version,
    description: source.description,
    type: "module",
    sideEffects: false,
    main: "./cjs/index.cjs",
    types: "./cjs/index.d.cts",
    exports: {
      ...Object.fromEntries(Object.entries(ENTRIES).map(([subpath, file]) => [subpath, conditions(file)])),
      "./package.json": "./package.json",
    },
    // Node10 resolution (old TypeScript settings) knows no exports map.
    typesVersions: {
      "*": Object.fromEntries(Object.entries(ENTRIES).flatMap(([s, f]) => (s === "." ? [] : [[s.slice(2), [`./cjs/${f}.d.cts`]]]))),
    },
    imports: { "#read-file": { node: conditions("read-file.node"), default: conditions("read-file.browser") } },
    dependencies: source.dependencies,
    engines: source.engines,
  };
  await writeFile(join(RUNTIME_DIST, "package.json"), json(manifest));
  await cp(join(DIR, "README.md"), join(RUNTIME_DIST, "README.md"));
  await cp(join(DIR, "webhooks", "README.md"), join(RUNTIME_DIST, "webhooks", "README.md"));
  return RUNTIME_DIST;
}
