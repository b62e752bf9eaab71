// The generated Python README's examples are code: every ```python block of the service's README (generated/python)
// and of two other APIs' READMEs (test/support/readme-examples.ts) passes strict pyright beside the package it
// documents, the service's blocks run to completion against the mock on 127.0.0.1 (its address and a token in place
// of the README's), and the README states the Python floor the package's pyproject.toml declares.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, writeFiles } from "../../../generator/generate.js";
import { codeBlocks, FOREIGN_DESCRIPTIONS, REPO_ROOT } from "../../../test/support/readme-examples.js";
import { emitPython } from "../emit/index.js";
import { type MockServer, startMock } from "../../../mock/index.js";
import { diagnosticLine, type PyrightReport, pyrightStrict } from "./checkers.js";
import { venvPython } from "./package.js";

const run = promisify(execFile);

const CASES = ["service", ...Object.keys(FOREIGN_DESCRIPTIONS)];

let dir: string;
let report: PyrightReport;
const readmes = new Map<string, string>();
const pyprojects = new Map<string, string>();

beforeAll(async () => {
  await mkdir(join(REPO_ROOT, ".tmp"), { recursive: true });
  dir = await mkdtemp(join(REPO_ROOT, ".tmp", "readme-py-"));
  // The service's package as committed, copied so that the examples can sit beside it.
  await cp(join(REPO_ROOT, "generated", "python"), join(dir, "service", "python"), { recursive: true });
  for (const [name, source] of Object.entries(FOREIGN_DESCRIPTIONS))
    await writeFiles(join(dir, name), (await generate(source, { emitters: [emitPython] })).files);
  for (const name of CASES) {
    const folder = join(dir, name, "python");
    readmes.set(name, readFileSync(join(folder, "README.md"), "utf8"));
    pyprojects.set(name, readFileSync(join(folder, "pyproject.toml"), "utf8"));
    for (const block of codeBlocks(readmes.get(name) ?? "", "python"))
      await writeFile(join(folder, `readme_example_${block.line}.py`), `${block.code}\n`);
  }
  report = await pyrightStrict(
    dir,
    CASES.map((name) => `${name}/python/readme_example_*.py`),
  );
}, 240_000);

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe("the Python README of the service, run", () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMock({ holdMs: 300, jobDurationMs: 100 });
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it("runs every example to completion against the mock, the answers printed rather than errors", async () => {
    const folder = join(dir, "service", "python");
    const readme = readmes.get("service") ?? "";
    // The README's base address is the description's first server; the examples reach the mock in its place.
    const address = /base_url="([^"]+)"/.exec(readme)?.[1];
    expect(address).toBeDefined();
    const blocks = codeBlocks(readme, "python");
    expect(blocks.length).toBeGreaterThan(1);
    const outputs: string[] = [];
    for (const block of blocks) {
      const code = block.code.replaceAll(`"${address}"`, JSON.stringify(mock.url)).replaceAll('"<token>"', '"svc_sk_readme0123456789"');
      const file = join(folder, `readme_run_${block.line}.py`);
      await writeFile(file, `${code}\n`);
      const result = await run(venvPython, [file], {
        cwd: folder,
        env: { ...process.env, PYTHONPATH: folder, PYTHONDONTWRITEBYTECODE: "1" },
        timeout: 60_000,
      }).catch((error: { stdout?: string; stderr?: string }) => ({
        stdout: "",
        stderr: `README.md line ${block.line}: ${`${error.stdout ?? ""}${error.stderr ?? ""}`.trim().split("\n").slice(-4).join("\n")}`,
      }));
      expect(result.stderr).toBe("");
      outputs.push(result.stdout);
    }
    // The examples that call the service print the answer (a model), not the status and code of an error.
    const called = outputs.filter((out) => out.trim() !== "");
    expect(called.length).toBeGreaterThanOrEqual(2);
    for (const out of called) expect(out).not.toMatch(/^\d{3} [A-Z_]+$/m);
    expect(mock.stats.invalidResponses).toEqual([]);
  }, 120_000);
});

describe.each(CASES)("the Python README of %s", (name) => {
  it("has examples that pass strict pyright beside the package", () => {
    const blocks = codeBlocks(readmes.get(name) ?? "", "python");
    expect(blocks.length).toBeGreaterThan(1);
    const mine = report.generalDiagnostics.filter((d) => d.file.includes(join(dir, name, "python")));
    expect(mine.filter((d) => d.severity === "error").map((d) => diagnosticLine(dir, d))).toEqual([]);
    expect(report.summary.filesAnalyzed).toBeGreaterThanOrEqual(blocks.length);
  });

  it("passes no placeholder where a value goes", () => {
    for (const block of codeBlocks(readmes.get(name) ?? "", "python")) expect(block.code).not.toMatch(/\{\s*\.\.\.\s*\}|\(\s*\.\.\.\s*\)/);
  });

  it("states the Python floor of its pyproject.toml", () => {
    const floor = /^requires-python = ">=(\d+\.\d+)"$/m.exec(pyprojects.get(name) ?? "")?.[1];
    expect(floor).toBe("3.10");
    expect(readmes.get(name)).toContain(`Python ${floor} or later`);
    expect(readmes.get(name)).not.toMatch(/Python 3\.(?!10\b)\d+\+?/);
  });

  it("gives the published route by its distribution name and the local route with the runtime first", () => {
    const distribution = /^name = "([^"]+)"$/m.exec(pyprojects.get(name) ?? "")?.[1];
    const install = codeBlocks(readmes.get(name) ?? "", "sh").map((b) => b.code);
    expect(install).toEqual([`pip install ${distribution}`, "pip install <paperoffice-sdk-runtime wheel or folder> ./python"]);
    // No distribution name is configured here: the README says the name is a guess.
    expect(readmes.get(name)).toContain("a guess");
  });
});
