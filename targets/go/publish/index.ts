// The Go modules of a release for a module proxy folder, the layout GOPROXY=file://<folder> reads and any static
// file server serves: the runtime module at its version and the SDK module at the release's (emit/version.ts says why
// v0.<yyyymmdd>.<hhmm>). Versions are compared by Go's h1: hash of their files, the hash go.sum records; a version
// is listed only once its files are written, so a run stopped half-way leaves nothing that looks published. The zips,
// their hashes and the folder's files are written by modproxy/ with golang.org/x/mod, Go's own module library. A
// module whose source lives in a version control repository is published there by the tag the plan names.
import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Artifact, Publication } from "../../../generator/publish/plan.js";
import { RELEASE_ID, SEMVER_ID } from "../../../generator/spec/releases.js";
import type { PublishContext } from "../../../generator/target.js";
import { goMajorSuffix, goModuleVersion } from "../emit/version.js";
import { RUNTIME_MODULE, RUNTIME_VERSION } from "../emit/view.js";
import { modproxy } from "./modproxy.js";
import { proxyFolder, runtimeModule } from "./prerequisites.js";

/** The publishing options of the target's configuration block. */
export interface GoPublishOptions {
  /** The module proxy folder (default: GOPROXY when it is a file:// URL). */
  readonly proxy?: string;
}

/**
 * A module path as the proxy's folders write it (module.EscapePath): each upper-case letter as '!' and the lower-case
 * one. Only to find a version's files; modproxy writes them.
 */
const escapedPath = (module: string) => module.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);

interface GoArtifact extends Artifact {
  readonly root: string;
  readonly time: string;
}

/** The version's zip and h1: hash, from a proxy folder of the run's own: what upload then writes into the proxy. */
async function moduleArtifact(root: string, version: string, time: string, work: string, runtime: boolean): Promise<GoArtifact> {
  const mod = await readFile(join(root, "go.mod"), "utf8").catch(() => {
    throw new Error(`${join(root, "go.mod")} is missing: generate the go target before publishing it`);
  });
  const name = /^module\s+(\S+)/m.exec(mod)?.[1];
  if (name === undefined) throw new Error(`${join(root, "go.mod")} names no module`);
  // Absolute paths: modproxy runs in its own folder.
  const staged = resolve(work, "go-proxy");
  const hash = await modproxy(["add", staged, resolve(root), name, version, time]);
  const file = join(staged, escapedPath(name), "@v", `${version}.zip`);
  return { name, version, file, hash, runtime, root, time, note: `tag ${version}` };
}

/** The time of a release id, as its version's time in the proxy; a semver version's is the time it is published. */
function releaseTime(release: string): string {
  if (SEMVER_ID.test(release)) return `${new Date().toISOString().slice(0, 19)}Z`;
  const [, date = "", time = ""] = RELEASE_ID.exec(release) ?? [];
  return `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6)}T${time.slice(0, 2)}:${time.slice(2)}:00Z`;
}

export async function publishGo(outDir: string, options: GoPublishOptions, context: PublishContext): Promise<Publication> {
  const proxy = proxyFolder(options as Readonly<Record<string, unknown>>, context.env);
  if (proxy === undefined)
    throw new Error("go: no module proxy folder to publish to: set go.proxy in the configuration, or GOPROXY to a file:// URL");
  const version = goModuleVersion(context.release);
  if (version === undefined) throw new Error(`go: ${context.release} is not a release id, so it gives no module version`);
  const runtime = runtimeModule();
  if (runtime === undefined) throw new Error("go: the runtime module's files are missing: reinstall the toolchain's package");
  await mkdir(context.work, { recursive: true });
  const artifacts = [
    await moduleArtifact(runtime, RUNTIME_VERSION, "2026-01-01T00:00:00Z", context.work, true),
    await moduleArtifact(join(outDir, "go"), version, releaseTime(context.release), context.work, false),
  ];
  const suffix = goMajorSuffix(version);
  if (!artifacts[1]!.name.endsWith(suffix)) {
    throw new Error(
      `go: version ${version} needs a module path ending in ${suffix} (Go's rule from major 2 on): set go.module to ${artifacts[1]!.name}${suffix}`,
    );
  }
  if (artifacts[0]!.name !== RUNTIME_MODULE) throw new Error(`go: the runtime's go.mod names ${artifacts[0]!.name}, not ${RUNTIME_MODULE}`);
  const folder = (artifact: Artifact) => join(resolve(proxy), escapedPath(artifact.name), "@v");
  return {
    ecosystem: "Go",
    registry: resolve(proxy),
    artifacts,
    find: async (artifact) => {
      const zip = join(folder(artifact), `${artifact.version}.zip`);
      const list = await readFile(join(folder(artifact), "list"), "utf8").catch(() => "");
      if (!list.split(/\s+/).includes(artifact.version) || !existsSync(zip)) return undefined;
      return modproxy(["hash", zip]);
    },
    upload: async (artifact) => {
      const { root, time } = artifact as GoArtifact;
      // The same program from the same folder: the same files, so the hash checked before anything went out.
      const written = await modproxy(["add", resolve(proxy), resolve(root), artifact.name, artifact.version, time]);
      if (written !== artifact.hash)
        throw new Error(
          `go: ${artifact.name}@${artifact.version} was written as ${written}, not ${artifact.hash}: its folder changed during the run`,
        );
    },
  };
}
