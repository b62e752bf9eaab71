// The service's Python SDK of a release, generated into a folder as a release engineer's run writes it.
import { join } from "node:path";
import { generate, writeFiles } from "../../generator/generate.js";
import { releaseFile } from "../../generator/spec/releases.js";

/** Generates the Python SDK of `release` below `dir` and returns its package folder (pyproject.toml's). */
export async function pythonSdk(release: string, dir: string): Promise<string> {
  const { files } = await generate(releaseFile(release), { languages: ["python"], outputs: [] });
  await writeFiles(dir, files);
  return join(dir, "python");
}
