// The usage example in each generated operation's doc comment (`@example`, from the fixtures' values): every operation
// of generated/operations.ts has one, and every one type-checks under the repository's strict options, with a client
// made as the README makes it.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ts } from "../emit/typescript.js";
import { REPO_ROOT } from "../../../test/support/readme-examples.js";

const GENERATED = join(REPO_ROOT, "generated");
const operations = readFileSync(join(GENERATED, "operations.ts"), "utf8");
const ir = JSON.parse(readFileSync(join(GENERATED, "ir.json"), "utf8")) as { operations: { id: string }[] };

interface Example {
  /** The function the doc comment is on. */
  readonly function: string;
  readonly code: string;
}

/** Each `@example` code block with the function declared right after its doc comment. */
function examples(text: string): Example[] {
  const found: Example[] = [];
  const pattern = /\* @example\n \* ```ts\n((?: \*.*\n)*?) \* ```\n(?: \*.*\n)*? \*\/\nexport function (\w+)/g;
  for (const match of text.matchAll(pattern)) {
    const code = (match[1] ?? "")
      .split("\n")
      .map((l) => l.replace(/^ \* ?/, ""))
      .join("\n");
    found.push({ function: match[2] ?? "", code });
  }
  return found;
}

let dir: string;
const found = examples(operations);
const diagnostics = new Map<string, string[]>();

beforeAll(async () => {
  await mkdir(join(REPO_ROOT, ".tmp"), { recursive: true });
  dir = await mkdtemp(join(REPO_ROOT, ".tmp", "operation-examples-"));
  const index = join(GENERATED, "index.js");
  const files: string[] = [];
  for (const example of found) {
    const file = join(dir, `${example.function}.ts`);
    const header = [
      `import { createClient, ${example.function} } from ${JSON.stringify(index)};`,
      `const client = createClient({ baseUrl: "https://api.example.com/latest", token: "svc_sk_test" });`,
    ].join("\n");
    await writeFile(file, `${header}\n${example.code}\n`);
    files.push(file);
  }
  const config = ts.readConfigFile(join(REPO_ROOT, "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, REPO_ROOT);
  const program = ts.createProgram(files, { ...options, noEmit: true });
  for (const example of found) {
    const source = program.getSourceFile(join(dir, `${example.function}.ts`));
    const all = source === undefined ? [] : [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    diagnostics.set(
      example.function,
      all.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    );
  }
}, 120_000);

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe("the usage example of each operation", () => {
  it("is on every operation's function, one each", () => {
    const functions = found.map((e) => e.function);
    expect(new Set(functions).size).toBe(functions.length);
    expect(functions.length).toBe(ir.operations.length);
  });

  it.each(found.map((e) => [e.function, e] as const))("of %s calls it once and type-checks strictly", (name, example) => {
    expect(example.code.match(new RegExp(`\\bawait ${name}\\(\\s*client\\b`, "g"))).toHaveLength(1);
    expect(diagnostics.get(name)).toEqual([]);
  });
});
