// TypeScript: one strict tsc program over every client (the repository's own compiler options), then every entry
// imported in one child process, as a user's project would load it.
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import ts from "typescript";
import type { MatrixDriver } from "./driver.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));

export const typescriptDriver: MatrixDriver = async (packages, work) => {
  const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile);
  const options = ts.parseJsonConfigFileContent(config.config, ts.sys, root).options;
  const entries = packages.flatMap((p) => [join(p.out, "index.ts"), join(p.out, "webhooks.ts")].filter((f) => ts.sys.fileExists(f)));
  const program = ts.createProgram(entries, { ...options, noEmit: true });
  const problems = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${relative(work, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
  });
  if (problems.length > 0) return problems;
  const script = join(work, "import-typescript.mts");
  await writeFile(
    script,
    `const failed: string[] = [];
for (const entry of ${JSON.stringify(entries)}) {
  try {
    await import(entry);
  } catch (error) {
    failed.push(entry + ": " + String(error));
  }
}
console.log(JSON.stringify(failed));
`,
  );
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script], { cwd: root, timeout: 120_000 });
  return (JSON.parse(stdout) as string[]).map((line) => relative(work, line));
};
