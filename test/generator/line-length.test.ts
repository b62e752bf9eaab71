// Lines of the generated TypeScript: at most 120 columns. Exempt are the generated-file header (tools recognise it only
// as one line) and a line whose only content is one word or literal longer than that (a long URL in a comment, a long
// string literal), which no layout can cut.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MAX_LINE } from "../../targets/typescript/emit/ts-nodes.js";

const generated = fileURLToPath(new URL("../../generated/", import.meta.url));

/** The files held to the limit; the one that is not is listed with why. */
const CHECKED = ["errors.ts", "index.ts", "model.ts", "operations.ts", "requests.ts", "schemas.ts", "webhooks.ts"];
/**
 * Not held to it: types.ts is openapi-typescript's output as openapiTS() prints it (targets/typescript/test/
 * openapi-types.test.ts holds it to that text). Its astToString takes only TypeScript's PrinterOptions
 * (removeComments, newLine, omitTrailingSemicolon, noEmitHelpers), none of which sets a width: TypeScript's printer
 * never breaks a line, and openapi-typescript writes each description line into its doc comments whole. Its long
 * lines are those doc lines and unions printed on one line (`ErrorCode: "A" | "B" | ...`).
 */
const NOT_YET = ["operations.ts", "webhooks.ts", "types.ts"];

/** What is left of a line once a comment's mark or a trailing comma is taken away: one word or literal alone? */
function unbreakable(line: string): boolean {
  const content = line
    .trim()
    .replace(/^(\/\*\*|\*|\/\/)\s?/, "")
    .replace(/\s?\*\/$/, "")
    .replace(/[,;]$/, "");
  return !/\s/.test(content);
}

/** The lines over the limit, as `<file>:<line>: <length>`; the header line is not counted. */
function longLines(file: string, text: string, max = MAX_LINE): string[] {
  return text
    .split("\n")
    .map((line, i) => ({ line, number: i + 1 }))
    .filter(({ line, number }) => number > 1 && line.length > max && !unbreakable(line))
    .map(({ line, number }) => `${file}:${number}: ${line.length}`);
}

describe("generated TypeScript lines", () => {
  it.each(CHECKED)("%s has no line over 120 columns", (file) => {
    expect(longLines(file, readFileSync(`${generated}${file}`, "utf8"))).toEqual([]);
  });

  it("holds every other TypeScript file of generated/ to the limit too", () => {
    const files = readdirSync(generated).filter((f) => f.endsWith(".ts"));
    expect(files.filter((f) => !CHECKED.includes(f) && !NOT_YET.includes(f))).toEqual([]);
  });

  it("finds a line over the limit, and lets a lone long word or literal be", () => {
    const long = `export type X = ${Array.from({ length: 20 }, (_, i) => `"value${i}"`).join(" | ")};`;
    const url = ` * https://example.com/${"a".repeat(130)}`;
    const literal = `  "${"b".repeat(130)}",`;
    const text = ["// header", long, url, literal, "ok"].join("\n");
    expect(longLines("x.ts", text)).toEqual([`x.ts:2: ${long.length}`]);
  });
});
