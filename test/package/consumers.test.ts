// The TypeScript SDK from its packed tarball, installed in fresh projects outside the repository: ESM (nodenext),
// CommonJS (node16) and bundler-resolution projects compile it under strict settings and call the mock; webpack
// (target web) and esbuild (--platform=browser) bundle it with no configuration and the bundles run in chromium
// against the mock; installing it brings the runtime and openapi-fetch, nothing of the generator; and the examples of
// its README compile there.
import { readdir, readFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import webpack from "webpack";
import { type MockServer, startMock } from "../../mock/index.js";
import { hasChromium, launchChromium, serveBundles, skipNote } from "./browser.js";
import { codeBlocks } from "../support/readme-examples.js";
import { freshDir, npm, run, SDK_NAME, type Tarballs, tarballs, writeJson } from "./helpers.js";

const TSC = ["node_modules", "typescript", "bin", "tsc"];
const STRICT = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitOverride: true,
  noUnusedLocals: true,
  skipLibCheck: false,
  target: "ES2022",
  lib: ["ES2023", "DOM"],
  types: ["node"],
};

// The same program in every project: a read, an error mapped to its class, and the webhooks entry.
const PROGRAM = `import { createClient, getJob, listWebhooks, RELEASE, ServiceError } from "${SDK_NAME}";
import { webhookEventTypes } from "${SDK_NAME}/webhooks";

async function main(): Promise<void> {
  const client = createClient({ baseUrl: process.env.SVC_BASE_URL ?? "", token: "svc_sk_consumer0123456789", retry: { maxRetries: 0 } });
  const read = await listWebhooks(client);
  let notFound = "";
  try {
    await getJob(client, { job_id: "no-such-job" });
  } catch (error) {
    if (error instanceof ServiceError) notFound = \`\${error.status} \${error.code}\`;
  }
  console.log(JSON.stringify({ release: RELEASE, status: read.meta.status, notFound, events: webhookEventTypes.length > 0 }));
}

void main();
`;

let packs: Tarballs;
let mock: MockServer;
const cleanups: (() => Promise<void>)[] = [];
let projects: string;

beforeAll(async () => {
  packs = await tarballs();
  mock = await startMock({ holdMs: 100, jobDurationMs: 20 });
  const work = await freshDir("consumers");
  cleanups.push(work.remove);
  projects = work.dir;
  await writeJson(join(projects, "package.json"), { name: "consumers", private: true });
  await npm(["install", packs.sdk, packs.runtime, "typescript@~5.9", "@types/node@^20"], projects);
}, 600_000);

afterAll(async () => {
  await mock?.stop();
  for (const cleanup of cleanups) await cleanup();
});

/** A project below the shared install: its package.json, tsconfig.json and src/main.ts. */
async function project(name: string, type: "module" | "commonjs", compilerOptions: Record<string, unknown>): Promise<string> {
  const dir = join(projects, name);
  await mkdir(join(dir, "src"), { recursive: true });
  await writeJson(join(dir, "package.json"), { name, private: true, type });
  await writeJson(join(dir, "tsconfig.json"), { compilerOptions: { ...STRICT, ...compilerOptions }, include: ["src"] });
  await writeFile(join(dir, "src", "main.ts"), PROGRAM);
  return dir;
}

const expected = async () => ({
  release: /export const RELEASE = "([^"]+)"/.exec(await readFile(new URL("../../generated/model.ts", import.meta.url), "utf8"))?.[1],
  status: 200,
  notFound: "404 NOT_FOUND",
  events: true,
});

// The projects are independent folders below the shared install: compiled and run side by side.
describe("Node projects compile the SDK under strict settings and call the mock", { concurrent: true }, () => {
  it.each([
    ["ESM (module nodenext)", "module", { module: "nodenext", moduleResolution: "nodenext" }],
    ["CommonJS (module node16)", "commonjs", { module: "node16", moduleResolution: "node16" }],
  ] as const)(
    "%s",
    async (name, type, options) => {
      const dir = await project(type, type, { ...options, outDir: "dist", rootDir: "src" });
      await run(process.execPath, [join(projects, ...TSC), "-p", "tsconfig.json"], dir);
      const { stdout } = await run(process.execPath, ["dist/main.js"], dir, { SVC_BASE_URL: mock.url });
      expect(JSON.parse(stdout), name).toEqual(await expected());
    },
    300_000,
  );

  it("bundler resolution (module esnext), bundled by esbuild for Node", async () => {
    const dir = await project("bundler", "module", { module: "esnext", moduleResolution: "bundler", noEmit: true });
    await run(process.execPath, [join(projects, ...TSC), "-p", "tsconfig.json"], dir);
    await build({
      entryPoints: [join(dir, "src", "main.ts")],
      bundle: true,
      platform: "node",
      format: "esm",
      outfile: join(dir, "out.mjs"),
      logLevel: "silent",
    });
    const { stdout } = await run(process.execPath, ["out.mjs"], dir, { SVC_BASE_URL: mock.url });
    expect(JSON.parse(stdout)).toEqual(await expected());
  }, 300_000);
});

