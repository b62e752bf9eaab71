// The Go runtime module's own checks, run with the Go toolchain: formatting, vet, staticcheck and its tests
// (httptest servers on 127.0.0.1). Each check must exit 0; its output is shown when it does not.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureGoTools, REPO_ROOT } from "../../../scripts/setup/go-tools.mjs";

const run = promisify(execFile);
const RUNTIME = join(REPO_ROOT, "targets", "go", "runtime");
const LIMIT = 300_000;
/** The behaviour scenarios every language's client is judged by; the Go tests play them against the runtime. */
const SCENARIOS = join(REPO_ROOT, "test", "behaviour", "scenarios.json");

interface Outcome {
  code: number;
  output: string;
}

/** Runs a command in the runtime folder and returns its exit code with stdout and stderr together. */
async function check(command: string, args: readonly string[], env: Record<string, string> = {}): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(command, [...args], {
      cwd: RUNTIME,
      env: { ...process.env, ...env },
      timeout: LIMIT,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string; message: string };
    return {
      code: typeof failed.code === "number" ? failed.code : -1,
      output: `${failed.stdout ?? ""}${failed.stderr ?? ""}\n${failed.message}`,
    };
  }
}

describe("Go runtime (targets/go/runtime)", () => {
  let staticcheck = "";

  beforeAll(async () => {
    const tools = await ensureGoTools();
    staticcheck = tools.staticcheck ?? "";
  }, LIMIT);

  it(
    "is formatted (gofmt -l lists nothing)",
    async () => {
      const outcome = await check("gofmt", ["-l", "."]);
      expect(outcome, outcome.output).toMatchObject({ code: 0 });
      expect(outcome.output.trim(), "files gofmt would change").toBe("");
    },
    LIMIT,
  );

  it(
    "passes go vet",
    async () => {
      const outcome = await check("go", ["vet", "./..."]);
      expect(outcome.code, outcome.output).toBe(0);
    },
    LIMIT,
  );

  it(
    "passes staticcheck",
    async () => {
      const outcome = await check(staticcheck, ["./..."]);
      expect(outcome.code, outcome.output).toBe(0);
    },
    LIMIT,
  );

  it(
    "has no third-party requirements in go.mod",
    async () => {
      const outcome = await check("go", ["list", "-m", "all"]);
      expect(outcome.code, outcome.output).toBe(0);
      expect(outcome.output.trim().split("\n"), "modules besides the runtime itself").toEqual(["github.com/paperoffice/sdk-runtime-go"]);
    },
    LIMIT,
  );

  it(
    "passes go test, the behaviour scenarios included",
    async () => {
      const outcome = await check("go", ["test", "-count=1", "-v", "./..."], { SDK_BEHAVIOUR_SCENARIOS: SCENARIOS });
      expect(outcome.code, outcome.output).toBe(0);
      const scenarios = JSON.parse(readFileSync(SCENARIOS, "utf8")) as { name: string }[];
      const passed = outcome.output.split("\n").filter((line) => line.trim().startsWith("--- PASS: TestBehaviourScenarios/"));
      expect(passed.length, "scenarios the Go runtime passed").toBe(scenarios.length);
    },
    LIMIT,
  );
});
