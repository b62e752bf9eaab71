// Strict type-check time of the generated client vs openapi-typescript's types alone (generated/types.ts), each with
// `tsc --noEmit -p` on a temporary tsconfig under .tmp/, in alternating order. The client is measured twice:
// - as a project that generated its client gets it (`paperoffice-sdk generate --out src/client`): the generated
//   TypeScript sources, with the runtime read from the installed package's declarations (the generated client
//   imports the runtime by the path `runtimeModuleFor` gives, which in an installed package holds .js and .d.ts);
// - as this repository checks it: generated/ with the runtime's implementation sources, which no user compiles.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { currentRelease, releaseFile } from "../../test/support/service-releases.js";
import { bind, CLIENT_EMITTERS as TS_CLIENT_EMITTERS } from "../../targets/typescript/emit/index.js";
import { generate, writeFiles } from "../../generator/generate.js";
import { fmt, median, ROOT, runNode, table, verdict } from "./lib.js";

/** The repository's strict options (tsconfig.json), without its include list. */
const STRICT = {
  target: "ES2022",
  lib: ["ES2023", "DOM", "DOM.Iterable"],
  module: "NodeNext",
  moduleResolution: "NodeNext",
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitOverride: true,
  noFallthroughCasesInSwitch: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  skipLibCheck: true,
  noEmit: true,
  types: ["node"],
  incremental: false,
};

const PROJECT = "client generated into a project (its .ts sources; the runtime from the package's declarations)";
const TYPES = "openapi-typescript types alone (generated/types.ts)";
const SOURCES = "generated/ with the runtime's implementation sources (this repository's own check)";

const GITHUB_PROJECT = "GitHub's client generated into a project (the runtime from the package's declarations)";
const GITHUB_TYPES = "openapi-typescript types alone of GitHub's description (that client's types.ts)";

/** Files of each program, relative to .tmp/bench/tsc/. */
const PROGRAMS: Record<string, readonly string[]> = {
  [PROJECT]: ["project/client/index.ts"],
  [TYPES]: ["../../../generated/types.ts"],
  [SOURCES]: ["../../../generated/index.ts"],
  [GITHUB_PROJECT]: ["project/github/index.ts"],
  [GITHUB_TYPES]: ["project/github/types.ts"],
};

/** The TypeScript target's client emitters (the target's own list, so that no file is missed): a project's client folder. */
const CLIENT_EMITTERS = TS_CLIENT_EMITTERS.map((e) => bind(e, { runtimeModule: "../runtime/index.js" }));

export interface TscBench {
  table: string;
  /** The client a project compiles vs openapi-typescript's types: the target's figure. */
  ratio: number;
  /** generated/ with the runtime's sources vs the same types. */
  sourcesRatio: number;
  /** GitHub's client vs its openapi-typescript types, when measured. */
  githubRatio?: number;
}

/** `github`: the description file of GitHub's REST API, to check its generated client too (slower). */
export async function benchTsc(reps: number, github?: string): Promise<TscBench> {
  const dir = join(ROOT, ".tmp", "bench", "tsc");
  await rm(join(dir, "project"), { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const tsc = join(ROOT, "node_modules", "typescript", "lib", "tsc.js");
  await prepareProject(dir, tsc, github);
  const names = Object.keys(PROGRAMS).filter((n) => github !== undefined || (n !== GITHUB_PROJECT && n !== GITHUB_TYPES));
  const configs = new Map<string, string>();
  for (const [i, name] of names.entries()) {
    const file = join(dir, `tsconfig.${i}.json`);
    await writeFile(file, JSON.stringify({ compilerOptions: STRICT, files: PROGRAMS[name] }, null, 2));
    configs.set(name, file);
  }
  const wall = new Map<string, number[]>(names.map((n) => [n, []]));
  const total = new Map<string, number[]>(names.map((n) => [n, []]));
  const check = new Map<string, number[]>(names.map((n) => [n, []]));
  const files = new Map<string, number>();
  for (let rep = 0; rep < reps; rep++) {
    for (const name of rep % 2 === 0 ? names : [...names].reverse()) {
      const result = await runNode([tsc, "--noEmit", "-p", configs.get(name)!, "--extendedDiagnostics"]);
      if (result.code !== 0) throw new Error(`tsc failed on ${name}:\n${result.stdout}${result.stderr}`);
      wall.get(name)!.push(result.wallMs);
      const seconds = (label: string) => Number(new RegExp(`^${label}:\\s+([\\d.]+)s$`, "m").exec(result.stdout)?.[1]);
      total.get(name)!.push(seconds("Total time") * 1000);
      check.get(name)!.push(seconds("Check time") * 1000);
      files.set(name, Number(/^Files:\s+(\d+)/m.exec(result.stdout)?.[1]));
    }
  }
  const base = median(wall.get(TYPES)!);
  const rows = names.map((n) => {
    const w = median(wall.get(n)!);
    const reference = n === GITHUB_PROJECT || n === GITHUB_TYPES ? median(wall.get(GITHUB_TYPES)!) : base;
    return [n, String(files.get(n)), fmt.ms(w), fmt.ms(median(total.get(n)!)), fmt.ms(median(check.get(n)!)), fmt.ratio(w / reference)];
  });
  const ratio = median(wall.get(PROJECT)!) / base;
  const sourcesRatio = median(wall.get(SOURCES)!) / base;
  const githubRatio = github === undefined ? undefined : median(wall.get(GITHUB_PROJECT)!) / median(wall.get(GITHUB_TYPES)!);
  return {
    ratio,
    sourcesRatio,
    ...(githubRatio !== undefined && { githubRatio }),
    table: [
      `${reps} runs each of \`tsc --noEmit -p\` (strict options of tsconfig.json, skipLibCheck), alternating; medians.`,
      "",
      table(
        ["program", "files (with libs)", "wall time", "tsc total time", "of which check", "ratio (wall) vs its openapi-typescript types"],
        rows,
      ),
      "",
      `A project's generated client vs openapi-typescript's types: ${fmt.ratio(ratio)} (target <= 1.3x: ${verdict(ratio, 1.3)}). ` +
        `With the runtime's implementation sources: ${fmt.ratio(sourcesRatio)} (${verdict(sourcesRatio, 1.3)}).` +
        (githubRatio === undefined
          ? ""
          : ` GitHub's generated client vs its openapi-typescript types: ${fmt.ratio(githubRatio)} (${verdict(githubRatio, 1.3)}).`),
    ].join("\n"),
  };
}

/**
 * project/runtime holds the runtime's declarations as `npm run build` emits them; project/client the client the
 * generator writes for that runtime, from the current release.
 */
async function prepareProject(dir: string, tsc: string, github: string | undefined): Promise<void> {
  const dts = {
    ...STRICT,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: "../../../targets/typescript/runtime",
    outDir: "project/runtime",
  };
  await writeFile(
    join(dir, "tsconfig.dts.json"),
    JSON.stringify({ compilerOptions: dts, files: ["../../../targets/typescript/runtime/index.ts"] }, null, 2),
  );
  const emitted = await runNode([tsc, "-p", join(dir, "tsconfig.dts.json")]);
  if (emitted.code !== 0) throw new Error(`tsc could not emit the runtime's declarations:\n${emitted.stdout}${emitted.stderr}`);
  const { files } = await generate(releaseFile(currentRelease()), { emitters: CLIENT_EMITTERS });
  await writeFiles(join(dir, "project", "client"), files);
  if (github !== undefined) {
    const gh = await generate(join(ROOT, github), { emitters: CLIENT_EMITTERS });
    await writeFiles(join(dir, "project", "github"), gh.files);
  }
}
