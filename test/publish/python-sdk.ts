// The service's Python SDK of a release, generated into a folder as a release engineer's run writes it, and installed
// back from a package index, pinned, as a user installs it.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { generate, writeFiles } from "../../generator/generate.js";
import { releaseFile } from "../support/service-releases.js";

/** Generates the Python SDK of `release` below `dir` and returns its package folder (pyproject.toml's). */
export async function pythonSdk(release: string, dir: string): Promise<string> {
  const { files } = await generate(releaseFile(release), { languages: ["python"], outputs: [] });
  await writeFiles(dir, files);
  return join(dir, "python");
}

/** `pip install <requirement>` into the environment of `python`, from the index at `indexUrl` alone. */
export async function pipInstallPinned(python: string, indexUrl: string, requirement: string): Promise<void> {
  await promisify(execFile)(
    python,
    ["-m", "pip", "install", "--disable-pip-version-check", "--no-cache-dir", "--index-url", indexUrl, requirement],
    { timeout: 200_000 },
  );
}
