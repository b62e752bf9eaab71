// The generated READMEs of another API speak of that API only: none of the service's own words (its release ids,
// pipelines and variants, prices, its schema names, this repository's docs), no token for an API whose only scheme
// is HTTP basic, and in the TypeScript README's file table exactly the files the run wrote (`--outputs none` writes
// no fixtures/ and no ir.json). The first line, the generated-file marker, included: it says version, not release.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { EmittedFile } from "../../generator/emit/kit.js";
import { generate } from "../../generator/generate.js";
import { FOREIGN_DESCRIPTIONS, REPO_ROOT } from "../support/readme-examples.js";

const SERVICE_ONLY_WORDS: readonly RegExp[] = [
  /\brelease\b/i,
  /pipeline and variant/i,
  /\bprices?\b/i,
  /\bcredits\b/i,
  /\bModelTier\b/,
  /docs\/ir\.md/,
];

const READMES = ["README.md", "python/README.md", "go/README.md"];
const body = (files: readonly EmittedFile[], path: string) => files.find((f) => f.path === path)?.content ?? "";
/** The paths of the TypeScript README's file table. */
const listedFiles = (readme: string) =>
  [...readme.matchAll(/^\| `([^`]+)` \| (?!method)/gm)].map((m) => m[1] ?? "").filter((p) => /\.|\/$/.test(p));

const sources = FOREIGN_DESCRIPTIONS;
const outputs = new Map<string, readonly EmittedFile[]>();
for (const [name, source] of Object.entries(sources)) outputs.set(name, (await generate(source, { outputs: [] })).files);

describe.each(Object.keys(sources))("the READMEs of %s", (name) => {
  const files = outputs.get(name) ?? [];

  it.each(READMES)("%s holds none of the service's own words", (path) => {
    const text = body(files, path);
    expect(text.length).toBeGreaterThan(500);
    expect(SERVICE_ONLY_WORDS.filter((word) => word.test(text)).map(String)).toEqual([]);
  });

  it.each(READMES)("%s names neither fixtures/ nor ir.json, which --outputs none does not write", (path) => {
    expect(body(files, path)).not.toMatch(/fixtures\/|ir\.json/);
  });

  it("lists in the TypeScript README exactly the files written beside it", () => {
    const listed = listedFiles(body(files, "README.md"));
    const written = files.map((f) => f.path).filter((p) => !p.includes("/") && p !== "README.md");
    expect(listed.sort()).toEqual(written.sort());
  });
});

describe("the READMEs of an API whose only scheme is HTTP basic", () => {
  it.each(READMES)("%s shows a user name and password, and no token", (path) => {
    const text = body(outputs.get("basicOnly") ?? [], path);
    expect(text).not.toMatch(/\btoken\b/i);
    expect(text).toMatch(/username|WithBasicAuth/);
  });
});

describe("the TypeScript README of a package", () => {
  it("lists the package's files too, as written", async () => {
    const { files } = await generate(FOREIGN_DESCRIPTIONS.basicOnly ?? "", {
      languages: ["typescript"],
      outputs: [],
      targets: { typescript: { package: "@acme/basic-sdk" } },
    });
    const written = files.map((f) => f.path).filter((p) => !p.includes("/") && p !== "README.md");
    expect(written).toEqual(expect.arrayContaining(["package.json", "tsconfig.json", "tsconfig.cjs.json"]));
    expect(listedFiles(body(files, "README.md")).sort()).toEqual(written.sort());
  });
});

describe("the TypeScript README of a run writing every output", () => {
  it("lists fixtures/ and ir.json as they are written", async () => {
    const { files } = await generate(FOREIGN_DESCRIPTIONS.bodies ?? "", { languages: ["typescript"] });
    const listed = listedFiles(body(files, "README.md"));
    const written = [...new Set(files.map((f) => f.path.replace(/\/.*$/, "/")).filter((p) => p !== "README.md"))];
    expect(listed.sort()).toEqual(written.sort());
    expect(listed).toEqual(expect.arrayContaining(["fixtures/", "ir.json"]));
  });

  it("in generated/, the service's, as committed", () => {
    const readme = readFileSync(join(REPO_ROOT, "generated", "README.md"), "utf8");
    expect(listedFiles(readme)).toEqual(expect.arrayContaining(["fixtures/", "ir.json", "manifest.json"]));
  });
});
