// JSON Schema validators of the generator's own schemas (the extensions' under spec/, the configuration file's).
// Ajv compiles a schema into JavaScript at every run unless the build compiled it ahead: `npm run build` writes
// each one's standalone code (Ajv's standalone API) to dist/generator/validators/, named by the hash of the schema,
// the options and Ajv's version, so a validator is only ever used for the exact schema it was compiled from. The
// sources have none: run with tsx, every schema is compiled as before.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Options, ValidateFunction } from "ajv";

const require = createRequire(import.meta.url);

/** The folder of validators compiled ahead, beside this module. */
export const VALIDATORS_DIR = fileURLToPath(new URL("./validators/", import.meta.url));

/** The Ajv options a validator is compiled with (Ajv's JSON Schema 2020-12 class). */
export type ValidatorOptions = Pick<Options, "allErrors" | "strict" | "strictRequired" | "validateFormats">;

/** A schema and the options it is checked with: what the build compiles ahead. */
export interface SchemaCheck {
  readonly schema: object;
  readonly options: ValidatorOptions;
}

/** The file name of a validator compiled ahead. */
export function validatorFile(check: SchemaCheck): string {
  const ajv = (require("ajv/package.json") as { version: string }).version;
  const hash = createHash("sha256")
    .update(JSON.stringify([ajv, check.options, check.schema]))
    .digest("hex");
  return `${hash.slice(0, 24)}.cjs`;
}

/** The validator the build compiled for this exact schema, if it did. */
export function precompiledValidator<T = unknown>(check: SchemaCheck): ValidateFunction<T> | undefined {
  const file = join(VALIDATORS_DIR, validatorFile(check));
  return existsSync(file) ? (require(file) as ValidateFunction<T>) : undefined;
}

/** The validator of a schema: the build's, or compiled now when there is none for this exact schema. */
export function schemaValidator<T = unknown>(check: SchemaCheck): ValidateFunction<T> {
  const precompiled = precompiledValidator<T>(check);
  if (precompiled !== undefined) return precompiled;
  const { Ajv2020 } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  return new Ajv2020(check.options).compile<T>(check.schema);
}

/** The standalone module (CommonJS) of a schema's validator, as the build writes it. */
export function standaloneValidator(check: SchemaCheck): string {
  const { Ajv2020 } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  const standaloneCode = (require("ajv/dist/standalone/index.js") as typeof import("ajv/dist/standalone/index.js")).default;
  const ajv = new Ajv2020({ ...check.options, code: { source: true } });
  return standaloneCode(ajv, ajv.compile(check.schema));
}
