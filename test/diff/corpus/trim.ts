/**
 * Makes the corpus: trimmed copies of published descriptions, per manifest.json. Run by hand when the manifest
 * changes (the test reads only the copies):
 *
 *   npm pack @octokit/openapi@20.0.0 ...   # in a temporary folder, then extract each as <folder>/<version>/
 *   npx tsx test/diff/corpus/trim.ts <folder>
 *
 * A copy keeps `openapi`, `info`, the manifest's paths and every component they reference (transitively); media
 * type `examples` and `example` are dropped (the diff does not compare them). The sha256 of each published file
 * is checked against the manifest, so a copy is always made from the file the manifest names.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export interface Side {
  readonly version: string;
  /** Inside the package. */
  readonly file: string;
  /** Of the published file, before trimming. */
  readonly sha256: string;
  /** The trimmed copy, next to this script. */
  readonly copy: string;
  /** The paths kept: the same operations on both sides, written as each release writes them. */
  readonly paths: readonly string[];
}

export interface CorpusPair {
  readonly name: string;
  readonly package: string;
  readonly old: Side;
  readonly new: Side;
}

type Raw = Record<string, unknown>;
const isRaw = (v: unknown): v is Raw => v !== null && typeof v === "object" && !Array.isArray(v);
const mapValues = (o: Raw, f: (v: unknown) => unknown): Raw => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));

export function trim(document: Raw, paths: readonly string[]): Raw {
  const all = document.paths as Raw;
  const components = (document.components ?? {}) as Record<string, Raw>;
  const kept: Record<string, Raw> = {};
  const pending: unknown[] = [];
  // Examples of media types and parameters go; a property named `example` of a schema stays.
  const strip = (node: unknown, mediaTypes = false): unknown => {
    if (Array.isArray(node)) return node.map((n) => strip(n));
    if (!isRaw(node)) return node;
    const out: Raw = {};
    const example = mediaTypes || typeof node.in === "string";
    for (const [k, v] of Object.entries(node)) {
      if (example && (k === "examples" || k === "example")) continue;
      out[k] = mediaTypes ? strip(v) : k === "content" && isRaw(v) ? mapValues(v, (m) => strip(m, true)) : strip(v);
    }
    if (typeof node.$ref === "string") pending.push(node.$ref);
    return out;
  };
  const out: Raw = { openapi: document.openapi, info: document.info, paths: {} };
  for (const p of paths) {
    if (!isRaw(all[p])) throw new Error(`${p} is not a path of this description`);
    (out.paths as Raw)[p] = strip(all[p]);
  }
  while (pending.length > 0) {
    const ref = pending.pop() as string;
    const [, , kind, name] = ref.split("/");
    if (!kind || !name || kept[kind]?.[name] !== undefined) continue;
    kept[kind] ??= {};
    kept[kind][name] = strip(components[kind]?.[name]);
  }
  const sorted = Object.fromEntries(
    Object.keys(kept)
      .sort()
      .map((kind) => [
        kind,
        Object.fromEntries(
          Object.keys(kept[kind]!)
            .sort()
            .map((n) => [n, kept[kind]![n]]),
        ),
      ]),
  );
  return Object.keys(sorted).length > 0 ? { ...out, components: sorted } : out;
}

const here = fileURLToPath(new URL(".", import.meta.url));

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const folder = process.argv[2];
  if (!folder) throw new Error("give the folder holding the extracted packages, one <version>/package/ each");
  const manifest = JSON.parse(readFileSync(join(here, "manifest.json"), "utf8")) as CorpusPair[];
  for (const pair of manifest) {
    for (const side of [pair.old, pair.new]) {
      const text = readFileSync(join(folder, side.version, "package", side.file), "utf8");
      const sha = createHash("sha256").update(text).digest("hex");
      if (sha !== side.sha256) throw new Error(`${pair.package}@${side.version} ${side.file}: sha256 ${sha}, manifest ${side.sha256}`);
      writeFileSync(join(here, side.copy), `${JSON.stringify(trim(JSON.parse(text) as Raw, side.paths), null, 1)}\n`);
    }
  }
}
