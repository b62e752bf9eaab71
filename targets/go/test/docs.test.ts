// Doc comments of the generated Go modules: no comment line of generated/go wider than GO_DOC_WIDTH after `// `
// (but for a word that cannot be broken and the generated-code header, which Go wants on one line), and Deprecated:
// paragraphs for what the description deprecates (test/matrix/descriptions/docs-deprecated.yaml), gofmt, go vet and
// staticcheck clean.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureGoTools, REPO_ROOT } from "../../../scripts/setup/go-tools.mjs";
import { GO_DOC_WIDTH } from "../emit/escape.js";
import { expectGoClean, generateGo, writeGoWorkspace } from "./go-module.js";

const GENERATED = join(REPO_ROOT, "generated", "go");
const DOCS = join(REPO_ROOT, "test", "matrix", "descriptions", "docs-deprecated.yaml");

/** Comment lines wider than the width that hold a space (a single word cannot be wrapped), with where they are. */
function wideLines(file: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) => {
    const comment = /^\s*\/\/ ?(.*)$/.exec(line)?.[1];
    if (comment === undefined || comment.startsWith("Code generated ")) return [];
    const words = comment.trim();
    return comment.length > GO_DOC_WIDTH && words.includes(" ") ? [`${file}:${i + 1}: ${comment.length} columns`] : [];
  });
}

/** The doc comment right above the line declaring `decl` in a Go file. */
function docOf(text: string, decl: RegExp): string {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => decl.test(l));
  expect(at, `${decl} is declared`).toBeGreaterThan(0);
  let start = at;
  while (start > 0 && /^\s*\/\//.test(lines[start - 1]!)) start--;
  return lines.slice(start, at).join("\n");
}

describe("Go doc comments", () => {
  it("of generated/go are no wider than the width, but for words that cannot be broken", async () => {
    const files = (await readdir(GENERATED)).filter((f) => f.endsWith(".go"));
    expect(files.length).toBeGreaterThan(5);
    const wide: string[] = [];
    for (const f of files) wide.push(...wideLines(f, await readFile(join(GENERATED, f), "utf8")));
    expect(wide).toEqual([]);
  });

  it("mark what the description deprecates, and start with the name and the summary", async () => {
    const files = await generateGo(DOCS);
    const file = (name: string) => files.find((f) => f.path === `go/${name}`)!.content;
    const operations = file("operations.go");
    const types = file("types.go");
    const legacy = docOf(operations, /^func \(c \*Client\) GetReportLegacy\(/);
    expect(legacy.split("\n")[0]).toBe("// GetReportLegacy reads a report by its old identifier.");
    expect(legacy).toMatch(/\n\/\/\n\/\/ Deprecated: .+$/);
    expect(docOf(operations, /^\tLegacyFilter /)).toMatch(/\n\t\/\/\n\t\/\/ Deprecated: .+$/);
    expect(docOf(types, /^\tOldTitle /)).toMatch(/\n\t\/\/\n\t\/\/ Deprecated: .+$/);
    expect(docOf(types, /^type OldReport struct/)).toMatch(/\n\/\/\n\/\/ Deprecated: .+$/);
    for (const name of [/^\tStatus /, /^\tTitle /, /^type Report struct/, /^func \(c \*Client\) ListReports\(/]) {
      const doc = name.source.includes("Status")
        ? docOf(operations, name)
        : docOf(name.source.includes("ListReports") ? operations : types, name);
      expect(doc).not.toContain("Deprecated:");
    }
    const list = docOf(operations, /^func \(c \*Client\) ListReports\(/);
    expect(list.split("\n").slice(0, 3)).toEqual([
      "// ListReports lists the reports.",
      "//",
      "// Reports of the account, newest first. This sentence is long enough to be wrapped at about one",
    ]);
    expect(list).toContain("\n//   - `status`: only reports with this status; see\n//     https://example.com/a/very/long/");
    expect(list).toContain("\n//\tGET /reports?status=done\n");
    for (const f of files.filter((x) => x.path.endsWith(".go"))) expect(wideLines(f.path, f.content)).toEqual([]);
  });

  it("of deprecated declarations, lists and code blocks leave the module gofmt-clean and clean under go vet and staticcheck", async () => {
    const staticcheck = (await ensureGoTools()).staticcheck ?? "";
    const dir = await mkdtemp(join(tmpdir(), "go-docs-"));
    try {
      await writeGoWorkspace(dir, await generateGo(DOCS));
      await expectGoClean(dir, staticcheck);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
