// Doc comments of the generated Go code, without the Go toolchain: the declared name and the summary as the first
// sentence, the description's paragraphs, lists and code blocks as gofmt prints them, wrapped at GO_DOC_WIDTH, and
// `Deprecated:` paragraphs.
import { describe, expect, it } from "vitest";
import { GO_DOC_WIDTH, goDoc, summaryLead, wrapWords } from "../emit/escape.js";

const lines = (...l: string[]) => l.join("\n");

describe("Go doc comments", () => {
  it.each([
    ["Read a document", "get", "reads a document."],
    ["Poll a job.", "get", "polls a job."],
    ["Search the archive", "post", "searches the archive."],
    ["Copy a file", "post", "copies a file."],
    ["Lists the jobs", "get", "lists the jobs."],
    ["Daily document counts of a year", "get", "returns daily document counts of a year."],
    ["OCR/IDP results", "get", "returns OCR/IDP results."],
    ["Anonymization finalize", "post", "calls POST /x: Anonymization finalize."],
    ["Is it done?", "get", "returns is it done?"],
    ["  ", "get", undefined],
  ])("summary %j of a %s reads as the first sentence", (summary, method, expected) => {
    expect(summaryLead(summary, method, `${method.toUpperCase()} /x`)).toBe(expected);
  });

  it("puts the description in its own paragraphs after an empty line, wrapped", () => {
    const text = `${"word ".repeat(30)}\n\nSecond paragraph`;
    expect(goDoc("GetJob", "reads one job.", text)).toBe(
      lines(
        "// GetJob reads one job.",
        "//",
        `// ${"word ".repeat(20).trim()}`,
        `// ${"word ".repeat(10).trim()}`,
        "//",
        // A one-line paragraph ending in a letter would read as a heading to gofmt.
        "// Second paragraph.",
      ),
    );
  });

  it("never splits a word, and keeps a word longer than the width whole on its own line", () => {
    const url = `https://example.com/${"a".repeat(120)}`;
    expect(wrapWords(`see ${url} for more`, GO_DOC_WIDTH)).toEqual(["see", url, "for more"]);
    for (const line of wrapWords("lorem ipsum dolor sit amet ".repeat(40), GO_DOC_WIDTH)) {
      expect(line.length).toBeLessThanOrEqual(GO_DOC_WIDTH);
    }
  });

  it("keeps lists and code readable, as gofmt prints them", () => {
    const text =
      "Rules:\n\n* first rule\n  continued\n\n2) second\n\nCode:\n\n```go\n  x := 1\n    y := 2\n```\n\n# Notes\n| a | b |\n|---|---|";
    expect(goDoc("T", "is a type.", text, "\t")).toBe(
      lines(
        "\t// T is a type.",
        "\t//",
        "\t// Rules:",
        "\t//",
        "\t//   - first rule continued",
        "\t//  2. second",
        "\t//",
        "\t// Code:",
        "\t//",
        "\t//\tx := 1",
        "\t//\t  y := 2",
        "\t//",
        "\t// Notes.",
        "\t//",
        "\t//\t| a | b |",
        "\t//\t|---|---|",
      ),
    );
  });

  it("reads a block quote as the text it quotes", () => {
    expect(goDoc("T", "is a type.", "> [!NOTE]\n> - a note")).toBe(lines("// T is a type.", "//", "// [!NOTE]", "//", "//   - a note"));
  });

  it("writes a list beside a code block as a paragraph per item: Go's parser would read them as one block", () => {
    expect(goDoc("T", "is a type.", "- one\n- two\n\n```\ncode\n```")).toBe(
      lines("// T is a type.", "//", "// - one", "//", "// - two", "//", "//\tcode"),
    );
  });

  it("never starts a list item's continuation line with a list marker", () => {
    const text = `- ${"x".repeat(93)} - y`;
    expect(goDoc("T", "is a type.", text).split("\n").slice(2)).toEqual([`//   - ${"x".repeat(93)} -`, "//     y"]);
  });

  it("keeps line breaks, comment ends, directives and controls of a text from breaking the comment", () => {
    const doc = goDoc("T", "is a\ntitle */ with +build.", "//go:generate x\r\n\u0000 # heading");
    expect(doc).toBe(lines("// T is a title */ with + build.", "//", "// //go:generate x \\u0000 # heading."));
    for (const line of doc.split("\n")) expect(line === "//" || line.startsWith("// ")).toBe(true);
  });

  it("ends with a Deprecated: paragraph, and adds the generator's paragraphs after the description", () => {
    expect(goDoc("GetJob", "reads one job.", "Text.", "", { after: ["It calls GET /jobs."], deprecated: "use GetJobs." })).toBe(
      lines("// GetJob reads one job.", "//", "// Text.", "//", "// It calls GET /jobs.", "//", "// Deprecated: use GetJobs."),
    );
  });
});
