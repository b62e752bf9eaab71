// The Python packages of a release for a package index: the runtime's wheel and the SDK's, built with
// `python3 -m build` (the build, twine and hatchling of the environment the command runs in), looked up in the index's
// simple API by file name and sha256, uploaded with `twine upload`. Twine reads its credentials as it always does
// (TWINE_USERNAME, TWINE_PASSWORD, ~/.pypirc); nothing here reads or prints them.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { access, cp, mkdir, readdir, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import type { Artifact, Publication } from "../../../generator/publish/plan.js";
import type { PublishContext } from "../../../generator/target.js";
import { runtimeProject } from "./prerequisites.js";

const run = promisify(execFile);
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

// Python's own TOML reader (tomllib; tomli, which `build` requires before 3.11, on older Pythons).
const READ_PROJECT = `import json, sys
try:
    import tomllib
except ImportError:
    import tomli as tomllib
with open(sys.argv[1], "rb") as f:
    project = tomllib.load(f).get("project", {})
print(json.dumps({"name": project.get("name"), "version": project.get("version")}))`;

/** A project's name and version from its pyproject.toml, read by Python's TOML reader. */
async function project(root: string, env: NodeJS.ProcessEnv): Promise<{ name: string; version: string }> {
  const file = join(root, "pyproject.toml");
  await access(file).catch(() => {
    throw new Error(`${file} is missing: generate the python target before publishing it`);
  });
  const { stdout } = await run("python3", ["-c", READ_PROJECT, file], { env }).catch((error: { stderr?: string }) => {
    throw new Error(`${file} could not be read as TOML: ${(error.stderr ?? "").trim().split("\n").at(-1) ?? ""}`);
  });
  const { name, version } = JSON.parse(stdout) as { name?: unknown; version?: unknown };
  if (typeof name !== "string" || typeof version !== "string" || !name || !version)
    throw new Error(`${file}: [project] has no name or version`);
  return { name, version };
}

/** Builds a project's wheel from a copy (building writes into the project folder). */
async function wheel(root: string, work: string, env: NodeJS.ProcessEnv, runtime: boolean): Promise<Artifact> {
  const { name, version } = await project(root, env);
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

const SIMPLE_JSON = "application/vnd.pypi.simple.v1+json";

/**
 * The sha256 the index gives for one file of a project, undefined when it does not hold the file. The simple API
 * is asked for its JSON form (PEP 691, as PyPI serves it) and read as HTML (PEP 503) when the index answers with that.
 */
export async function indexedSha256(indexUrl: string, name: string, file: string): Promise<string | undefined> {
  const url = `${indexUrl.replace(/\/?$/, "/")}${normalised(name)}/`;
  const response = await fetch(url, { headers: { accept: `${SIMPLE_JSON}, text/html;q=0.1` } }).catch((error: Error) => {
    throw new Error(`the package index ${indexUrl} did not answer: ${error.message}`);
  });
  if (response.status === 404) return undefined;
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const none = "(no sha256 given by the index)";
  if ((response.headers.get("content-type") ?? "").startsWith(SIMPLE_JSON)) {
    const page = (await response.json().catch(() => undefined)) as { files?: unknown } | undefined;
    if (!Array.isArray(page?.files)) throw new Error(`${url} answered ${SIMPLE_JSON} without a files list`);
    const entry = (page.files as { filename?: unknown; hashes?: { sha256?: unknown } }[]).find((f) => f?.filename === file);
    if (entry === undefined) return undefined;
    return typeof entry.hashes?.sha256 === "string" ? entry.hashes.sha256 : none;
  }
  const page = await response.text();
  for (const [, href = "", text = ""] of page.matchAll(/<a\s[^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g)) {
    if (text.trim() !== file) continue;
    return /#sha256=([0-9a-f]{64})/.exec(href)?.[1] ?? none;
  }
  return undefined;
}

/** PEP 503's normalised name, the simple API's folder. */
const normalised = (name: string) => name.toLowerCase().replace(/[-_.]+/g, "-");

export async function publishPython(outDir: string, options: PythonPublishOptions, context: PublishContext): Promise<Publication> {
  const indexUrl = (options.indexUrl ?? PYPI_SIMPLE).replace(/\/?$/, "/");
  const uploadUrl = options.uploadUrl ?? context.env.TWINE_REPOSITORY_URL ?? PYPI_UPLOAD;
  const runtime = runtimeProject();
  if (runtime === undefined) throw new Error("the Python runtime's sources are missing: reinstall the toolchain's package");
  const artifacts = [
    await wheel(runtime, context.work, context.env, true),
    await wheel(join(outDir, "python"), context.work, context.env, false),
  ];
  return {
    ecosystem: "PyPI",
    registry: uploadUrl,
    artifacts,
    find: (artifact) => indexedSha256(indexUrl, artifact.name, basename(artifact.file)),
    upload: async (artifact) => {
      await python(
        ["twine", "upload", "--non-interactive", "--disable-progress-bar", "--repository-url", uploadUrl, artifact.file],
        context.env,
      );
    },
  };
}
