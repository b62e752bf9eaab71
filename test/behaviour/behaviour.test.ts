// The behaviour suite: every scenario of scenarios.json, played by the scenario server, through each language's
// driver (the Python one through the generated package's wheel, installed beside the runtime's). A scenario a
// language does not keep yet is listed in expected-failures.json; the list is checked both ways, so a listed
// scenario that starts passing fails here until it is taken off the list.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envNames } from "../../generator/emit/env-names.js";
import type { IR } from "../../generator/ir/types.js";
import { sdkLanguages } from "../../generator/languages.js";
import { schemaValidator } from "../../generator/schema-validator.js";
import driverContract from "./driver-contract.schema.json" with { type: "json" };
import { generatedPythonModule } from "../../targets/python/test/package.js";
import { installWheels } from "../../targets/python/test/wheels.js";
import { runCase } from "./drivers/typescript.js";
import { buildGoDriver, GO_BUILD_LIMIT_MS, removeGoDrivers } from "./go-drivers.js";
import { judge } from "./judge.js";
import { BODY, DEFAULT_CLIENT, type DriverCase, type DriverResult, loadScenarios, PIPELINE, TOKEN } from "./scenario.js";
import { RemoteScenarioServer } from "./remote.js";

const here = fileURLToPath(new URL("./", import.meta.url));
/** Cases a driver runs side by side. */
const CONCURRENCY = 6;

const scenarios = loadScenarios();
const expectedFailures = JSON.parse(readFileSync(new URL("./expected-failures.json", import.meta.url), "utf8")) as Record<
  string,
  Record<string, string>
>;

/** The log variable as the generated code reads it: named from the description the generated clients were made from. */
const LOG_VARIABLE = envNames(JSON.parse(readFileSync(new URL("../../generated/ir.json", import.meta.url), "utf8")) as IR).log;

type Driver = (cases: DriverCase[]) => Promise<DriverResult[]>;

const typescriptDriver: Driver = async (cases) => {
  const results: DriverResult[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < cases.length; i = next++) results[i] = await runCase(cases[i]!);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return results;
};

/** The interpreter of a fresh environment with the generated package's and the runtime's wheels installed. */
let installedPython: string;

const pythonDriver =
  (mode: "sync" | "async"): Driver =>
  (cases) =>
    new Promise((resolve, reject) => {
      const env: NodeJS.ProcessEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: "1" };
      delete env.PYTHONPATH;
      const child = execFile(
        installedPython,
        [`${here}drivers/python_driver.py`],
        {
          env,
          maxBuffer: 64 * 1024 * 1024,
          timeout: 100_000,
        },
        (error, stdout, stderr) => {
          if (error) reject(new Error(`the Python driver failed: ${error.message}\n${stderr}`));
          else resolve(JSON.parse(stdout) as DriverResult[]);
        },
      );
      child.stdin?.end(JSON.stringify({ module: generatedPythonModule(), mode, concurrency: CONCURRENCY, cases }));
    });

/** The Go driver (drivers/go), built once in a hook (go-drivers.ts), fed the cases on stdin. */
const goDriver: Driver = async (cases) => {
  const { binary, env } = await buildGoDriver(".");
  return await new Promise((resolve, reject) => {
    const child = execFile(binary, [], { env, maxBuffer: 64 * 1024 * 1024, timeout: 100_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`the Go driver failed: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as DriverResult[]);
    });
    child.stdin?.end(JSON.stringify({ concurrency: CONCURRENCY, cases }));
  });
};

const LANGUAGES: [string, Driver][] = [
  ["typescript", typescriptDriver],
  ["python-sync", pythonDriver("sync")],
  ["python-async", pythonDriver("async")],
  ["go", goDriver],
];

let server: RemoteScenarioServer;
let wheelsDir: string | undefined;
beforeAll(async () => {
  server = await RemoteScenarioServer.start();
  // The Python driver runs the package as users get it: from its wheel, beside the runtime's, in a fresh venv.
  wheelsDir = mkdtempSync(join(tmpdir(), "behaviour-python-"));
  installedPython = (await installWheels(wheelsDir)).python;
}, 240_000);
beforeAll(() => buildGoDriver(".").then(() => undefined), GO_BUILD_LIMIT_MS);
afterAll(async () => {
  await removeGoDrivers();
  await server?.stop();
  if (wheelsDir) rmSync(wheelsDir, { recursive: true, force: true });
});

async function casesOf(language: string): Promise<DriverCase[]> {
  const urls = await server.add(language, scenarios);
  return scenarios.map((s, i) => ({
    name: s.name,
    ...urls[i]!,
    token: TOKEN,
    client: { ...DEFAULT_CLIENT, ...s.client },
    ...(s.call && { call: s.call }),
    ...(s.copy && { copy: s.copy }),
    action: s.action,
    pipeline: PIPELINE,
    body: { ...(s.body ?? BODY) },
    ...(s.log !== undefined && { log: { variable: LOG_VARIABLE, value: s.log === "unset" ? null : s.log } }),
  }));
}

describe("behaviour suite", () => {
  it("has at least 40 scenarios covering every group", () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(40);
    const groups = new Set(scenarios.map((s) => s.group));
    expect([...groups].sort()).toEqual([
      "arguments",
      "deadline",
      "download",
      "errors",
      "fields",
      "logging",
      "options",
      "pagination",
      "polling",
      "redaction",
      "redirect",
      "retry",
      "start",
      "submission",
    ]);
  });

  it("has a driver for every registered language", async () => {
    // A language is done when it passes this suite: one registered without a driver here is not skipped quietly.
    const driven = (language: string) => LANGUAGES.some(([name]) => name === language || name.startsWith(`${language}-`));
    // A server target (`kind: "server"`) drives no client of its own here: it brings its own tests.
    expect((await sdkLanguages()).filter((l) => !driven(l))).toEqual([]);
  });

  it("lists only known scenarios and languages as expected failures", () => {
    const names = new Set(scenarios.map((s) => s.name));
    expect(Object.keys(expectedFailures).filter((l) => !LANGUAGES.some(([name]) => name === l))).toEqual([]);
    const unknown = Object.values(expectedFailures).flatMap((list) => Object.keys(list).filter((n) => !names.has(n)));
    expect(unknown).toEqual([]);
  });

  for (const [language, driver] of LANGUAGES) {
    it(`${language}: passes every scenario not listed, and fails every listed one`, async () => {
      const cases = await casesOf(language);
      const results = await driver(cases);
      // What the driver answered follows the contract every language's driver keeps (driver-contract.schema.json).
      const contract = schemaValidator({ schema: driverContract, options: { allErrors: true, strict: false } });
      expect(contract({ cases, results }), JSON.stringify(contract.errors?.slice(0, 3))).toBe(true);
      const recorded = await server.recorded(language);
      const byName = new Map(results.map((r) => [r.name, r]));
      const listed = expectedFailures[language] ?? {};
      const unexpected: string[] = [];
      let passed = 0;
      for (const s of scenarios) {
        const problems = judge(s, byName.get(s.name), recorded[s.name] ?? { main: [], foreign: [] });
        if (problems.length === 0) passed++;
        if (problems.length > 0 && !(s.name in listed)) unexpected.push(`${s.name}: ${problems.join("; ")}`);
        if (problems.length === 0 && s.name in listed) unexpected.push(`${s.name}: passes now; take it off expected-failures.json`);
      }
      console.log(`behaviour ${language}: ${passed} passed, ${scenarios.length - passed} failed (expected) of ${scenarios.length}`);
      expect(unexpected).toEqual([]);
    }, 110_000);
  }
});
