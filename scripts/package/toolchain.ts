// The toolchain's package (this repository's root package.json): the generator and its command compiled into
// dist/generator and dist/targets (emitters only: no runtime, no tests), with the templates and the extensions' schemas beside them, where the generator finds them.
// `publish` needs each target's runtime as its registry receives it, so the package carries them too, beside each
// target's compiled publish module, where it looks first: the TypeScript runtime's tarball (packed from the runtime's
// build), the Python runtime's project (what its wheel is built from) and the Go runtime module's files, with the Go
// program that writes module versions (modproxy). Each is the same bytes as in the repository, so a runtime published
// from the installed package and one published from the repository are the same version with the same content.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { configSchemaCheck } from "../../generator/config/load.js";
import { precompiledModule, templateFile } from "../../generator/emit/templates.js";
import { standaloneValidator, validatorFile } from "../../generator/schema-validator.js";
import { conventionSchemaChecks } from "../../generator/spec/conventions.js";
import { paginationSchemaCheck } from "../../generator/spec/pagination.js";
import { openApi31SchemaCheck } from "../../generator/spec/schema-check.js";
import { variantsSchemaCheck } from "../../generator/spec/variants.js";
import { pluginResponseCheck } from "../../generator/plugins/plugin.js";
import { ROOT, tsc } from "./run.js";
import { buildRuntime } from "./runtime.js";

const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

/** Files of a Python project that no build reads: caches and earlier builds. */
const PYTHON_LEFT_OUT = /(?:^|[\\/])(?:__pycache__|[^\\/]*_cache|[^\\/]*\.egg-info|dist|build)$|\.py[co]$/;

/** The runtimes `publish` uploads, below each target's compiled publish module (see the file's comment). */
async function publishRuntimes(dist: string): Promise<void> {
  const runtimeDist = await buildRuntime();
  const typescript = join(dist, "targets", "typescript", "publish", "runtime");
  await mkdir(typescript, { recursive: true });
  try {
    await promisify(execFile)(NPM, ["pack", "--pack-destination", typescript], { cwd: runtimeDist, maxBuffer: 16 * 2 ** 20 });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm pack of the TypeScript runtime (${runtimeDist}) failed:\n${stdout}${stderr}`);
  }
  const python = join(ROOT, "targets", "python", "runtime");
  for (const entry of ["pyproject.toml", "README.md", "src"])
    await cp(join(python, entry), join(dist, "targets", "python", "publish", "runtime", entry), {
      recursive: true,
      filter: (path) => !PYTHON_LEFT_OUT.test(path),
    });
  // Every file of the Go module: a module zip holds them all (tests too), and its h1: hash is over them.
  await cp(join(ROOT, "targets", "go", "runtime"), join(dist, "targets", "go", "publish", "runtime"), { recursive: true });
  await cp(join(ROOT, "targets", "go", "publish", "modproxy"), join(dist, "targets", "go", "publish", "modproxy"), { recursive: true });
}

export async function buildToolchain(): Promise<string> {
  const dist = join(ROOT, "dist");
  await rm(dist, { recursive: true, force: true });
  await tsc(join(ROOT, "tsconfig.build.json"));
  await cp(join(ROOT, "generator", "emit", "header.hbs"), join(dist, "generator", "emit", "header.hbs"));
  // Each target's templates beside its compiled emitters, where they look for them.
  for (const target of await readdir(join(ROOT, "targets"), { withFileTypes: true })) {
    const templates = join(ROOT, "targets", target.name, "templates");
    if (target.isDirectory() && existsSync(templates))
      await cp(templates, join(dist, "targets", target.name, "templates"), { recursive: true });
  }
  // The extensions' schemas the generator checks descriptions against; not the service's releases, which are this
  // repository's own project and no default of another.
  await cp(join(ROOT, "spec"), join(dist, "spec"), { recursive: true, filter: (from) => !from.startsWith(join(ROOT, "spec", "releases")) });
  await publishRuntimes(dist);
  // The generator's own schemas compiled ahead (Ajv's standalone code), so that a run does not compile them.
  const validators = join(dist, "generator", "validators");
  await mkdir(validators, { recursive: true });
  const checks = [
    ...conventionSchemaChecks(),
    variantsSchemaCheck,
    paginationSchemaCheck(),
    await configSchemaCheck(),
    pluginResponseCheck,
    // The OpenAPI 3.1 schema swagger-parser checks a description against (spec/schema-check.ts).
    openApi31SchemaCheck(),
  ];
  for (const check of checks) await writeFile(join(validators, validatorFile(check)), standaloneValidator(check));
  // Every template it ships compiled ahead (Handlebars' precompiled code), so that a run does not compile them.
  const compiled = join(dist, "generator", "emit", "compiled");
  await mkdir(compiled, { recursive: true });
  const { VERSION } = createRequire(import.meta.url)("handlebars/runtime") as { VERSION: string };
  const files = await readdir(dist, { recursive: true });
  for (const file of files.filter((f) => f.endsWith(".hbs"))) {
    const text = await readFile(join(dist, file), "utf8");
    await writeFile(join(compiled, templateFile(VERSION, text)), precompiledModule(text));
  }
  return dist;
}
