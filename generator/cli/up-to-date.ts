// A run with nothing changed does no work: the description's bytes, the configuration file's text, the run's options,
// the toolchain's own code and the versions of it and its dependencies are hashed into one key, kept after a
// successful run beside the project's other tool caches (node_modules/.cache/paperoffice-sdk/), and a later run with
// the same key, whose output folder still holds exactly the files its manifest lists with their hashes, stops before
// loading the generator.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { GenerateOptions } from "../generate.js";
import { toolCachePath } from "../tool-cache.js";
import { toolchainVersions } from "../version.js";

/** The toolchain's root: the repository, or dist/ of the installed package (this file is <root>/generator/cli/). */
const TOOLCHAIN = fileURLToPath(new URL("../../", import.meta.url));
const CODE = /\.(ts|js|mjs|json|hbs)$/;
const SKIPPED = new Set(["node_modules", "runtime", "test", "dist", ".venv", "__pycache__"]);

let toolchain: Promise<string> | undefined;

/**
 * A hash of the toolchain's code (the core, the targets' emitters and templates) by path, size and modification time,
 * and of the versions of the toolchain and of its dependencies.
 */
function toolchainHash(): Promise<string> {
  toolchain ??= (async () => {
    const hash = createHash("sha256");
    const walk = async (dir: string): Promise<void> => {
      for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (SKIPPED.has(entry.name) || entry.name.startsWith(".")) continue;
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (CODE.test(entry.name)) {
          const { size, mtimeMs } = await stat(path);
          hash.update(`${path}\0${size}\0${mtimeMs}\n`);
        }
      }
    };
    for (const part of ["generator", "targets"]) if (existsSync(join(TOOLCHAIN, part))) await walk(join(TOOLCHAIN, part));
    hash.update(toolchainVersions());
    return hash.digest("hex");
  })();
  return toolchain;
}

/**
 * The key of a run, or undefined when its source cannot be read cheaply (an http(s) URL is fetched by the run).
 * `config` is the configuration file's text: the key of a file that was checked by the run that kept it stands for
 * that check. `toolchain` is the toolchain's hash (default: this toolchain's).
 */
export async function runKey(source: string, options: GenerateOptions, config: string, toolchain?: string): Promise<string | undefined> {
  if (/^https?:\/\//i.test(source)) return undefined;
  let text: Buffer;
  try {
    text = await readFile(source);
  } catch {
    return undefined; // the run itself reports the missing file
  }
  const { onStep: _, emitters: __, ...rest } = options;
  return createHash("sha256")
    .update(text)
    .update("\0")
    .update(JSON.stringify(rest))
    .update("\0")
    .update(config)
    .update("\0")
    .update(toolchain ?? (await toolchainHash()))
    .digest("hex");
}

/** The last run's record for an output folder, in the tool cache. */
const cacheFile = (out: string): string | undefined =>
  toolCachePath(`${createHash("sha256").update(resolve(out)).digest("hex").slice(0, 16)}.json`);

const sha256 = (bytes: Buffer): string => createHash("sha256").update(bytes).digest("hex");

/** True when the last run into `out` had this key and the folder still holds its output (its manifest) as it wrote it. */
export async function upToDate(out: string, key: string): Promise<boolean> {
  const file = cacheFile(out);
  if (file === undefined) return false;
  try {
    const recorded = JSON.parse(await readFile(file, "utf8")) as { key?: unknown; manifest?: unknown };
    if (recorded.key !== key) return false;
    // The folder must hold that run's output, not another's written since (by `release`, say), however whole.
    const text = await readFile(join(out, "manifest.json"));
    if (recorded.manifest !== sha256(text)) return false;
    const manifest = JSON.parse(text.toString("utf8")) as { files?: Record<string, string> };
    const files = Object.entries(manifest.files ?? {});
    if (files.length === 0) return false;
    for (const [path, hash] of files) if (sha256(await readFile(join(out, path))) !== hash) return false;
    return true;
  } catch {
    return false;
  }
}

/** Keeps the key of a run that wrote `out`. A cache that cannot be written only costs the next run its shortcut. */
export async function remember(out: string, key: string): Promise<void> {
  const file = cacheFile(out);
  if (file === undefined) return;
  try {
    const manifest = sha256(await readFile(join(out, "manifest.json")));
    await mkdir(join(file, ".."), { recursive: true });
    await writeFile(file, `${JSON.stringify({ key, out: resolve(out), manifest })}\n`);
  } catch {
    // read-only or missing node_modules: nothing to keep
  }
}
