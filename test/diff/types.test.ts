/** The second signal: a type-level test written for the committed client, compiled against a changed release's client. */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { checkTypes, rebaseImports } from "../../targets/typescript/emit/types-check.js";
import { at, base, type Doc } from "./helpers.js";
import { ROOT } from "./cli.js";

const fixture = join(ROOT, "test", "diff", "fixtures", "pdf-split.types.ts");

describe("the type-level test against the new client", () => {
  it("rewrites relative imports, except those into the generated client", () => {
    const text = `import { a } from "../../generated/index.js";\nimport { b } from "../../runtime/index.js";\nconst c = await import("./helpers.js");`;
    const from = join(ROOT, "test", "x", "t.ts");
    const to = join(ROOT, ".tmp", "types-check", "test", "x", "t.ts");
    expect(rebaseImports(text, from, to, join(ROOT, "generated"))).toBe(
      `import { a } from "../../generated/index.js";\nimport { b } from "../../../../runtime/index.js";\nconst c = await import("../../../../test/x/helpers.js");`,
    );
  });

  it("lists the lines that no longer compile when a variant field is removed", { timeout: 120_000 }, async () => {
    const document = structuredClone((await base()).document);
    delete (at(document, "/components/schemas/WorkflowPdfAiSplitRequest/allOf/2/properties") as Doc).include_reasoning;
    const dir = join(ROOT, ".tmp", "types-test");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "next.yaml"), stringify(document));
    const signal = await checkTypes(join(dir, "next.yaml"), fixture, ROOT);
    expect(signal.test).toBe("test/diff/fixtures/pdf-split.types.ts");
    expect(signal.failures).toHaveLength(1);
    expect(signal.failures[0]).toMatchObject({ file: "test/diff/fixtures/pdf-split.types.ts", line: 5 });
    expect(signal.failures[0]!.message).toMatch(/include_reasoning/);
  });
});
