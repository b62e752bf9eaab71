// Doc comments of the generated Go modules: no comment line of generated/go wider than GO_DOC_WIDTH after `// `
// (but for a word that cannot be broken and the generated-code header, which Go wants on one line); in generated/go,
// each method's summary as its first sentence with the description in its own paragraph, and a Deprecated: paragraph
// on each field the service's description deprecates (read from generated/ir.json); Deprecated: paragraphs for what
// test/matrix/descriptions/docs-deprecated.yaml deprecates, gofmt, go vet and staticcheck clean.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureGoTools, REPO_ROOT } from "../../../scripts/setup/go-tools.mjs";
import type { IR } from "../../../generator/ir/types.js";
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

/** A doc comment's text as one line, its comment markers and line breaks read as spaces. */
const prose = (doc: string): string => doc.replaceAll(/\s*\/\/\s*/g, " ");

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

  it("of generated/go start each method with its summary as a sentence, the description a paragraph after it", async () => {
    const ir = JSON.parse(await readFile(join(REPO_ROOT, "generated", "ir.json"), "utf8")) as IR;
    const operations = await readFile(join(GENERATED, "operations.go"), "utf8");
    // The Go name of each operation, from the descriptor the method passes to the runtime.
    const names = new Map([...operations.matchAll(/^var op(\w+) = sdkruntime\.Operation\{ID: "([^"]+)"/gm)].map((m) => [m[2]!, m[1]!]));
    const described = ir.operations.filter((o) => (o.summary ?? "").trim() !== "" && (o.description ?? "").trim() !== "");
    expect(described.length).toBeGreaterThan(5);
    let checked = 0;
    for (const op of described) {
      const name = names.get(op.id);
      expect(name, op.id).toBeDefined();
      // A job submission has no method of its own: its pipelines' methods are documented in jobs.go.
      if (!operations.includes(`\nfunc (c *Client) ${name}(`)) continue;
      checked++;
      const doc = docOf(operations, new RegExp(`^func \\(c \\*Client\\) ${name}\\(`)).split("\n");
      const opening = (op.description ?? "").trim().split(/\s+/).slice(0, 3).join(" ");
      // One sentence, then an empty comment line: gofmt and pkg.go.dev show that sentence as the synopsis.
      expect(doc[0], op.id).toMatch(new RegExp(`^// ${name} [^\\n]+\\.$`));
      expect(doc[0], op.id).not.toContain(opening);
      expect(doc[1], op.id).toBe("//");
      expect(prose(doc.slice(2).join("\n")), op.id).toContain(opening);
    }
    expect(checked).toBeGreaterThan(5);
  });

  it("of generated/go mark every field the description deprecates", async () => {
    const ir = JSON.parse(await readFile(join(REPO_ROOT, "generated", "ir.json"), "utf8")) as IR;
    // The properties the description deprecates, each by its name and the opening words of its description (a name
    // alone is not enough: another schema may have a property of that name it does not deprecate).
    const deprecated: { name: string; opening: string }[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node !== null && typeof node === "object") {
        const o = node as { kind?: unknown; properties?: unknown };
        if (o.kind === "object" && Array.isArray(o.properties))
          for (const p of o.properties as { name: string; schema: { deprecated?: boolean; description?: string } }[])
            if (p.schema.deprecated === true)
              deprecated.push({ name: p.name, opening: (p.schema.description ?? "").trim().split(/\s+/).slice(0, 5).join(" ") });
        Object.values(node).forEach(walk);
      }
    };
    walk(ir);
    expect(deprecated.length, "properties the service's description deprecates").toBeGreaterThan(0);
    let marked = 0;
    for (const f of (await readdir(GENERATED)).filter((x) => x.endsWith(".go"))) {
      const lines = (await readFile(join(GENERATED, f), "utf8")).split("\n");
      lines.forEach((line, at) => {
        const tag = /^\t\w+ .+ `json:"([^",]+)[,"]/.exec(line)?.[1];
        if (tag === undefined) return;
        let start = at;
        while (start > 0 && /^\s*\/\//.test(lines[start - 1]!)) start--;
        const doc = lines.slice(start, at).join("\n");
        const of = deprecated.find((d) => d.name === tag && d.opening !== "" && prose(doc).includes(d.opening));
        if (of !== undefined) {
          expect(doc, `${f}:${at + 1}: ${line.trim()}`).toMatch(/\n\t\/\/\n\t\/\/ Deprecated: .+/);
          marked++;
        } else expect(doc, `${f}:${at + 1}: ${line.trim()}`).not.toContain("Deprecated:");
      });
    }
    expect(marked).toBeGreaterThan(0);
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
