// paperoffice-sdk.config.json: what `generate` writes, so that `npx paperoffice-sdk generate` needs no flags.
// Checked against config.schema.json; every problem names the file and the JSON pointer.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { nearest } from "../cli/args.js";
import { allTargets, LANGUAGE_NAMES, type LanguageName, type OptionalOutput, type TargetOptions } from "../languages.js";
import { type PluginSpec, pluginCommand } from "../plugins/plugin.js";
import type { SchemaCheck } from "../schema-validator.js";
import schema from "./config.schema.json" with { type: "json" };

export const CONFIG_FILE = "paperoffice-sdk.config.json";

export interface Config {
  readonly spec?: string;
  readonly release?: string;
  readonly out?: string;
  /** The project's releases folder: the configured one, else `releases` beside the description or the file. */
  readonly releases?: string;
  readonly languages?: readonly LanguageName[];
  readonly outputs?: Partial<Record<OptionalOutput, boolean>>;
  /** Generators as programs, commands resolved against the file's folder, which they run in. */
  readonly plugins?: readonly PluginSpec[];
  /** Each target's block, by target name, paths resolved. */
  readonly targets?: TargetOptions;
}

export interface LoadedConfig {
  /** The file it came from, or undefined when there is none. */
  readonly file: string | undefined;
  /** Paths resolved against the file's folder; the releases folder always set. */
  readonly config: Config & { readonly releases: string };
  /** The file's text ("" without a file): a run with nothing changed compares it instead of checking it again. */
  readonly text: string;
}

/**
 * Reads `file`, or paperoffice-sdk.config.json of `cwd` when it exists (no file: an empty configuration), and checks
 * it. With `check: false` it is only parsed: the caller checks it with checkConfig before it relies on it (a run
 * with nothing changed skips the check, and Ajv's load and compile, for a file the last checked run read as is).
 */
export async function loadConfig(cwd: string, file?: string, { check = true } = {}): Promise<LoadedConfig> {
  const path = resolve(cwd, file ?? CONFIG_FILE);
  if (file === undefined && !existsSync(path)) return { file: undefined, config: { releases: resolve(cwd, "releases") }, text: "" };
  let text: string;
  let value: unknown;
  try {
    text = await readFile(path, "utf8");
    value = JSON.parse(text);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
    throw new ConfigError(`${path}: ${reason}`);
  }
  if (check) await checkConfig(path, value);
  return { file: path, config: await resolveConfig(path, value as ConfigFile), text };
}

/** The file's fields as the schema allows them, before paths are resolved. */
type ConfigFile = Omit<Config, "targets" | "plugins"> & {
  readonly plugins?: Readonly<Record<string, { command: string | string[]; options?: Record<string, unknown>; timeoutSeconds?: number }>>;
} & Readonly<Record<string, unknown>>;

/**
 * The configuration file's schema check: config.schema.json with each target's block checked against the schema the
 * target brings, so that a new target needs no change here. The build compiles it ahead.
 */
export async function configSchemaCheck(): Promise<SchemaCheck> {
  const targets = await allTargets();
  const composed = {
    ...schema,
    properties: { ...schema.properties, ...Object.fromEntries([...targets].map(([name, t]) => [name, t.optionsSchema])) },
  };
  return { schema: composed, options: { allErrors: true, strict: false } };
}

/** Checks a loaded configuration file against the schema and the registry; throws a ConfigError naming each problem. */
export async function checkConfig(path: string, value: unknown): Promise<void> {
  // The validator loads here only: a run with nothing changed does not check the file again, and so does not load it.
  const { schemaValidator } = await import("../schema-validator.js");
  const validate = schemaValidator<Omit<Config, "targets" | "plugins">>(await configSchemaCheck());
  if (!validate(value)) {
    const lines = (validate.errors ?? []).map((e) => {
      const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues;
      const extra = (e.params as { additionalProperty?: string }).additionalProperty;
      return `${path}: ${e.instancePath || "/"}: ${e.message ?? "is invalid"}${allowed ? ` (${allowed.join(", ")})` : ""}${extra ? ` "${extra}"` : ""}`;
    });
    throw new ConfigError(lines.join("\n"));
  }
  // Languages are checked against the registry, not the schema, so that registering one is a single line.
  const unknown = (value.languages ?? []).flatMap((name, i) => {
    if ((LANGUAGE_NAMES as readonly string[]).includes(name)) return [];
    const hint = nearest(name, LANGUAGE_NAMES);
    return [
      `${path}: /languages/${i}: "${name}" is not a language of the generator (${LANGUAGE_NAMES.join(", ")})${hint ? `; did you mean ${hint}?` : ""}`,
    ];
  });
  if (unknown.length > 0) throw new ConfigError(unknown.join("\n"));
}

/** The configuration a file holds, its paths resolved against the file's folder. */
async function resolveConfig(path: string, value: ConfigFile): Promise<Config & { readonly releases: string }> {
  const targets = await allTargets();
  const base = dirname(path);
  const at = (p: string | undefined) => (p === undefined || /^https?:\/\//i.test(p) ? p : resolve(base, p));
  const blocks = value as Readonly<Record<string, unknown>>;
  const targetOptions = Object.fromEntries(
    [...targets].flatMap(([name, t]) => {
      const block = blocks[name] as Readonly<Record<string, unknown>> | undefined;
      if (block === undefined) return [];
      const paths = (t.pathOptions ?? []).flatMap((key) => (typeof block[key] === "string" ? [[key, at(block[key])]] : []));
      return [[name, { ...block, ...Object.fromEntries(paths) }]];
    }),
  );
  const spec = at(value.spec);
  // A project's releases are its own: beside its description (a file), else beside the configuration file.
  const releases =
    at(value.releases) ??
    (spec !== undefined && !/^https?:\/\//i.test(spec) ? resolve(dirname(spec), "releases") : resolve(base, "releases"));
  const config = {
    ...(spec !== undefined && { spec }),
    ...(value.release !== undefined && { release: value.release }),
    ...(value.out !== undefined && { out: at(value.out)! }),
    releases,
    ...(value.languages !== undefined && { languages: value.languages }),
    ...(value.outputs !== undefined && { outputs: value.outputs }),
    ...(value.plugins !== undefined && {
      plugins: Object.entries(value.plugins).map(([name, p]) => ({
        name,
        command: pluginCommand(p.command, base),
        cwd: base,
        ...(p.options !== undefined && { options: p.options }),
        ...(p.timeoutSeconds !== undefined && { timeoutSeconds: p.timeoutSeconds }),
      })),
    }),
    targets: targetOptions,
  };
  return config;
}

/** A configuration problem: reported as its lines, never with a stack trace. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}
