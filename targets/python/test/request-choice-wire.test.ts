// The generated Python clients of two descriptions of test/matrix against a local server, the rule the TypeScript
// and Go clients follow too: a body that offers JSON beside both forms travels as JSON, and a header parameter named
// User-Agent is sent as the caller gave it, the client's own User-Agent going where no parameter sets one.
import { execFile } from "node:child_process";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitPython } from "../emit/index.js";
import { generate, writeFiles } from "../../../generator/generate.js";
import { venvPython } from "./package.js";

const run = promisify(execFile);
const DESCRIPTIONS = fileURLToPath(new URL("../../../test/matrix/descriptions/", import.meta.url));

interface Received {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

let base = "";
let server: Server;
let baseUrl = "";
const received: Received[] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "python-request-choice-"));
  for (const name of ["wire2-json-or-form", "wire2-user-agent-param"]) {
    await writeFiles(join(base, name), (await generate(join(DESCRIPTIONS, `${name}.yaml`), { emitters: [emitPython] })).files);
  }
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString("utf8");
    });
    req.on("end", () => {
      received.push({ url: req.url ?? "", headers: req.headers, body });
      res.writeHead(200, { "content-type": "application/json" }).end(req.url === "/clients" ? body : '{"ok":true}');
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise((ok) => server.close(ok));
  if (base !== "") await rm(base, { recursive: true, force: true });
});

/** Runs a program with the generated package of a description importable. */
async function python(name: string, program: string): Promise<void> {
  await run(venvPython, ["-c", program, baseUrl], {
    cwd: base,
    env: { ...process.env, PYTHONPATH: join(base, name, "python"), PYTHONDONTWRITEBYTECODE: "1" },
    timeout: 60_000,
  });
}

describe("a body offering JSON and forms on the wire (Python)", () => {
  it("sends JSON, a one-element array staying an array", async () => {
    received.length = 0;
    await python(
      "wire2-json-or-form",
      `
import sys
from wire2_json_form.client import Client
Client(base_url=sys.argv[1]).create_app({"name": "a", "redirect_uris": ["https://x.test/cb"]})
`,
    );
    expect(received[0]?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(received[0]?.body ?? "null")).toEqual({ name: "a", redirect_uris: ["https://x.test/cb"] });
  });
});

describe("a header parameter named User-Agent on the wire (Python)", () => {
  it("sends the caller's value, and the client's own User-Agent where no parameter sets it", async () => {
    received.length = 0;
    await python(
      "wire2-user-agent-param",
      `
import sys
from wire2_agent.client import Client
client = Client(base_url=sys.argv[1])
client.get_echo(user_agent="SiriKit/1.0", x_trace="t1")
client.get_plain()
`,
    );
    expect(received[0]?.headers["user-agent"]).toBe("SiriKit/1.0");
    expect(received[0]?.headers["x-trace"]).toBe("t1");
    expect(received[1]?.headers["user-agent"]).toMatch(/^wire2-agent-sdk-python\//);
  });
});
