// The TypeScript packages of a release for an npm registry: the runtime's tarball and the SDK's (built by its
// prepack script, over the runtime's tarball), looked up with `npm view` by integrity, published with `npm publish`.
// npm finds the registry and the credentials in its own configuration (.npmrc, a scope's registry, a token written
// there as ${NODE_AUTH_TOKEN}); nothing here reads or prints them. The newest release takes the `latest` dist-tag; an
// older one published later gets a tag of its own, so that `latest` stays on the newest.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Artifact, Publication } from "../../../generator/publish/plan.js";
import type { PublishContext } from "../../../generator/target.js";
import { NPM, runtimePackage } from "./prerequisites.js";

const run = promisify(execFile);

/** The publishing options of the target's configuration block. */
export interface TypeScriptPublishOptions {
  /** The runtime's package: a tarball of `npm pack` or its built folder (default: the tarball the toolchain's package carries; in its repository, runtime/dist). */
  readonly runtimePackage?: string;
}

interface Packed {
  readonly filename: string;
  readonly integrity: string;
  readonly name: string;
  readonly version: string;
}

/**
 * What a failed npm command said, for its error: the compiler's diagnostics first (a prepack script's tsc prints its
 * `error TS2307: ...` lines before npm's own), then the end of the rest, without npm's JSON summary of the failure
 * and its pointer to the debug log, which repeat only the exit code.
 */
export function npmFailure(output: string): string {
  const lines = output
    .replace(/^\{\n\s+"error": \{[\s\S]*?\n\}$/m, "")
    .split("\n")
    .filter((line) => line.trim() !== "" && !/^npm (?:error|ERR!) A complete log of this run/.test(line));
  const diagnostics = lines.filter((line) => /\berror TS\d+:/.test(line));
  const rest = lines.filter((line) => !/\berror TS\d+:/.test(line));
  return [...diagnostics.slice(0, 20), ...(diagnostics.length > 20 ? [`... ${diagnostics.length - 20} more`] : []), ...rest.slice(-8)].join(
    "\n",
  );
}

/** Runs npm; a failure says which command failed with what it printed (npm prints no token). */
async function npm(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout } = await run(NPM, [...args], { cwd, env, maxBuffer: 64 * 2 ** 20, timeout: 600_000 });
    return stdout;
  } catch (error) {
    const { code, stdout = "", stderr = "" } = error as { code?: unknown; stdout?: string; stderr?: string };
    if (code === "ENOENT") throw new Error("npm is not on PATH: publishing the TypeScript packages needs npm");
    const failure = new Error(`npm ${args.slice(0, 2).join(" ")} failed in ${cwd}:\n${npmFailure(`${stdout}\n${stderr}`)}`);
    throw Object.assign(failure, { npmOutput: `${stdout}${stderr}` });
  }
}

/** npm's integrity of a tarball: sha512, base64. */
async function integrity(file: string): Promise<string> {
  return `sha512-${createHash("sha512")
    .update(await readFile(file))
    .digest("base64")}`;
}

/** Packs a package folder into `work` (running its prepack script), as npm reports the tarball. */
export async function pack(from: string, work: string, env: NodeJS.ProcessEnv): Promise<Packed> {
  const [packed] = JSON.parse(await npm(["pack", "--json", "--pack-destination", work], from, env)) as Packed[];
  if (packed === undefined) throw new Error(`npm pack printed nothing in ${from}`);
  return packed;
}

/** The runtime's tarball: the one given, else the one the toolchain carries, else packed from its built folder. */
async function runtimeTarball(given: string | undefined, work: string, env: NodeJS.ProcessEnv): Promise<string> {
  const found = runtimePackage(given);
  if ("problem" in found) throw new Error(`${found.problem.problem}: ${found.problem.fix}`);
  return found.path.endsWith(".tgz") ? found.path : join(work, (await pack(found.path, work, env)).filename);
}

export async function publishTypeScript(outDir: string, options: TypeScriptPublishOptions, context: PublishContext): Promise<Publication> {
  const manifest = join(outDir, "package.json");
  if (!existsSync(manifest))
    throw new Error("the TypeScript SDK is not a package: set typescript.package (its npm name) in the configuration");
  const { env, work } = context;
  await mkdir(work, { recursive: true });
  const runtimeFile = await runtimeTarball(options.runtimePackage, work, env);
  // The tarball's own package.json says its name and version.
  const { stdout: inside } = await run("tar", ["-xOzf", runtimeFile, "package/package.json"], { maxBuffer: 2 ** 20 });
  const runtimeManifest = JSON.parse(inside) as { name: string; version: string };
  const runtime: Artifact = {
    name: runtimeManifest.name,
    version: runtimeManifest.version,
    file: runtimeFile,
    hash: await integrity(runtimeFile),
    runtime: true,
  };
  // The SDK builds over the runtime it requires (its prepack script runs tsc).
  await npm(["install", "--no-save", "--no-package-lock", runtimeFile, "typescript@~5.9"], outDir, env);
  const sdk = await pack(outDir, work, env);
  const tag = context.newest ? "latest" : `release-${context.release}`;
  const artifacts: Artifact[] = [
    runtime,
    {
      name: sdk.name,
      version: sdk.version,
      file: join(work, sdk.filename),
      hash: sdk.integrity,
      runtime: false,
      note: `dist-tag ${tag}`,
    },
  ];
  const scope = /^(@[^/]+)\//.exec(sdk.name)?.[1];
  // Asked where `npm view` and `npm publish` run, so that a project's own .npmrc counts for the plan's line too.
  const here = process.cwd();
  const configured = async (key: string) => (await npm(["config", "get", key], here, env)).trim();
  const scoped = scope === undefined ? "undefined" : await configured(`${scope}:registry`);
  const registry = scoped !== "undefined" && scoped !== "" ? scoped : await configured("registry");
  return {
    ecosystem: "npm",
    registry,
    artifacts,
    find: async (artifact) => {
      try {
        const out = (await npm(["view", `${artifact.name}@${artifact.version}`, "dist.integrity", "--json"], here, env)).trim();
        return out === "" ? undefined : (JSON.parse(out) as string);
      } catch (error) {
        if (/E404|404 Not Found/.test((error as { npmOutput?: string }).npmOutput ?? "")) return undefined;
        throw error;
      }
    },
    upload: async (artifact) => {
      await npm(["publish", artifact.file, "--tag", artifact.runtime ? "latest" : tag], here, env);
    },
  };
}
