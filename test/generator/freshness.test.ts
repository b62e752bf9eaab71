import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { resolveRun } from "../../generator/cli/generate-command.js";
import { loadConfig } from "../../generator/config/load.js";
import { generate } from "../../generator/generate.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const generatedDir = join(root, "generated");
// What `npm run generate` writes: the repository's paperoffice-sdk.config.json, no flags.
const { source, options } = resolveRun((await loadConfig(root)).config, {});

async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? listFiles(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`])),
  );
  return nested.flat();
}

describe("the committed generated/ folder", async () => {
  const first = await generate(source, options);

  it("is exactly what the current release generates (run `npm run generate` when this fails)", async () => {
    expect((await listFiles(generatedDir)).sort()).toEqual(first.files.map((f) => f.path).sort());
    for (const file of first.files) expect(await readFile(join(generatedDir, file.path), "utf8"), file.path).toBe(file.content);
  });

  it("is byte-identical across runs, with LF line ends and no timestamps", async () => {
    const second = await generate(source, options);
    expect(second.files).toEqual(first.files);
    for (const file of first.files) {
      expect(file.content.includes("\r"), file.path).toBe(false);
      expect(/20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d(?!Z")/.test(file.content.slice(0, 400)), file.path).toBe(false);
    }
  });
});
