import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importsOf, readSources, ruleBroken, violations } from "./boundaries.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const FOLDERS = ["generator", "targets", "mock", "test/support"];

describe("import boundaries", () => {
  const files = readSources(root, FOLDERS);

  it("hold on the repository", () => {
    expect(files.size).toBeGreaterThan(100);
    expect(violations(files)).toEqual([]);
  });

  it("are seen through static, dynamic, type-only imports and re-exports", () => {
    const text = [
      'import type { A } from "./a.js";',
      'export { b } from "../b.js";',
      'const c = await import("./c/index.js");',
      'import "./d.js";',
      'import ts from "typescript";',
    ].join("\n");
    expect(importsOf("generator/x/y.ts", text)).toEqual([
      "generator/x/a.ts",
      "generator/b.ts",
      "generator/x/c/index.ts",
      "generator/x/d.ts",
    ]);
  });

  it("fail on a deliberate violation of each rule added to the repository's files", () => {
    const broken = new Map(files);
    broken.set("generator/spec/sneaky.ts", 'import { pythonView } from "../../targets/python/emit/view.js";');
    broken.set("targets/python/emit/sneaky.ts", 'import { tsNames } from "../../typescript/emit/names.js";');
    broken.set("targets/typescript/runtime/sneaky.ts", 'import type { IR } from "../../../generator/ir/types.js";');
    broken.set("mock/sneaky.ts", 'import { buildIR } from "../generator/ir/build.js";');
    broken.set("mock/sneaky2.ts", 'import { sign } from "../targets/typescript/runtime/webhooks/verify.js";');
    const found = violations(broken);
    expect(found.map((v) => v.from).sort()).toEqual([
      "generator/spec/sneaky.ts",
      "mock/sneaky.ts",
      "mock/sneaky2.ts",
      "targets/python/emit/sneaky.ts",
      "targets/typescript/runtime/sneaky.ts",
    ]);
    expect(found.every((v) => v.rule.length > 0)).toBe(true);
  });

  it.each([
    ["generator/languages.ts", "targets/index.ts", false],
    ["generator/cli.ts", "targets/index.ts", true],
    ["targets/index.ts", "targets/go/target.ts", false],
    ["targets/index.ts", "targets/go/emit/index.ts", true],
    ["targets/python/emit/view.ts", "generator/ir/types.ts", false],
    ["targets/go/emit/view.ts", "targets/python/emit/names.ts", true],
    ["targets/typescript/runtime/jobs.ts", "targets/typescript/runtime/errors.ts", false],
    ["targets/typescript/runtime/jobs.ts", "targets/typescript/emit/names.ts", true],
    ["mock/model.ts", "generator/ir/index.ts", false],
    ["mock/model.ts", "generator/ir/types.ts", true],
    ["test/support/wire.ts", "generator/generate.ts", false],
    ["test/support/wire.ts", "targets/python/emit/index.ts", true],
    ["targets/go/test/media.test.ts", "test/support/wire.ts", false],
  ])("%s -> %s broken: %s", (from, to, broken) => {
    expect(ruleBroken(from, to) !== undefined).toBe(broken);
  });
});
