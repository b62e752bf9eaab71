// The toolchain's own package.json: its version for --version, and what a run's key holds of it (the version and
// the versions of the packages it generates with), read without loading any of them.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const NAME = "@paperoffice/sdk-toolchain";

interface Manifest {
  readonly name?: string;
  readonly version?: string;
  readonly dependencies?: Readonly<Record<string, string>>;
}

const readJson = (path: string): Manifest | undefined => {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Manifest;
  } catch {
    return undefined;
  }
};

/** The toolchain's package.json and its folder: two folders up when built into dist/, one up from the sources. */
function toolchainManifest(): { manifest: Manifest; root: string } | undefined {
  for (const path of ["../package.json", "../../package.json"]) {
    const file = fileURLToPath(new URL(path, import.meta.url));
    const manifest = readJson(file);
    if (manifest?.name === NAME) return { manifest, root: dirname(file) };
  }
  return undefined;
}

/** The toolchain's version. */
export function toolchainVersion(): string {
  return toolchainManifest()?.manifest.version ?? "unknown";
}

/**
 * The toolchain's version and each installed version of its dependencies (found the way Node finds them: in
 * node_modules of the toolchain's folder or of one above it), one per line: an upgrade of either changes output.
 */
export function toolchainVersions(): string {
  const found = toolchainManifest();
  if (found === undefined) return "unknown";
  const lines = [`${NAME}@${found.manifest.version ?? "unknown"}`];
  for (const dependency of Object.keys(found.manifest.dependencies ?? {}).sort()) {
    let version = "missing";
    for (let dir = found.root; ; dir = dirname(dir)) {
      const manifest = readJson(join(dir, "node_modules", dependency, "package.json"));
      if (manifest?.version !== undefined) {
        version = manifest.version;
        break;
      }
      if (dirname(dir) === dir) break;
    }
    lines.push(`${dependency}@${version}`);
  }
  return lines.join("\n");
}
