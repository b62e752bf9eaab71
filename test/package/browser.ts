// A page for a bundle, served on 127.0.0.1 with the API proxied to the mock (one origin: the mock sends no CORS
// headers), driven in Debian's headless chromium.
import { existsSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);
export const skipNote = `SKIPPED, ${CHROMIUM} is missing (apt-get install -y --no-install-recommends chromium; CI installs it)`;

export interface BundleSite {
  origin: string;
  close(): Promise<void>;
}

/** Serves `/<name>` as a page that loads the bundle `name` as a classic script, and /latest/* from the mock. */
export async function serveBundles(bundles: Readonly<Record<string, string>>, mockPort: number): Promise<BundleSite> {
  const server: Server = createServer((req, res) => {
    const name = req.url?.slice(1) ?? "";
    if (name in bundles) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><meta charset="utf-8"><title>${name}</title><script src="/${name}.js"></script>`);
      return;
    }
    if (name.endsWith(".js") && name.slice(0, -3) in bundles) {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(bundles[name.slice(0, -3)]);
      return;
    }
    if (req.url?.startsWith("/latest/")) {
      const upstream = request(
        {
          host: "127.0.0.1",
          port: mockPort,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: `127.0.0.1:${mockPort}` },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", () => res.writeHead(502).end());
      req.pipe(upstream);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
}
