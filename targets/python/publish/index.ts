// The Python packages of a release for a package index: the runtime's wheel and the SDK's, built with
// `python3 -m build` (the build, twine and hatchling of the environment the command runs in), looked up in the index's
// simple API by file name and sha256, uploaded with `twine upload`. Twine reads its credentials as it always does
// (TWINE_USERNAME, TWINE_PASSWORD, ~/.pypirc); nothing here reads or prints them.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdir, readdir, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Artifact, Publication } from "../../../generator/publish/plan.js";
import type { PublishContext } from "../../../generator/target.js";

const run = promisify(execFile);
const RUNTIME = fileURLToPath(new URL("../runtime/", import.meta.url));
const PYPI_SIMPLE = "https://pypi.org/simple/";
const PYPI_UPLOAD = "https://upload.pypi.org/legacy/";

/** The publishing options of the target's configuration block. */
export interface PythonPublishOptions {
  /** The index's simple API, where versions are looked up (default: PyPI's). */
  readonly indexUrl?: string;
  /** Where twine uploads (default: TWINE_REPOSITORY_URL, else PyPI's). */
  readonly uploadUrl?: string;
}

/** Runs a Python tool; a failure says which command failed with its output (the tools print no credential). */
async function python(args: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout } = await run("python3", ["-m", ...args], { env, maxBuffer: 64 * 2 ** 20, timeout: 600_000 });
    return stdout;
  } catch (error) {
    const { code, stdout = "", stderr = "" } = error as { code?: unknown; stdout?: string; stderr?: string };
    if (code === "ENOENT") throw new Error("python3 is not on PATH: publishing the Python packages needs python3 with build and twine");
    throw new Error(`python3 -m ${args.slice(0, 2).join(" ")} failed:\n${`${stdout}${stderr}`.trim().split("\n").slice(-15).join("\n")}`);
  }
}

/** A project's name and version from its pyproject.toml. */
async function project(root: string): Promise<{ name: string; version: string }> {
  const file = join(root, "pyproject.toml");
  const text = await readFile(file, "utf8").catch(() => {
    throw new Error(`${file} is missing: generate the python target before publishing it`);
  });
  const field = (key: string) => new RegExp(`^${key}\\s*=\\s*"([^"]+)"`, "m").exec(text)?.[1];
  const [name, version] = [field("name"), field("version")];
  if (!name || !version) throw new Error(`${file}: [project] has no name or version`);
  return { name, version };
}

/** Builds a project's wheel from a copy (building writes into the project folder). */
async function wheel(root: string, work: string, env: NodeJS.ProcessEnv, runtime: boolean): Promise<Artifact> {
  const { name, version } = await project(root);
  const copy = join(work, "src", name);
  const dist = join(work, "dist", name);
  await mkdir(dist, { recursive: true });
  await cp(root, copy, { recursive: true, filter: (path) => !/(__pycache__|_cache|\.egg-info|dist)$/.test(path) });
  await python(["build", "--wheel", "--no-isolation", "--outdir", dist, copy], env);
  const built = (await readdir(dist)).filter((f) => f.endsWith(".whl"));
  if (built.length !== 1) throw new Error(`building ${name} gave ${built.length} wheels in ${dist}`);
  const file = join(dist, built[0]!);
  const hash = createHash("sha256")
    .update(await readFile(file))
    .digest("hex");
  return { name, version, file, hash, runtime };
}

/** PEP 503's normalised name, the simple API's folder. */
const normalised = (name: string) => name.toLowerCase().replace(/[-_.]+/g, "-");

export async function publishPython(outDir: string, options: PythonPublishOptions, context: PublishContext): Promise<Publication> {
  const indexUrl = (options.indexUrl ?? PYPI_SIMPLE).replace(/\/?$/, "/");
  const uploadUrl = options.uploadUrl ?? context.env.TWINE_REPOSITORY_URL ?? PYPI_UPLOAD;
  const artifacts = [
    await wheel(RUNTIME, context.work, context.env, true),
    await wheel(join(outDir, "python"), context.work, context.env, false),
  ];
  return {
    ecosystem: "PyPI",
    registry: uploadUrl,
    artifacts,
    find: async (artifact) => {
      const url = `${indexUrl}${normalised(artifact.name)}/`;
      const response = await fetch(url).catch((error: Error) => {
        throw new Error(`the package index ${indexUrl} did not answer: ${error.message}`);
      });
      if (response.status === 404) return undefined;
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      const page = await response.text();
      const file = basename(artifact.file);
      for (const [, href = "", text = ""] of page.matchAll(/<a\s[^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g)) {
        if (text.trim() !== file) continue;
        return /#sha256=([0-9a-f]{64})/.exec(href)?.[1] ?? "(no sha256 given by the index)";
      }
      return undefined;
    },
    upload: async (artifact) => {
      await python(
        ["twine", "upload", "--non-interactive", "--disable-progress-bar", "--repository-url", uploadUrl, artifact.file],
        context.env,
      );
    },
  };
}
