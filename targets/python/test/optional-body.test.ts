// Request bodies as the description declares them (optional-body.yaml beside this file): one without
// requestBody.required (OpenAPI's default, Twilio's CreateService) or with required: false may be left out, as in
// the TypeScript client, and a form body is typed by its schema as a JSON body is, not as an untyped Mapping. A
// consumer file must type-check under strict pyright and mypy --strict except on the lines marked as expected
// errors (each of which must be one); the calls are also made over HTTP against a small local server.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitPython } from "../emit/index.js";
import { generate, writeFiles } from "../../../generator/generate.js";
import { runPython } from "./python-program.js";

const here = fileURLToPath(new URL("./", import.meta.url));

let base: string;

/** `# expected error` marks a line a type checker must refuse; every other line must pass. */
const CONSUMER = `from __future__ import annotations

from optional_bodies import Client

client = Client(base_url="http://127.0.0.1:1")


def accepted() -> None:
    client.create_service()
    client.create_service(None)
    client.create_service({"FriendlyName": "n", "AclEnabled": True, "Limit": 3})
    client.create_thing()
    client.create_thing({"name": "x", "size": 2})
    client.create_note({"text": "t"})
    client.upload_file()
    client.upload_file({"file": b"data", "note": "n"})


def refused() -> None:
    client.create_service({"FriendlyName": 1})  # expected error
    client.create_service({"AclEnabled": True})  # expected error
    client.create_thing({"name": "x", "size": "big"})  # expected error
    client.create_note()  # expected error
    client.upload_file({"file": 1})  # expected error
`;

const expectedLines = CONSUMER.split("\n").flatMap((line, i) => (line.endsWith("# expected error") ? [i + 1] : []));

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "python-optional-body-"));
  const generated = await generate(join(here, "optional-body.yaml"), { emitters: [emitPython] });
  await writeFiles(base, generated.files);
  await writeFile(join(base, "python", "consumer.py"), CONSUMER);
}, 120_000);

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

const SCRIPT = `
import asyncio, http.server, json, threading
import optional_bodies as sdk

seen = []


class Service(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        seen.append([self.command, self.path, self.headers.get("Content-Type"), body.decode("utf-8", "replace")])
        self.send_response(201 if self.command == "POST" else 204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_POST = do_PUT = answer

    def log_message(self, format, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Service)
threading.Thread(target=server.serve_forever, daemon=True).start()
client = sdk.Client(base_url="http://127.0.0.1:%d" % server.server_address[1])
client.create_service()
client.create_service({"FriendlyName": "n", "AclEnabled": True})
client.create_thing()
client.create_thing({"name": "x"})
client.upload_file()


async def asynchronous():
    async with sdk.AsyncClient(base_url=client.base_url) as aio:
        await aio.create_service()
        await aio.create_thing({"name": "y"})


asyncio.run(asynchronous())
server.shutdown()
print(json.dumps(seen))
`;
import { mypyStrict, pyrightStrict } from "./checkers.js";

describe("Python request bodies the description does not require", () => {
  it("may be left out: no body is sent; a form given travels as the form, blocking and asyncio", async () => {
    const stdout = await runPython(SCRIPT, [], base, join(base, "python"));
    expect(JSON.parse(stdout)).toEqual([
      ["POST", "/services", null, ""],
      ["POST", "/services", "application/x-www-form-urlencoded", "FriendlyName=n&AclEnabled=true"],
      ["POST", "/things", null, ""],
      ["POST", "/things", "application/json", '{"name": "x"}'],
      ["PUT", "/files", null, ""],
      // The asyncio client the same way.
      ["POST", "/services", null, ""],
      ["POST", "/things", "application/json", '{"name": "y"}'],
    ]);
  }, 90_000);

  it("strict pyright refuses exactly the marked calls", async () => {
    const report = await pyrightStrict(base, ["python"]);
    const errors = report.generalDiagnostics.filter((d) => d.severity === "error");
    const consumer = join(base, "python", "consumer.py");
    expect(errors.filter((d) => d.file !== consumer).map((d) => `${d.file}: ${d.message}`)).toEqual([]);
    const lines = [...new Set(errors.filter((d) => d.file === consumer).map((d) => (d.range?.start.line ?? -1) + 1))].sort((a, b) => a - b);
    expect(lines).toEqual(expectedLines);
  }, 300_000);

  it("mypy --strict refuses exactly the marked calls", async () => {
    const result = await mypyStrict(join(base, "python"), ["optional_bodies", "consumer.py"]);
    const errors = [...result.output.matchAll(/^([^:\n]+):(\d+): error: /gm)];
    expect(errors.filter((m) => m[1] !== "consumer.py").map((m) => m[0])).toEqual([]);
    const lines = [...new Set(errors.map((m) => Number(m[2])))].sort((a, b) => a - b);
    expect(lines).toEqual(expectedLines);
  }, 300_000);
});
