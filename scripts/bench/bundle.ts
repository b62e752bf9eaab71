// Browser bundle size with esbuild (minified, ESM, browser platform, no externals) and gzip (level 9): one operation
// imported alone and the whole client, ours and @hey-api/openapi-ts's for the same description, openapi-fetch alone,
// and a bare `getJob` written by hand over it (one operation with nothing but the least a client needs). Nothing is
// external: a `node:*` import that a browser bundler cannot resolve fails the build, and the failure is what the
// table shows; the size with `node:*` left external is shown beside it, labelled.
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { fmt, ROOT, table, verdict } from "./lib.js";

export interface BundleCase {
  key: string;
  name: string;
  contents: string;
}

/** Our client's cases; `heyDir` (relative to the root) adds @hey-api/openapi-ts's client of the same description. */
export function bundleCases(heyDir?: string): BundleCase[] {
  const cases: BundleCase[] = [
    {
      key: "one",
      name: "ours: one operation (`import { createClient, getJob }`)",
      contents: `export { createClient, getJob } from "./generated/index.ts";`,
    },
    { key: "whole", name: "ours: whole client (`export * from generated/index.ts`)", contents: `export * from "./generated/index.ts";` },
  ];
  if (heyDir !== undefined) {
    cases.push(
      {
        key: "hey-one",
        name: "@hey-api/openapi-ts: one operation (`import { getJob }`)",
        contents: `export { getJob } from "./${heyDir}/sdk.gen.ts";`,
      },
      {
        key: "hey-whole",
        name: "@hey-api/openapi-ts: whole client (`export * from index.ts`)",
        contents: `export * from "./${heyDir}/index.ts";`,
      },
    );
  }
  cases.push(
    { key: "openapi-fetch", name: "openapi-fetch alone (reference)", contents: `export { default } from "openapi-fetch";` },
    {
      key: "floor",
      name: "a bare `getJob` by hand over openapi-fetch (reference: scripts/bench/floor-client.ts)",
      contents: `export { createClient, getJob } from "./scripts/bench/floor-client.ts";`,
    },
  );
  return cases;
}

export interface BundleSize {
  minified: number;
  gzip: number;
  inputs: [string, number][];
  /** The minified bundle itself, for tests that look into it. */
  code: string;
}

export async function bundleSize(contents: string, external: string[] = []): Promise<BundleSize> {
  const result = await build({
    stdin: { contents, resolveDir: ROOT, sourcefile: "entry.ts", loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    external,
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.contents;
  const output = Object.values(result.metafile.outputs)[0]!;
  const inputs = Object.entries(output.inputs)
    .map(([file, info]): [string, number] => [file.replace(/^.*node_modules\//, ""), info.bytesInOutput])
    .sort((a, b) => b[1] - a[1]);
  return { minified: code.byteLength, gzip: gzipSync(code, { level: 9 }).byteLength, inputs, code: new TextDecoder().decode(code) };
}

export interface BundleResult {
  key: string;
  name: string;
  /** The build with no externals; undefined when it failed. */
  strict?: BundleSize;
  failure?: string;
  /** The build with node:* external, when the strict one failed. */
  nodeExternal?: BundleSize;
}

async function measure(c: BundleCase): Promise<BundleResult> {
  try {
    return { key: c.key, name: c.name, strict: await bundleSize(c.contents) };
  } catch (error) {
    const failure = (error instanceof Error ? error.message : String(error)).split("\n").slice(1).join(" ").trim().slice(0, 200);
    return { key: c.key, name: c.name, failure, nodeExternal: await bundleSize(c.contents, ["node:*"]) };
  }
}

/** The size that counts: the strict build's, or, when it failed, the node:*-external one's (flagged by `failure`). */
export const gzipOf = (r: BundleResult | undefined) => r?.strict?.gzip ?? r?.nodeExternal?.gzip ?? Number.NaN;

export async function benchBundles(heyDir?: string): Promise<{ table: string; results: BundleResult[]; summary: string[][] }> {
  const results: BundleResult[] = [];
  for (const c of bundleCases(heyDir)) results.push(await measure(c));
  const by = (key: string) => results.find((r) => r.key === key);
  const one = by("one");
  const whole = by("whole");
  const heyOne = by("hey-one");
  const flag = (r: BundleResult | undefined) => (r?.failure !== undefined ? " (node:* external: fails without)" : "");
  const summary: string[][] = [
    [
      "bundle, one operation (min + gzip)",
      `${fmt.kb(gzipOf(one))}${flag(one)}`,
      heyOne ? `@hey-api/openapi-ts ${fmt.kb(gzipOf(heyOne))}` : "",
      heyOne ? fmt.ratio(gzipOf(one) / gzipOf(heyOne)) : "",
      "<= 4 kB",
      one?.failure !== undefined ? "MISSED (does not build for the browser)" : verdict(gzipOf(one), 4000),
    ],
    [
      "bundle, whole client (min + gzip)",
      `${fmt.kb(gzipOf(whole))}${flag(whole)}`,
      by("hey-whole") ? `@hey-api/openapi-ts ${fmt.kb(gzipOf(by("hey-whole")))}` : "",
      by("hey-whole") ? fmt.ratio(gzipOf(whole) / gzipOf(by("hey-whole"))) : "",
      "<= 12 kB",
      whole?.failure !== undefined ? "MISSED (does not build for the browser)" : verdict(gzipOf(whole), 12_000),
    ],
  ];
  const rows = results.map((r) => [
    r.name,
    r.strict ? fmt.kb(r.strict.minified) : `fails: ${r.failure}`,
    r.strict ? fmt.kb(r.strict.gzip) : "",
    r.nodeExternal ? `${fmt.kb(r.nodeExternal.minified)} / ${fmt.kb(r.nodeExternal.gzip)}` : "",
  ]);
  const largest = whole?.strict ?? whole?.nodeExternal;
  const oneInputs = one?.strict ?? one?.nodeExternal;
  return {
    results,
    summary,
    table: [
      table(["entry", "minified (no externals)", "min + gzip (no externals)", "with node:* external: minified / min + gzip"], rows),
      "",
      "Largest inputs of our whole client (minified bytes in the output, before gzip):",
      "",
      table(
        ["input", "whole", "one operation"],
        (largest?.inputs ?? [])
          .slice(0, 12)
          .map(([file, bytes]) => [`\`${file}\``, fmt.kb(bytes), fmt.kb(oneInputs?.inputs.find(([f]) => f === file)?.[1] ?? 0)]),
      ),
    ].join("\n"),
  };
}
