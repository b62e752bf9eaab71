// The same smoke test (smoke.ts) under Node, Bun and Deno, each a child process given the address of a mock started
// here on 127.0.0.1. Bun and Deno are the devDependencies' binaries (what `npx bun` and `npx deno` run); when one
// cannot start on this machine its test is skipped and its title says why. Their caches stay under .tmp/.
import { execFile, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../../../mock/index.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const SMOKE = join(ROOT, "targets", "typescript", "test", "runtimes", "smoke.ts");

interface Runtime {
  name: string;
  command: string;
  args: readonly string[];
  env: Record<string, string>;
}

const bin = (name: string) => join(ROOT, "node_modules", ".bin", name);
const RUNTIMES: readonly Runtime[] = [
  { name: "Node", command: process.execPath, args: ["--import", "tsx"], env: {} },
  { name: "Bun", command: bin("bun"), args: [], env: { BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0", DO_NOT_TRACK: "1" } },
  {
    name: "Deno",
    command: bin("deno"),
    // The sources import `./x.js` for `./x.ts`, as NodeNext wants; Deno resolves that only with --sloppy-imports.
    args: ["run", "--sloppy-imports", "--no-lock", "--allow-net=127.0.0.1"],
    env: { DENO_DIR: join(ROOT, ".tmp", "deno"), DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1" },
  },
];

/** Why a runtime cannot run here, or undefined when it can. */
function unavailable(runtime: Runtime): string | undefined {
  if (!existsSync(runtime.command)) return `${relative(ROOT, runtime.command)} is missing (npm ci installs it)`;
  const probe = spawnSync(runtime.command, ["--version"], { env: { ...process.env, ...runtime.env }, encoding: "utf8", timeout: 20_000 });
  if (probe.status === 0) return undefined;
  return `\`${runtime.name.toLowerCase()} --version\` failed: ${(probe.error?.message ?? probe.stderr).trim().split("\n")[0]}`;
}

const EXPECTED = {
  browser: false,
  read: 200,
  submitted: 202,
  polled: true,
  completed: true,
  error: { isNotFound: true, isServiceError: true, status: 404, code: "NOT_FOUND" },
  webhook: { known: true, type: "job.completed", tamperedRefused: true },
};

let mock: MockServer;

beforeAll(async () => {
  mock = await startMock({ holdMs: 150, jobDurationMs: 50 });
});

afterAll(async () => {
  await mock?.stop();
});

describe("the generated client under server runtimes", () => {
  for (const runtime of RUNTIMES) {
    const reason = unavailable(runtime);
    const title = `${runtime.name}: reads, submits a held job polled to completion, maps an error to its class, verifies a webhook`;
    it.skipIf(reason !== undefined)(reason === undefined ? title : `${title}: SKIPPED, ${reason}`, async () => {
      const { stdout } = await run(runtime.command, [...runtime.args, SMOKE, mock.url], {
        cwd: ROOT,
        env: { ...process.env, ...runtime.env },
        timeout: 30_000,
      });
      expect(JSON.parse(stdout.trim().split("\n").at(-1) ?? "")).toEqual(EXPECTED);
    });
  }
});
