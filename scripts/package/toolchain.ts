// The toolchain's package (this repository's root package.json): the generator and its command compiled into
// dist/generator and dist/targets (emitters only: no runtime, no tests), with the templates and the extensions' schemas beside them, where the generator finds them.
import { existsSync } from "node:fs";
import { cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { configSchemaCheck } from "../../generator/config/load.js";
import { precompiledModule, templateFile } from "../../generator/emit/templates.js";
import { standaloneValidator, validatorFile } from "../../generator/schema-validator.js";
import { conventionSchemaChecks } from "../../generator/spec/conventions.js";
import { paginationSchemaCheck } from "../../generator/spec/pagination.js";
import { openApi31SchemaCheck } from "../../generator/spec/schema-check.js";
import { variantsSchemaCheck } from "../../generator/spec/variants.js";
import { pluginResponseCheck } from "../../generator/plugins/plugin.js";
import { ROOT, tsc } from "./run.js";

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
