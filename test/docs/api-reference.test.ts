// The API reference (`npm run docs`, typedoc.config.mjs) builds without a warning and documents the three entries:
// the client, the server-side webhooks entry and the runtime, with the webhook helpers only in the second.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

interface Reflection {
  name: string;
  children?: Reflection[];
}

let dir: string | undefined;
let output = "";
let pages: string[] = [];
let modules = new Map<string, Set<string>>();

beforeAll(async () => {
  await mkdir(join(ROOT, ".tmp"), { recursive: true });
  dir = await mkdtemp(join(ROOT, ".tmp", "docs-"));
  // TypeDoc empties its output folder first: refuse anything but a fresh folder strictly inside .tmp/.
  const inside = relative(join(ROOT, ".tmp"), resolve(dir));
  if (dir.length === 0 || inside === "" || inside.startsWith("..") || isAbsolute(inside)) {
    throw new Error(`refusing to build the docs into ${dir}`);
  }
  const out = join(dir, "html");
  const json = join(dir, "api.json");
  const typedoc = join(ROOT, "node_modules", "typedoc", "bin", "typedoc");
  const { stdout, stderr } = await run(process.execPath, [typedoc, "--out", out, "--json", json], {
    cwd: ROOT,
    maxBuffer: 32 * 2 ** 20,
  });
  output = stdout + stderr;
  const project = JSON.parse(await readFile(json, "utf8")) as Reflection;
  modules = new Map((project.children ?? []).map((m) => [m.name, new Set((m.children ?? []).map((c) => c.name))]));
  pages = await readdir(out);
  // TypeDoc type-checks the four entries: about 30 s idle, several minutes on a loaded 2-core machine. The limit is for
  // a hung build, not a slow one.
}, 600_000);

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe("the API reference", () => {
  it("builds without warnings or errors", () => {
    expect(output).not.toMatch(/\[(warning|error)\]/);
    expect(pages).toContain("index.html");
  });

  it("has one module per entry", () => {
    expect([...modules.keys()].sort()).toEqual([
      "generated",
      "generated/webhooks",
      "targets/typescript/runtime",
      "targets/typescript/runtime/node",
    ]);
  });

  it("documents the client, the webhooks entry and the runtime", () => {
    const client = modules.get("generated") ?? new Set();
    for (const name of ["createClient", "addJob", "subscribeWebhook", "ServiceError", "SubscriptionCheckError", "components"])
      expect(client).toContain(name);
    const webhooks = modules.get("generated/webhooks") ?? new Set();
    for (const name of ["verify", "WebhookEvent", "webhookEventTypes", "createNodeWebhookHandler", "MemoryDedupeStore"])
      expect(webhooks).toContain(name);
    expect(modules.get("targets/typescript/runtime")).toContain("Runtime");
    expect(modules.get("targets/typescript/runtime/node")).toContain("createHoldDispatcher");
    expect(modules.get("generated")).not.toContain("createHoldDispatcher");
  });

  it("keeps the server-side webhook helpers out of the client's module", () => {
    const client = modules.get("generated") ?? new Set();
    for (const name of ["verify", "WebhookEvent", "createNodeWebhookHandler", "createWebhookProcessor", "MemoryDedupeStore"])
      expect(client).not.toContain(name);
  });
});
