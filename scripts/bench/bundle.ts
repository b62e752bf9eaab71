// Bundle size with esbuild (minified, ESM, browser platform) and gzip (level 9): the runtime plus the whole generated
// client, one operation imported alone, the server-side webhooks entry, and openapi-fetch alone for reference.
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { fmt, ROOT, table, verdict } from "./lib.js";

export interface BundleCase {
  name: string;
  contents: string;
}

export const BUNDLE_CASES: readonly BundleCase[] = [
  { name: "whole client (`export * from generated/index.ts`)", contents: `export * from "./generated/index.ts";` },
  { name: "one operation (`import { createClient, getJob }`)", contents: `export { createClient, getJob } from "./generated/index.ts";` },
  { name: "openapi-fetch alone (reference)", contents: `export { default } from "openapi-fetch";` },
  { name: "webhooks entry alone (`<package>/webhooks`, server-side)", contents: `export * from "./generated/webhooks.ts";` },
];

export async function bundleSize(contents: string): Promise<{ minified: number; gzip: number; inputs: [string, number][] }> {
  const result = await build({
    stdin: { contents, resolveDir: ROOT, sourcefile: "entry.ts", loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    // Node-only paths of the runtime load these lazily with import(); a browser bundle leaves them out.
    external: ["node:*"],
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.contents;
  const output = Object.values(result.metafile.outputs)[0]!;
  const inputs = Object.entries(output.inputs)
    .map(([file, info]): [string, number] => [file.replace(/^.*node_modules\//, ""), info.bytesInOutput])
    .sort((a, b) => b[1] - a[1]);
  return { minified: code.byteLength, gzip: gzipSync(code, { level: 9 }).byteLength, inputs };
}

export async function benchBundles(): Promise<{ table: string; wholeGzip: number; oneGzip: number }> {
  const sizes = await Promise.all(BUNDLE_CASES.map(async (c) => ({ ...c, ...(await bundleSize(c.contents)) })));
  const whole = sizes[0]!;
  const one = sizes[1]!;
  return {
    wholeGzip: whole.gzip,
    oneGzip: one.gzip,
    table: [
      table(
        ["entry", "minified", "minified + gzip", "share of whole (gzip)"],
        sizes.map((s) => [s.name, fmt.kb(s.minified), fmt.kb(s.gzip), fmt.ratio(s.gzip / whole.gzip)]),
      ),
      "",
      `Whole client ${fmt.kb(whole.gzip)} gzip (target < 15 kB: ${verdict(whole.gzip, 15_000)}); one operation alone ${fmt.kb(one.gzip)}, ` +
        `${((1 - one.gzip / whole.gzip) * 100).toFixed(0)}% smaller than the whole (tree-shaking ${one.gzip < whole.gzip ? "works" : "DOES NOT WORK"}).`,
      "",
      "Largest inputs of the whole client (minified bytes in the output, before gzip):",
      "",
      table(
        ["input", "whole", "one operation"],
        whole.inputs
          .slice(0, 12)
          .map(([file, bytes]) => [`\`${file}\``, fmt.kb(bytes), fmt.kb(one.inputs.find(([f]) => f === file)?.[1] ?? 0)]),
      ),
    ].join("\n"),
  };
}
