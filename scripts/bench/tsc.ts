// Strict type-check time: the generated client (generated/ with runtime/) vs openapi-typescript's types alone
// (generated/types.ts), each with `tsc --noEmit -p` on a temporary tsconfig under .tmp/, in alternating order. A
// third program imports the client through its declarations, which is what the tsc of a project that installed the
// package reads: no runtime implementation to check.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
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

export const TSC_CASES = {
  "generated client (generated/index.ts + runtime/)": ["../../../generated/index.ts"],
  "openapi-typescript types alone (generated/types.ts)": ["../../../generated/types.ts"],
  "generated client as installed (a file importing its declarations)": ["consumer.ts"],
} as const;

const CONSUMER = `import { createClient, getJob } from "./dts/generated/index.js";
const client = createClient({ baseUrl: "https://api.example.com/latest", token: "svc_sk_bench" });
export const job = getJob(client, { job_id: "job_1" });
`;

export async function benchTsc(reps: number): Promise<{ table: string; ratio: number }> {
  const dir = join(ROOT, ".tmp", "bench", "tsc");
  await mkdir(dir, { recursive: true });
  const names = Object.keys(TSC_CASES) as (keyof typeof TSC_CASES)[];
  const configs = new Map<string, string>();
  for (const [i, name] of names.entries()) {
    const file = join(dir, `tsconfig.${i}.json`);
    await writeFile(file, JSON.stringify({ compilerOptions: STRICT, files: TSC_CASES[name] }, null, 2));
    configs.set(name, file);
  }
  const tsc = join(ROOT, "node_modules", "typescript", "lib", "tsc.js");
  // The declarations as `npm run build` emits them, into dts/ beside the consumer.
  const dts = { ...STRICT, noEmit: false, declaration: true, emitDeclarationOnly: true, rootDir: "../../..", outDir: "dts" };
  await writeFile(join(dir, "tsconfig.dts.json"), JSON.stringify({ compilerOptions: dts, files: TSC_CASES[names[0]!] }, null, 2));
  const emitted = await runNode([tsc, "-p", join(dir, "tsconfig.dts.json")]);
  if (emitted.code !== 0) throw new Error(`tsc could not emit the declarations:\n${emitted.stdout}${emitted.stderr}`);
  await writeFile(join(dir, "consumer.ts"), CONSUMER);
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
  const base = median(wall.get(names[1]!)!);
  const rows = names.map((n) => {
    const w = median(wall.get(n)!);
    return [n, String(files.get(n)), fmt.ms(w), fmt.ms(median(total.get(n)!)), fmt.ms(median(check.get(n)!)), fmt.ratio(w / base)];
  });
  const ratio = median(wall.get(names[0]!)!) / base;
  return {
    ratio,
    table: [
      `${reps} runs each of \`tsc --noEmit -p\` (strict options of tsconfig.json, skipLibCheck), alternating; medians.`,
      "",
      table(["program", "files (with libs)", "wall time", "tsc total time", "of which check", "ratio (wall)"], rows),
      "",
      `Generated client vs openapi-typescript's types: ${fmt.ratio(ratio)} (target <= 1.3x: ${verdict(ratio, 1.3)}). ` +
        `As installed: ${fmt.ratio(median(wall.get(names[2]!)!) / base)}.`,
    ].join("\n"),
  };
}
