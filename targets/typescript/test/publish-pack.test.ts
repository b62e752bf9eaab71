// Packing the TypeScript SDK for publish: when its prepack script's compiler fails, the error shows the compiler's
// own diagnostics (the TS2307 line, with file and position), not only npm's exit code.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmFailure, pack } from "../publish/index.js";

const TSC = fileURLToPath(new URL("../../../node_modules/typescript/bin/tsc", import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "publish-pack-"));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("packing the SDK for publish", () => {
  it("shows the compiler's diagnostics when the prepack build fails", async () => {
    const sdk = join(dir, "sdk");
    await mkdir(sdk);
    const manifest = {
      name: "@acme/pets",
      version: "1.0.0",
      type: "module",
      scripts: { prepack: `node ${JSON.stringify(TSC)} -p tsconfig.json` },
    };
    await writeFile(join(sdk, "package.json"), JSON.stringify(manifest));
    await writeFile(
      join(sdk, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, module: "NodeNext", outDir: "dist", types: [] }, include: ["index.ts"] }),
    );
    await writeFile(
      join(sdk, "index.ts"),
      'import { createClient } from "@acme/missing-runtime";\nexport const client = createClient();\n',
    );
    const failed = await pack(sdk, dir, process.env).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failed).toMatch(/^index\.ts\(1,30\): error TS2307: Cannot find module '@acme\/missing-runtime'/m);
    expect(failed).toMatch(/^npm pack --json failed in .*:\n/);
    // npm's JSON summary and its pointer to the debug log say nothing more than the exit code.
    expect(failed).not.toContain('"summary": "command failed"');
    expect(failed).not.toContain("A complete log of this run");
  });

  it("puts diagnostics first, however much npm prints after them", () => {
    const npmLines = Array.from({ length: 30 }, (_, i) => `npm error line ${i}`).join("\n");
    const said = npmFailure(`a.ts(3,1): error TS2304: Cannot find name 'x'.\n{\n  "error": {\n    "code": 2\n  }\n}\n${npmLines}`);
    expect(said.split("\n")).toEqual([
      "a.ts(3,1): error TS2304: Cannot find name 'x'.",
      ...Array.from({ length: 8 }, (_, i) => `npm error line ${22 + i}`),
    ]);
  });
});
