// The mock's HTTP edges: body limit, 405 with Allow, CORS for pages on other origins, every validation problem in one
// answer, the URL rules it shares with the client, and one-line errors of its command line.
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../mock/index.js";
import { auth, postJson, submit } from "./helpers.js";

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock({ maxBodyBytes: 64 * 1024, allowLoopbackWebhooks: false });
});
afterAll(() => mock.stop());

/** A raw POST whose body is streamed in chunks without Content-Length; resolves with the status, or the error. */
function streamed(url: string, chunks: number, chunkBytes: number): Promise<number | string> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: "POST", headers: { ...auth(), "content-type": "application/json" } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", (error) => resolve((error as NodeJS.ErrnoException).code ?? error.message));
    let sent = 0;
    const write = () => {
      while (sent < chunks) {
        sent++;
        if (!req.write(Buffer.alloc(chunkBytes, 32))) return void req.once("drain", write);
      }
      req.end();
    };
    write();
  });
}

describe("body limit", () => {
  it("answers 413 to a body declared larger than the limit, without reading it", async () => {
    const response = await fetch(`${mock.url}/webhooks/subscribe`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: JSON.stringify({ name: "x".repeat(200 * 1024) }),
    });
    expect(response.status).toBe(413);
    const body = (await response.json()) as { message: string };
    expect(body.message).toContain("65536 bytes");
  });

  it("answers 413 to a streamed body that grows past the limit, and keeps serving", async () => {
    const outcome = await streamed(`${mock.url}/webhooks/subscribe`, 64, 16 * 1024);
    // The answer may come before the client finishes uploading; a reset of the rest of the upload is fine too.
    expect([413, "ECONNRESET", "EPIPE"]).toContain(outcome);
    expect((await fetch(`${mock.url}/webhooks/list`, { headers: auth() })).status).toBe(200);
  });
});

describe("methods", () => {
  it("answers 405 with Allow for a known path and another method, 404 for an unknown path", async () => {
    const wrong = await fetch(`${mock.url}/webhooks/list`, { method: "DELETE", headers: auth() });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET");
    expect(((await wrong.json()) as { message: string }).message).toContain("DELETE");
    expect((await fetch(`${mock.url}/no/such/path`, { headers: auth() })).status).toBe(404);
  });
});

describe("CORS", () => {
  const origin = "http://127.0.0.1:9";

  it("answers a preflight for any path before auth, allowing the asked headers", async () => {
    const response = await fetch(`${mock.url}/webhooks/list`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "GET", "access-control-request-headers": "authorization, content-type" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(origin);
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
    expect(response.headers.get("access-control-allow-headers")).toBe("authorization, content-type");
  });

  it("lets a page on another origin read answers and the headers the client uses", async () => {
    const ok = await fetch(`${mock.url}/webhooks/list`, { headers: { ...auth(), origin } });
    expect(ok.headers.get("access-control-allow-origin")).toBe(origin);
    expect(ok.headers.get("access-control-expose-headers")).toContain("Retry-After");
    const refused = await fetch(`${mock.url}/webhooks/list`, { headers: { origin } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe(origin);
    // Without an Origin header (not a browser) nothing is added.
    expect((await fetch(`${mock.url}/webhooks/list`, { headers: auth() })).headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("validation", () => {
  it("reports every problem of a job body in one answer, not only the first", async () => {
    const answer = await submit(mock.url, "service_voice___tts", { text: "hi", temperature: 99, speed: "fast", not_a_field: 1 });
    expect(answer.status).toBe(400);
    const message = String(answer.body.message);
    expect(message).toContain("temperature");
    expect(message).toContain("not_a_field");
    expect(message.split("; ").length).toBeGreaterThanOrEqual(2);
  });

  it("reports every problem of a JSON body", async () => {
    const answer = await postJson(mock.url, "/webhooks/subscribe", { name: 5, url: "https://hooks.example.com/h", events: "all" });
    expect(answer.status).toBe(400);
    const message = String(answer.body.message);
    expect(message).toContain('"name"');
    expect(message).toContain('"events"');
  });
});

describe("webhook URL rules shared with the client", () => {
  it("refuses what the client refuses: user information, backslashes, and ranges the mock's own list used to miss", async () => {
    for (const url of [
      "http://example.com\\@127.0.0.1/",
      "https://user:pw@hooks.example.com/",
      "https://198.18.0.1/",
      "https://224.0.0.1/",
      "https://169.254.170.2/",
      "https://[64:ff9b::a00:1]/",
      "https://printer.local/",
    ]) {
      const answer = await postJson(mock.url, "/webhooks/subscribe", { name: "n", url, events: ["*"] });
      expect(answer.status, url).toBe(400);
      // The description's own format check may speak first; either way the URL is what is named.
      expect(String(answer.body.message), url).toMatch(/field "url" (is refused|must match format)/);
    }
    const refused = await postJson(mock.url, "/webhooks/subscribe", { name: "n", url: "https://198.18.0.1/", events: ["*"] });
    expect(String(refused.body.message)).toContain("a benchmarking address");
    const fine = await postJson(mock.url, "/webhooks/subscribe", { name: "n", url: "https://hooks.example.com/h", events: ["*"] });
    expect(fine.status).toBe(200);
  });
});

describe("command line", () => {
  const ROOT = fileURLToPath(new URL("../../", import.meta.url));
  const run = (args: string[]) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ["--import", "tsx", "mock/cli.ts", ...args], {
        cwd: ROOT,
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("close", (code) => resolve({ code, stderr }));
    });

  it("prints one line for a port in use and for an unknown option, never a stack trace", async () => {
    const taken = http.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const [busy, unknown] = await Promise.all([run(["--port", String(port)]), run(["--prot", "1"])]);
      expect(busy.code).toBe(1);
      expect(busy.stderr.trim()).toBe(
        `mock: port ${port} on 127.0.0.1 is already in use; pick another with --port, or --port 0 for a free one`,
      );
      expect(unknown.code).toBe(2);
      expect(unknown.stderr.trim()).toBe("mock: Unknown option '--prot' (see --help)");
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 120_000);
});
