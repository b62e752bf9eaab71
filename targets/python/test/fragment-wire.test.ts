// The generated Python client of test/matrix's wire3-fragment-path.yaml against a local server: a path key with a
// #fragment (Microsoft's `/x#overload=stream`) is sent as the path before `#`, with the query after it, since a
// fragment never reaches the server; the operations that share the path keep their own methods and bodies.
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
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
const DESCRIPTION = fileURLToPath(new URL("../../../test/matrix/descriptions/wire3-fragment-path.yaml", import.meta.url));

let base = "";
let server: Server;
let baseUrl = "";
/** Each request line's method and target, with its Content-Type. */
const received: string[] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "python-fragment-"));
  await writeFiles(base, (await generate(DESCRIPTION, { emitters: [emitPython] })).files);
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received.push(`${req.method} ${req.url} ${req.headers["content-type"] ?? ""}`);
      if (req.method === "PATCH") res.writeHead(204).end();
      else res.writeHead(200, { "content-type": "application/json" }).end('{"size":1}');
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise((ok) => server.close(ok));
  if (base !== "") await rm(base, { recursive: true, force: true });
});

describe("path keys with a #fragment on the wire (Python)", () => {
  it("sends the path before `#` with the query after it, blocking and asyncio alike", async () => {
    const program = `
import asyncio, sys
from wire3_fragment.client import Client
from wire3_fragment.aio import AsyncClient
client = Client(base_url=sys.argv[1])
client.thumbnail_from_stream(b"png", width=64)
client.thumbnail_from_url({"url": "https://x.test/a.png"}, width=32)
client.patch_items_id_overload_patch("a b", note="n")
async def main() -> None:
    async with AsyncClient(base_url=sys.argv[1]) as aclient:
        await aclient.thumbnail_from_stream(b"png", width=16)
asyncio.run(main())
`;
    received.length = 0;
    await run(venvPython, ["-c", program, baseUrl], {
      cwd: base,
      env: { ...process.env, PYTHONPATH: join(base, "python"), PYTHONDONTWRITEBYTECODE: "1" },
      timeout: 60_000,
    });
    expect(received).toEqual([
      "POST /thumbnail?width=64 application/octet-stream",
      "POST /thumbnail?width=32 application/json",
      "PATCH /items/a%20b?note=n ",
      "POST /thumbnail?width=16 application/octet-stream",
    ]);
  });
});
