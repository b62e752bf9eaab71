// The client in a real browser: the generated client and runtime bundled with esbuild, served on 127.0.0.1 with a
// page, and driven in Debian's headless Chromium (playwright-core) against the mock service. A publishable token
// works there; a secret token is refused before anything is sent.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../mock/index.js";

const CHROMIUM = "/usr/bin/chromium";
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PUBLISHABLE = "svc_pk_browser0123456789";
const SECRET = "svc_sk_browser0123456789";
const hasChromium = existsSync(CHROMIUM);
const title = hasChromium
  ? "generated client in headless Chromium"
  : `generated client in headless Chromium: SKIPPED, ${CHROMIUM} is missing (apt-get install -y --no-install-recommends chromium)`;

let mock: MockServer;
let server: Server;
let origin: string;
let userDataDir: string;
let context: BrowserContext;
let page: Page;
/** The Authorization headers of the requests the page sent to the mock, in order. */
const authorizations: string[] = [];

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>sdk</title></head><body>
<script type="module">import * as sdk from "/client.js"; globalThis.sdk = sdk; document.body.dataset.ready = "yes";</script>
</body></html>`;

beforeAll(async () => {
  if (!hasChromium) return;
  mock = await startMock({ holdMs: 300, jobDurationMs: 20 });
  const bundle = await build({
    entryPoints: [join(ROOT, "generated", "index.ts")],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  const code = bundle.outputFiles[0]!.text;
  // The page has an origin of its own and calls the mock directly: the mock answers CORS preflights and headers.
  server = createServer((req, res) => {
    if (req.url === "/" || req.url === "/index.html") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
      return;
    }
    if (req.url === "/client.js") {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(code);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Chromium's profile stays inside the repository's scratch folder, like every other file a test writes.
  await mkdir(join(ROOT, ".tmp"), { recursive: true });
  userDataDir = await mkdtemp(join(ROOT, ".tmp", "chromium-"));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  page = await context.newPage();
  // What left the browser for the mock, preflights aside.
  page.on("request", (sent) => {
    if (sent.url().startsWith(mock.url) && sent.method() !== "OPTIONS") authorizations.push(sent.headers().authorization ?? "");
  });
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => document.body.dataset.ready === "yes");
}, 120_000);

afterAll(async () => {
  await context?.close();
  if (userDataDir !== undefined) await rm(userDataDir, { recursive: true, force: true });
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  await mock?.stop();
});

describe.skipIf(!hasChromium)(title, () => {
  it("runs in a browser context (no User-Agent is set, token kinds known)", async () => {
    const facts = await page.evaluate(() => {
      const sdk = (globalThis as unknown as { sdk: Record<string, (...args: unknown[]) => unknown> }).sdk;
      const model = sdk.serviceModel as unknown as { conventions?: { tokens?: unknown } };
      return { browser: sdk.isBrowser!(), kind: sdk.tokenKind!("svc_pk_x", model.conventions?.tokens), hasFetch: typeof fetch };
    });
    expect(facts).toEqual({ browser: true, kind: "publishable", hasFetch: "function" });
  });

  it("calls the mock with a publishable token", async () => {
    const before = authorizations.length;
    const result = await page.evaluate(
      async ({ baseUrl, token }) => {
        // biome-ignore lint/suspicious/noExplicitAny: the bundle's exports, untyped inside the page
        const sdk = (globalThis as unknown as { sdk: any }).sdk;
        const client = sdk.createClient({ baseUrl, token, retry: { maxRetries: 0 } });
        const webhooks = await sdk.listWebhooks(client);
        const heatmap = await sdk.getActivityHeatmap(client, { year: 2026 });
        return { statuses: [webhooks.meta.status, heatmap.meta.status], hasBilling: heatmap.meta.billing !== undefined };
      },
      { baseUrl: mock.url, token: PUBLISHABLE },
    );
    expect(result.statuses).toEqual([200, 200]);
    expect(authorizations.slice(before)).toEqual([`Bearer ${PUBLISHABLE}`, `Bearer ${PUBLISHABLE}`]);
  });

  it("refuses a secret token before sending anything, without showing it", async () => {
    const before = authorizations.length;
    const outcome = await page.evaluate(
      async ({ baseUrl, token }) => {
        // biome-ignore lint/suspicious/noExplicitAny: the bundle's exports, untyped inside the page
        const sdk = (globalThis as unknown as { sdk: any }).sdk;
        const seen: { name: string; message: string; isSdkError: boolean }[] = [];
        const note = (error: unknown) =>
          seen.push({ name: (error as Error).name, message: (error as Error).message, isSdkError: error instanceof sdk.SdkError });
        try {
          const client = sdk.createClient({ baseUrl, token });
          await sdk.listWebhooks(client);
        } catch (error) {
          note(error);
        }
        // A token provider that returns a secret token is refused at the first request.
        try {
          const client = sdk.createClient({ baseUrl, token: async () => token });
          await sdk.listWebhooks(client);
        } catch (error) {
          note(error);
        }
        return seen;
      },
      { baseUrl: mock.url, token: SECRET },
    );
    expect(outcome).toHaveLength(2);
    for (const error of outcome) {
      expect(error.name).toBe("BrowserTokenError");
      expect(error.isSdkError).toBe(true);
      expect(error.message).toMatch(/publishable token/);
      expect(error.message).not.toContain(SECRET);
    }
    expect(authorizations.slice(before)).toEqual([]);
  });
});
