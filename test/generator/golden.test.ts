import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/generate.js";

// Each case is a small description with its expected output checked in. Regenerate the expectations with
// UPDATE_GOLDEN=1 npx vitest run test/generator/golden.test.ts, and review the diff.
const casesDir = fileURLToPath(new URL("./cases/", import.meta.url));
const cases = (await readdir(casesDir)).sort();

async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? listFiles(join(dir, e.name), `${prefix}${e.name}/`) : Promise.resolve([`${prefix}${e.name}`]))),
  );
  return nested.flat();
}

describe.each(cases)("golden output of %s", async (name) => {
  const { files } = await generate(join(casesDir, name, "openapi.yaml"));
  const expectedDir = join(casesDir, name, "expected");
  if (process.env.UPDATE_GOLDEN) {
    await rm(expectedDir, { recursive: true, force: true });
    for (const f of files) {
      await mkdir(dirname(join(expectedDir, f.path)), { recursive: true });
      await writeFile(join(expectedDir, f.path), f.content);
    }
  }

  it("writes exactly the expected files", async () => {
    expect(files.map((f) => f.path).sort()).toEqual((await listFiles(expectedDir)).sort());
  });

  it.each(files.map((f) => [f.path, f.content] as const))("%s matches its expectation", async (path, content) => {
    expect(content).toBe(await readFile(join(expectedDir, path), "utf8"));
  });
});