describe("the SDK's README, from the installed package", () => {
  it("installs as its local route says, and its examples compile under strict settings", async () => {
    const readme = await readFile(join(projects, "node_modules", ...SDK_NAME.split("/"), "README.md"), "utf8");
    // The local route names the runtime's tarball before the SDK's, as beforeAll installed them.
    expect(readme).toContain("npm install <runtime tarball or folder> <this package's tarball>");
    const blocks = codeBlocks(readme, "ts");
    expect(blocks.length).toBeGreaterThan(0);
    const dir = join(projects, "readme");
    await mkdir(join(dir, "src"), { recursive: true });
    await writeJson(join(dir, "package.json"), { name: "readme", private: true, type: "module" });
    const compilerOptions = { ...STRICT, module: "nodenext", moduleResolution: "nodenext", noEmit: true };
    await writeJson(join(dir, "tsconfig.json"), { compilerOptions, include: ["src"] });
    for (const block of blocks) await writeFile(join(dir, "src", `readme-${block.line}.ts`), `${block.code}\n`);
    const compiled = await run(process.execPath, [join(projects, ...TSC), "-p", "tsconfig.json"], dir).then(
      () => "",
      (error: { stdout?: string; message: string }) => error.stdout ?? error.message,
    );
    expect(compiled).toBe("");
  }, 300_000);
});

describe("installing the SDK", { concurrent: true }, () => {
  it("installs the runtime and openapi-fetch, and nothing of the generator", async () => {
    const work = await freshDir("installed");
    try {
      await writeJson(join(work.dir, "package.json"), { name: "installed", private: true });
      await npm(["install", packs.sdk, packs.runtime], work.dir);
      const { stdout } = await npm(["ls", "--all", "--parseable"], work.dir);
      const installed = stdout
        .trim()
        .split("\n")
        .slice(1)
        .map((line) => line.slice(line.lastIndexOf("node_modules/") + "node_modules/".length))
        .sort();
      expect(installed).toEqual([SDK_NAME, "@paperoffice/sdk-runtime", "openapi-fetch", "openapi-typescript-helpers"].sort());
      expect(await readdir(join(work.dir, "node_modules"))).not.toContain("typescript");
    } finally {
      await work.remove();
    }
  }, 300_000);
});

describe.skipIf(!hasChromium)(`browser bundles with no configuration${hasChromium ? "" : `: ${skipNote}`}`, () => {
  const ENTRY = `import * as sdk from "${SDK_NAME}";\nglobalThis.sdk = sdk;\n`;

  async function webpackBundle(dir: string): Promise<string> {
    const stats = await new Promise<webpack.Stats | undefined>((resolve, reject) =>
      webpack(
        {
          mode: "production",
          target: "web",
          context: dir,
          entry: "./entry.js",
          output: { path: join(dir, "webpack"), filename: "bundle.js" },
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    );
    if (!stats || stats.hasErrors()) throw new Error(`webpack failed:\n${stats?.toString("errors-only")}`);
    return readFile(join(dir, "webpack", "bundle.js"), "utf8");
  }

  async function esbuildBundle(dir: string): Promise<string> {
    // What `esbuild entry.js --bundle --platform=browser` does, nothing more.
    const result = await build({
      entryPoints: [join(dir, "entry.js")],
      bundle: true,
      platform: "browser",
      write: false,
      logLevel: "silent",
    });
    return result.outputFiles[0]!.text;
  }

  it("webpack (target web) and esbuild (--platform=browser) bundle it, and each bundle calls the mock from chromium", async () => {
    const dir = join(projects, "browser");
    await mkdir(dir, { recursive: true });
    await writeJson(join(dir, "package.json"), { name: "browser", private: true, type: "module" });
    await writeFile(join(dir, "entry.js"), ENTRY);
    const bundles = { webpack: await webpackBundle(dir), esbuild: await esbuildBundle(dir) };
    for (const code of Object.values(bundles)) expect(code).not.toContain("node:fs");
    const site = await serveBundles(bundles, mock.port);
    const browser = await launchChromium();
    try {
      for (const name of Object.keys(bundles)) {
        const page = await browser.newPage();
        await page.goto(`${site.origin}/${name}`);
        const result = await page.evaluate(async (baseUrl) => {
          // biome-ignore lint/suspicious/noExplicitAny: the bundle's exports, untyped inside the page
          const sdk = (globalThis as unknown as { sdk: any }).sdk;
          const client = sdk.createClient({ baseUrl, token: "svc_pk_browser0123456789", retry: { maxRetries: 0 } });
          const read = await sdk.listWebhooks(client);
          let notFound = "";
          try {
            await sdk.getJob(client, { job_id: "no-such-job" });
          } catch (error) {
            const e = error as { status?: number; code?: string };
            if (error instanceof sdk.ServiceError) notFound = `${e.status} ${e.code}`;
          }
          return { status: read.meta.status, browser: sdk.isBrowser(), notFound };
        }, `${site.origin}/latest`);
        expect(result, name).toEqual({ status: 200, browser: true, notFound: "404 NOT_FOUND" });
        await page.close();
      }
    } finally {
      await browser.close();
      await site.close();
    }
  }, 300_000);
});
