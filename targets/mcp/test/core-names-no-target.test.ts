// The core names no target: no file of generator/ says the MCP target's name or its SDK's (the import-boundary
// test, test/architecture/boundaries.test.ts, sees imports only; this sees the words, comments and strings too).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "./support.js";

/** Every file below `dir`, as paths. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesBelow(path) : [path];
  });
}

/** The target's name as a word, its SDK's name, and the protocol's name. */
const NAMES = /\bmcp\b|modelcontextprotocol|model context protocol/i;

describe("the core", () => {
  it("has no file that names the MCP target", () => {
    const files = filesBelow(join(root, "generator"));
    expect(files.length).toBeGreaterThan(50);
    const naming = files.filter((f) => NAMES.test(readFileSync(f, "utf8"))).map((f) => relative(root, f));
    expect(naming).toEqual([]);
  });
});
