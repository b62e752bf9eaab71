// The toolchain's package (this repository's root package.json): the generator and its command compiled into
// dist/generator and dist/targets (emitters only: no runtime, no tests), with the templates and the description's releases beside them, where the generator finds them.
import { existsSync } from "node:fs";
import { cp, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { configSchemaCheck } from "../../generator/config/load.js";
import { standaloneValidator, validatorFile } from "../../generator/schema-validator.js";
import { conventionSchemaChecks } from "../../generator/spec/conventions.js";
import { paginationSchemaCheck } from "../../generator/spec/pagination.js";
import { variantsSchemaCheck } from "../../generator/spec/variants.js";
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
  await cp(join(ROOT, "spec"), join(dist, "spec"), { recursive: true });
  // The generator's own schemas compiled ahead (Ajv's standalone code), so that a run does not compile them.
  const validators = join(dist, "generator", "validators");
  await mkdir(validators, { recursive: true });
  const checks = [...conventionSchemaChecks(), variantsSchemaCheck, paginationSchemaCheck(), await configSchemaCheck()];
  for (const check of checks) await writeFile(join(validators, validatorFile(check)), standaloneValidator(check));
  return dist;
}
