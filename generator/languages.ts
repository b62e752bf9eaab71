// The languages a run can write, as the registry (targets/index.ts) lists them, and the optional outputs that serve
// every language. Nothing here names a language: the registry does, and each target brings its own options.
import { TARGETS } from "../targets/index.js";
import type { Emitter } from "./emit/kit.js";
import type { Target, TargetContext } from "./target.js";

export type LanguageName = keyof typeof TARGETS & string;
export const LANGUAGE_NAMES = Object.keys(TARGETS) as LanguageName[];

const loaded = new Map<string, Promise<Target>>();

/** A registered target's definition (its summary, options and flags), without its emitters. */
export function loadTarget(name: LanguageName): Promise<Target> {
  let target = loaded.get(name);
  if (target === undefined) {
    target = TARGETS[name]().then((m) => m.target);
    loaded.set(name, target);
  }
  return target;
}

/** Every registered target's definition, by name. */
export async function allTargets(): Promise<ReadonlyMap<LanguageName, Target>> {
  return new Map(await Promise.all(LANGUAGE_NAMES.map(async (name) => [name, await loadTarget(name)] as const)));
}

/** The build folders the targets of a run declare (Target.buildFolders): what its output carries over as it is. */
export async function buildFoldersOf(languages: readonly string[]): Promise<string[]> {
  const known = languages.filter((l): l is LanguageName => (LANGUAGE_NAMES as readonly string[]).includes(l));
  return (await Promise.all(known.map(async (l) => (await loadTarget(l)).buildFolders ?? []))).flat();
}

/** The registered languages that are SDKs (no `kind`, or `sdk`): the ones the suites that drive clients take. */
export async function sdkLanguages(): Promise<LanguageName[]> {
  const targets = await allTargets();
  return LANGUAGE_NAMES.filter((name) => (targets.get(name)?.kind ?? "sdk") === "sdk");
}

/**
 * Why a run of these languages cannot be written: a target whose output imports another's (`requires`) without that
 * one in the run. One line a problem, [] when none.
 */
export async function missingRequirements(languages: readonly string[]): Promise<string[]> {
  const problems: string[] = [];
  for (const name of languages) {
    if (!(LANGUAGE_NAMES as readonly string[]).includes(name)) continue;
    const target = await loadTarget(name as LanguageName);
    const missing = (target.requires ?? []).filter((r) => !languages.includes(r));
    if (missing.length > 0)
      problems.push(
        `the ${name} target imports the output of ${missing.join(", ")}, which this run does not write: add ${missing.join(", ")} to the languages (--languages ${[...missing, ...languages].join(",")})`,
      );
  }
  return problems;
}

/** Outputs that serve every language and can be left out. */
export const OPTIONAL_OUTPUTS = {
  fixtures: {
    summary: "fixtures/: a valid request and a response per status for every operation",
    emitter: async () => (await import("./emit/fixtures/index.js")).emitFixtures,
  },
  ir: { summary: "ir.json: the intermediate model", emitter: async () => (await import("./emit/ir-json.js")).emitIrJson },
} as const satisfies Record<string, { summary: string; emitter: () => Promise<Emitter> }>;

export type OptionalOutput = keyof typeof OPTIONAL_OUTPUTS;
export const OPTIONAL_OUTPUT_NAMES = Object.keys(OPTIONAL_OUTPUTS) as OptionalOutput[];

/** Options of each target, by target name: the blocks of the configuration file of the same names. */
export type TargetOptions = Readonly<Partial<Record<string, Readonly<Record<string, unknown>>>>>;

/** The emitters of a run: the chosen languages', then the chosen optional outputs'; dispose frees what targets started. */
export async function emittersFor(
  languages: readonly LanguageName[] = LANGUAGE_NAMES,
  outputs: readonly OptionalOutput[] = OPTIONAL_OUTPUT_NAMES,
  options: TargetOptions = {},
  context: TargetContext = { descriptionBytes: 0, large: false },
): Promise<{ emitters: Emitter[]; dispose: () => void }> {
  const runs = await Promise.all(languages.map(async (l) => (await loadTarget(l)).load(options[l] ?? {}, context)));
  const optional = await Promise.all(outputs.map((o) => OPTIONAL_OUTPUTS[o].emitter()));
  return {
    emitters: [...runs.flatMap((r) => r.emitters), ...optional],
    dispose: () => {
      for (const r of runs) r.dispose?.();
    },
  };
}
