// Every ```ts block of README.md type-checks under the repository's strict options against generated/ and runtime/,
// and every block without a `// compile-only: <why>` first line runs to completion against the mock on 127.0.0.1,
// with SVC_BASE_URL and SVC_TOKEN set as the README says. Docs that rot fail here.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../mock/index.js";
import { asModule, type Example, tsExamples } from "./examples.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const README = "README.md";
const TOKEN = "svc_sk_readme0123456789";
const examples = tsExamples(readFileSync(join(ROOT, README), "utf8"));
const fileOf = (example: Example) => `readme-${example.line}.ts`;

let dir: string;
let mock: MockServer;
/** tsc's diagnostics per example file, as `README.md:<line>:<column> <message>`. */
const diagnostics = new Map<string, string[]>();
/** tsc's errors that name no example file (in the code they import, or in the options). */
const otherErrors: string[] = [];

beforeAll(async () => {
  await mkdir(join(ROOT, ".tmp"), { recursive: true });
  dir = await mkdtemp(join(ROOT, ".tmp", "readme-"));
  const root = relative(dir, ROOT).split("\\").join("/");
  for (const example of examples) await writeFile(join(dir, fileOf(example)), asModule(example, root));
  // The repository's compiler options as they are; only the files differ.
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ extends: `${root}/tsconfig.json`, include: ["*.ts"] }));
  const tsc = join(ROOT, "node_modules", "typescript", "lib", "tsc.js");
  const [output] = await Promise.all([
    run(process.execPath, [tsc, "-p", join(dir, "tsconfig.json"), "--pretty", "false"], { cwd: ROOT }).then(
      ({ stdout }) => stdout,
      (error: { stdout?: string }) => error.stdout ?? String(error),
    ),
    startMock({ holdMs: 300, jobDurationMs: 100 }).then((started) => {
      mock = started;
    }),
  ]);
  for (const line of output.split("\n")) {
    const match = /^(?:.*[\\/])?(readme-(\d+)\.ts)\((\d+),(\d+)\): (.*)$/.exec(line);
    if (match === null) {
      if (/error TS\d+/.test(line)) otherErrors.push(line);
      continue;
    }
    const [, file = "", start = "", row = "", column = "", message = ""] = match;
    diagnostics.set(file, [...(diagnostics.get(file) ?? []), `${README}:${Number(start) + Number(row) - 1}:${column} ${message}`]);
  }
}, 120_000);

afterAll(async () => {
  await mock?.stop();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe(`the TypeScript examples of ${README}`, () => {
  it("are found, and tsc reports nothing outside them", () => {
    expect(examples.length).toBeGreaterThan(0);
    expect(otherErrors).toEqual([]);
  });

  describe.each(examples.map((example) => ({ example, name: `${README}:${example.line}` })))("$name", ({ example }) => {
    it("type-checks under the strict options", () => {
      expect(diagnostics.get(fileOf(example)) ?? []).toEqual([]);
    });

    const title = example.compileOnly ? `is not run (${example.code.split("\n")[0]})` : "runs against the mock";
    it.skipIf(example.compileOnly)(title, async () => {
      const env = { ...process.env, SVC_BASE_URL: mock.url, SVC_TOKEN: TOKEN };
      const result = await run(process.execPath, ["--import", "tsx", join(dir, fileOf(example))], { cwd: ROOT, env, timeout: 30_000 }).then(
        () => "exited 0",
        (error: { code?: number; stderr?: string }) => `exited ${error.code}: ${error.stderr}`,
      );
      expect(result).toBe("exited 0");
    });
  });
});
