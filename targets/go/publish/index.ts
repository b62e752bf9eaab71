// The Go modules of a release for a module proxy folder, the layout GOPROXY=file://<folder> reads and any static
// file server serves: the runtime module at its version and the SDK module at the release's (emit/version.ts says why
// v0.<yyyymmdd>.<hhmm>). Versions are compared by Go's h1: hash of their files, the hash go.sum records; a version
// is listed only once its files are written, so a run stopped half-way leaves nothing that looks published. A module
// whose source lives in a version control repository is published there by the tag the plan names.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Artifact, Publication } from "../../../generator/publish/plan.js";
import { RELEASE_ID } from "../../../generator/spec/releases.js";
import type { PublishContext } from "../../../generator/target.js";
import { goModuleVersion } from "../emit/version.js";
import { RUNTIME_MODULE, RUNTIME_VERSION } from "../emit/view.js";
import { hash1, readZip, writeZip, type ZipEntry } from "./zip.js";

const RUNTIME = fileURLToPath(new URL("../runtime/", import.meta.url));

/** The publishing options of the target's configuration block. */
export interface GoPublishOptions {
  /** The module proxy folder (default: GOPROXY when it is a file:// URL). */
  readonly proxy?: string;
}

/** A module path as the proxy's folders write it: each upper-case letter as '!' and the lower-case one. */
const escapedPath = (module: string) => module.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);

/** A module's files, as a module zip holds them: no nested module, no version control folder, no vendor/. */
async function moduleFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === "vendor" || entry.name.startsWith(".") || existsSync(join(path, "go.mod"))) continue;
        await walk(path);
      } else if (entry.isFile()) found.push(relative(root, path).split(sep).join("/"));
    }
  };
  await walk(root);
  return found.sort();
}

interface GoArtifact extends Artifact {
  readonly root: string;
  readonly time: string;
}

async function moduleArtifact(root: string, version: string, time: string, work: string, runtime: boolean): Promise<GoArtifact> {
  const mod = await readFile(join(root, "go.mod"), "utf8").catch(() => {
    throw new Error(`${join(root, "go.mod")} is missing: generate the go target before publishing it`);
  });
  const name = /^module\s+(\S+)/m.exec(mod)?.[1];
  if (name === undefined) throw new Error(`${join(root, "go.mod")} names no module`);
  const entries: ZipEntry[] = [];
  for (const file of await moduleFiles(root)) entries.push({ name: `${name}@${version}/${file}`, data: await readFile(join(root, file)) });
  const file = join(work, `${escapedPath(name).replaceAll("/", "_")}@${version}.zip`);
  await writeFile(file, writeZip(entries));
  return { name, version, file, hash: hash1(entries), runtime, root, time, note: `tag ${version}` };
}

/** The time of a release id, as its version's time in the proxy. */
function releaseTime(release: string): string {
  const [, date = "", time = ""] = RELEASE_ID.exec(release) ?? [];
  return `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6)}T${time.slice(0, 2)}:${time.slice(2)}:00Z`;
}

export async function publishGo(outDir: string, options: GoPublishOptions, context: PublishContext): Promise<Publication> {
  const fromEnv = context.env.GOPROXY?.split(/[,|]/).find((p) => p.startsWith("file://"));
  const proxy = options.proxy ?? (fromEnv === undefined ? undefined : fileURLToPath(fromEnv));
  if (proxy === undefined)
    throw new Error("go: no module proxy folder to publish to: set go.proxy in the configuration, or GOPROXY to a file:// URL");
  const version = goModuleVersion(context.release);
  if (version === undefined) throw new Error(`go: ${context.release} is not a release id, so it gives no module version`);
  await mkdir(context.work, { recursive: true });
  const artifacts = [
    await moduleArtifact(RUNTIME, RUNTIME_VERSION, "2026-01-01T00:00:00Z", context.work, true),
    await moduleArtifact(join(outDir, "go"), version, releaseTime(context.release), context.work, false),
  ];
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
      return hash1(readZip(await readFile(zip)));
    },
    upload: async (artifact) => {
      const { root, time } = artifact as GoArtifact;
      const dir = folder(artifact);
      await mkdir(dir, { recursive: true });
      const id = createHash("sha256").update(artifact.hash).digest("hex").slice(0, 8);
      // Each file whole or not at all (written aside, then renamed), and the list last.
      const put = async (name: string, data: Buffer | string) => {
        await writeFile(join(dir, `.${name}.${id}`), data);
        await rename(join(dir, `.${name}.${id}`), join(dir, name));
      };
      await put(`${artifact.version}.mod`, await readFile(join(root, "go.mod")));
      await put(`${artifact.version}.info`, JSON.stringify({ Version: artifact.version, Time: time }));
      await put(`${artifact.version}.zip`, await readFile(artifact.file));
      const known = (await readFile(join(dir, "list"), "utf8").catch(() => "")).split(/\s+/).filter(Boolean);
      await put("list", `${[...new Set([...known, artifact.version])].join("\n")}\n`);
    },
  };
}
