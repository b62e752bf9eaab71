// The package as users install it: build (tsc to dist/), pack, then publint and @arethetypeswrong/cli on the tarball,
// the exports map resolving for ESM and CommonJS consumers, and the generator's command from the build.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

interface PackageJson {
  name: string;
  bin: Record<string, string>;
  exports: Record<string, unknown>;
}

let pkg: PackageJson;
let dir: string;
let tarball: string;

beforeAll(async () => {
  pkg = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as PackageJson;
  await run(NPM, ["run", "build"], { cwd: ROOT, maxBuffer: 32 * 2 ** 20 });
  await mkdir(join(ROOT, ".tmp"), { recursive: true });
  dir = await mkdtemp(join(ROOT, ".tmp", "package-"));
  const { stdout } = await run(NPM, ["pack", "--json", "--pack-destination", dir], { cwd: ROOT, maxBuffer: 32 * 2 ** 20 });
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  if (packed === undefined) throw new Error("npm pack printed nothing");
  tarball = join(dir, packed.filename);
}, 300_000);

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe("the packed tarball", () => {
  it("has no publint errors or warnings", async () => {
    const data = await readFile(tarball);
    const { messages, pkg: packedPkg } = await publint({
      pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer },
      level: "warning",
      strict: true,
    });
    expect(messages.map((m) => `${m.type}: ${formatMessage(m, packedPkg) ?? m.code}`)).toEqual([]);
  });

  it("has types that resolve for node10, node16 (CJS and ESM) and bundlers (@arethetypeswrong/cli)", async () => {
    const attw = join(ROOT, "node_modules", "@arethetypeswrong", "cli", "dist", "index.js");
    let stdout: string;
    let exitCode = 0;
    try {
      ({ stdout } = await run(process.execPath, [attw, tarball, "--format", "json"], { cwd: ROOT, maxBuffer: 64 * 2 ** 20 }));
    } catch (error) {
      // attw exits 1 when it finds problems; the JSON report still says which.
      stdout = (error as { stdout?: string }).stdout ?? "";
      exitCode = (error as { code?: number }).code ?? 1;
      if (stdout === "") throw error;
    }
    const report = JSON.parse(stdout) as { problems?: unknown; analysis: { entrypoints: Record<string, unknown> } };
    expect(Object.keys(report.analysis.entrypoints).sort()).toEqual([".", "./node", "./package.json", "./runtime", "./webhooks"]);
    const problems = report.problems ?? {};
    expect(Array.isArray(problems) ? problems : Object.values(problems as Record<string, unknown[]>).flat()).toEqual([]);
    expect(exitCode).toBe(0);
  });
});

describe("the exports map, from the package's own name", () => {
  it("loads the client, the runtime and the webhooks entry as ESM", async () => {
    const code = `import * as sdk from "${pkg.name}"; import * as runtime from "${pkg.name}/runtime"; import * as webhooks from "${pkg.name}/webhooks"; import * as node from "${pkg.name}/node";
      console.log(JSON.stringify([typeof sdk.createClient, typeof sdk.getJob, typeof runtime.Runtime, sdk.Runtime === runtime.Runtime,
        typeof webhooks.verify, typeof webhooks.createNodeWebhookHandler, webhooks.SubscriptionCheckError === sdk.SubscriptionCheckError,
        typeof node.createHoldDispatcher, "createHoldDispatcher" in sdk]));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", code], { cwd: ROOT });
    expect(JSON.parse(stdout)).toEqual(["function", "function", "function", true, "function", "function", true, "function", false]);
  });

  it("loads the client, the runtime and the webhooks entry with require()", async () => {
    const code = `const sdk = require("${pkg.name}"); const runtime = require("${pkg.name}/runtime"); const webhooks = require("${pkg.name}/webhooks"); const node = require("${pkg.name}/node");
      const client = sdk.createClient({ baseUrl: "http://127.0.0.1:9/latest", token: "svc_sk_test" });
      console.log(JSON.stringify([typeof sdk.getJob, client instanceof runtime.Runtime, require.resolve("${pkg.name}").includes("cjs"),
        typeof webhooks.verify, webhooks.SubscriptionCheckError === sdk.SubscriptionCheckError, typeof node.createHoldDispatcher]));`;
    const { stdout } = await run(process.execPath, ["--input-type=commonjs", "-e", code], { cwd: ROOT });
    expect(JSON.parse(stdout)).toEqual(["function", true, true, "function", true, "function"]);
  });

  it("keeps the server-side webhook helpers out of the main entry", async () => {
    // Of the runtime's webhooks folder, the main entry needs only the subscription checks of its operations.
    const code = `const sdk = require("${pkg.name}");
      const loaded = Object.keys(require.cache).filter((f) => /[\\\\/]runtime[\\\\/]webhooks[\\\\/]/.test(f)).map((f) => f.split(/[\\\\/]/).pop());
      console.log(JSON.stringify([loaded, "verify" in sdk, "createNodeWebhookHandler" in sdk, typeof sdk.SubscriptionCheckError]));`;
    const { stdout } = await run(process.execPath, ["--input-type=commonjs", "-e", code], { cwd: ROOT });
    expect(JSON.parse(stdout)).toEqual([["subscription.js"], false, false, "function"]);
  });
});

describe("the generator's command, built", () => {
  it("is the package's bin and prints its usage with generate --help", async () => {
    const [name, target] = Object.entries(pkg.bin)[0] ?? [];
    expect(name).toBeDefined();
    const file = join(ROOT, target ?? "");
    expect((await readFile(file, "utf8")).startsWith("#!/usr/bin/env node\n")).toBe(true);
    const { stdout } = await run(process.execPath, [file, "generate", "--help"], { cwd: ROOT });
    expect(stdout).toMatch(/^Usage: generate /);
    expect(stdout).toContain("--spec");
    expect(stdout).toContain("--out");
  });

  it("generates a client from a description into --out", async () => {
    const out = join(dir, "generated");
    const file = join(ROOT, pkg.bin[Object.keys(pkg.bin)[0]!]!);
    const { stdout } = await run(process.execPath, [file, "generate", "--out", out], { cwd: ROOT, maxBuffer: 32 * 2 ** 20 });
    expect(stdout).toMatch(/wrote index\.ts/);
    expect(await readFile(join(out, "index.ts"), "utf8")).toContain("export function createClient");
  }, 60_000);
});
