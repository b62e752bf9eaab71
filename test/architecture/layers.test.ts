// `npm run test:quick` is the files of QUICK: none of them may start a child process, directly or through a helper
// it imports (a test that spawns tsc, python, go or npm belongs to `npm test` only).
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CONTRACT, QUICK } from "../layers.js";
import { importsOf, readSources } from "./boundaries.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
// Starting a process; worker threads (the generator's for large descriptions) are not processes.
const SPAWNS = new RegExp(`from ["'](node:)?child_${"process"}["']|import\\(["'](node:)?child_${"process"}["']\\)`);

/** A glob of test/layers.ts as a regular expression: `**` any folders, `*` within one name. */
function globPattern(glob: string): RegExp {
  const body = glob
    .split(/(\*\*\/|\*)/)
    .map((part) => (part === "**/" ? "(?:.*/)?" : part === "*" ? "[^/]*" : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${body}$`);
}

/** The first file reached from `file` through relative imports that starts a process, or undefined. */
function spawner(files: ReadonlyMap<string, string>, file: string, seen = new Set<string>()): string | undefined {
  if (seen.has(file)) return undefined;
  seen.add(file);
  const text = files.get(file);
  if (text === undefined) return undefined;
  if (SPAWNS.test(text)) return file;
  for (const next of importsOf(file, text)) {
    const found = spawner(files, next, seen);
    if (found !== undefined) return found;
  }
  return undefined;
}

describe("test layers", () => {
  const files = readSources(root, ["test", "targets", "mock", "generator", "scripts"]);
  const tests = [...files.keys()].filter((f) => f.endsWith(".test.ts"));
  const quick = tests.filter((f) => QUICK.some((g) => globPattern(g).test(f)));

  it("globs match as written", () => {
    expect(globPattern("targets/typescript/test/runtime/**/*.test.ts").test("targets/typescript/test/runtime/retry.test.ts")).toBe(true);
    expect(globPattern("targets/typescript/test/runtime/**/*.test.ts").test("targets/typescript/test/runtime/a/b.test.ts")).toBe(true);
    expect(globPattern("test/spec/pointer.test.ts").test("test/spec/pointerXtest.ts")).toBe(false);
    expect(globPattern("test/*/x.test.ts").test("test/a/b/x.test.ts")).toBe(false);
  });

  it("every glob of QUICK and CONTRACT names at least one test file", () => {
    for (const glob of [...QUICK, ...CONTRACT])
      expect(
        tests.some((f) => globPattern(glob).test(f)),
        glob,
      ).toBe(true);
  });

  it("no quick test starts a child process", () => {
    expect(quick.length).toBeGreaterThan(20);
    expect(quick.flatMap((f) => (spawner(files, f) === undefined ? [] : [`${f} reaches ${spawner(files, f)}`]))).toEqual([]);
  });

  it("the check sees a process started through a helper", () => {
    const more = new Map(files);
    // Spelt in two pieces, so that this file itself does not look like one that starts a process.
    more.set("test/x/helper.ts", `import { execFile } from "node:child_${"process"}";\nexport const run = execFile;`);
    more.set("test/x/a.test.ts", 'import { run } from "./helper.js";');
    expect(spawner(more, "test/x/a.test.ts")).toBe("test/x/helper.ts");
  });
});
