// What the description deprecates, marked @deprecated in the TypeScript client
// (test/matrix/descriptions/docs-deprecated.yaml): the deprecated operation's function, a deprecated parameter's
// property of the params type, and (through the types) deprecated fields and schemas; nothing else.
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../../generator/generate.js";
import { REPO_ROOT } from "../../../test/support/readme-examples.js";

const DOCS = join(REPO_ROOT, "test", "matrix", "descriptions", "docs-deprecated.yaml");
const files = new Map<string, string>();

beforeAll(async () => {
  const generated = await generate(DOCS, { languages: ["typescript"], outputs: [] });
  for (const f of generated.files) files.set(f.path, f.content);
}, 120_000);

/** The doc comment right above the line that starts with `declaration`. */
function docAbove(text: string, declaration: string): string {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => l.trimStart().startsWith(declaration));
  expect(at, `${declaration} is declared`).toBeGreaterThan(0);
  let start = at - 1;
  while (start > 0 && !lines[start]!.trimStart().startsWith("/**")) start--;
  return lines[at - 1]!.trim().endsWith("*/") ? lines.slice(start, at).join("\n") : "";
}

describe("deprecated operations and parameters in the TypeScript client", () => {
  it("marks the deprecated operation's function, and not the others", () => {
    const operations = files.get("operations.ts") ?? "";
    expect(docAbove(operations, "export function getReportLegacy(")).toMatch(
      /\n \* @deprecated The description marks this operation deprecated\.\n/,
    );
    expect(docAbove(operations, "export function listReports(")).not.toContain("@deprecated");
  });

  it("marks a deprecated parameter's property of the params type, and not the others", () => {
    const operations = files.get("operations.ts") ?? "";
    expect(docAbove(operations, "legacy_filter?: string;")).toContain("@deprecated");
    expect(docAbove(operations, "status?: string;")).not.toContain("@deprecated");
  });

  it("marks deprecated fields and schemas", () => {
    expect(docAbove(files.get("schemas.ts") ?? "", "export type OldReport")).toContain("@deprecated");
    expect(docAbove(files.get("types.ts") ?? "", "old_title?: string;")).toContain("@deprecated");
  });
});
