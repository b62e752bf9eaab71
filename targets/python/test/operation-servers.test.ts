// Operations with servers of their own, in the Python client, over HTTP on 127.0.0.1: two small servers in the
// Python process, a description (written here with their ports) whose document server is the first and whose upload
// operation (and a path item) name the second. Without a base address each operation goes to its own first server,
// credentials along; a given base address applies to every operation; a call's base_url sends that call elsewhere.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitPython } from "../emit/index.js";
import { generate, writeFiles } from "../../../generator/generate.js";
import { operationServersDescription } from "../../../test/support/operation-servers.js";
import { freePort } from "../../../test/support/wire.js";
import { runPython } from "./python-program.js";

let base: string;
let ports: [number, number];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "python-op-servers-"));
  ports = [await freePort(), await freePort()];
  const source = join(base, "servers.json");
  await writeFile(source, JSON.stringify(operationServersDescription("op-servers-py", ...ports)));
  const generated = await generate(source, { emitters: [emitPython] });
  await writeFiles(base, generated.files);
}, 120_000);

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

const SCRIPT = `
import asyncio, http.server, json, os, sys, threading

os.environ.pop("OP_SERVERS_PY_BASE_URL", None)
import op_servers_py as sdk

seen = []


def serve(name, port):
    class Service(http.server.BaseHTTPRequestHandler):
        def answer(self):
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            seen.append({"server": name, "path": self.path, "authorization": self.headers.get("Authorization")})
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")

        do_GET = do_POST = answer

        def log_message(self, format, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Service)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


servers = [serve("main", int(sys.argv[1])), serve("uploads", int(sys.argv[2]))]


def where(call):
    before = len(seen)
    try:
        call()
    except Exception as error:
        return {"error": type(error).__name__, "message": str(error), "requests": len(seen) - before}
    return seen[before:]


out = {}
client = sdk.Client("t")
out["default"] = {
    "plain": where(client.plain),
    "upload": where(client.upload),
    "path_level": where(client.path_level),
    "relative": where(client.relative),
}


async def asynchronous():
    async with sdk.AsyncClient("t") as aclient:
        before = len(seen)
        await aclient.upload()
        return seen[before:]


out["async_upload"] = asyncio.run(asynchronous())
mock = sdk.Client("t", "http://127.0.0.1:%s/mock" % sys.argv[1])
out["explicit"] = {"upload": where(mock.upload), "path_level": where(mock.path_level)}
os.environ["OP_SERVERS_PY_BASE_URL"] = "http://127.0.0.1:%s/env" % sys.argv[1]
out["environment"] = where(sdk.Client("t").upload)
del os.environ["OP_SERVERS_PY_BASE_URL"]
model = sdk.model
out["call_option"] = where(
    lambda: client.runtime.call(model.UPLOAD, base_url="http://127.0.0.1:%s/other/" % sys.argv[1])
)
out["bad_call_option"] = where(lambda: client.runtime.call(model.UPLOAD, base_url="ftp://x"))
for server in servers:
    server.shutdown()
print(json.dumps(out))
`;

describe("operation servers (Python)", () => {
  it("sends each operation to its own first server without a base address, and every one to a given base address", async () => {
    const stdout = await runPython(SCRIPT, [String(ports[0]), String(ports[1])], base, join(base, "python"));
    const out = JSON.parse(stdout) as Record<string, unknown>;
    const at = (server: string, path: string) => [{ server, path, authorization: "Bearer t" }];
    expect(out.default).toEqual({
      plain: at("main", "/v1/plain"),
      upload: at("uploads", "/up/upload"),
      path_level: at("uploads", "/path-level"),
      // A relative server is below the client's base address: "/rel" at its origin.
      relative: at("main", "/rel/relative"),
    });
    expect(out.async_upload).toEqual(at("uploads", "/up/upload"));
    expect(out.explicit).toEqual({ upload: at("main", "/mock/upload"), path_level: at("main", "/mock/path-level") });
    expect(out.environment).toEqual(at("main", "/env/upload"));
    expect(out.call_option).toEqual(at("main", "/other/upload"));
    expect(out.bad_call_option).toMatchObject({ error: "SdkError", requests: 0 });
    expect((out.bad_call_option as { message: string }).message).toMatch(/^base_url must be an absolute http\(s\) address/);
  });
});
