// The generated Python client of test/matrix's wire3-fragment-path.yaml against a local server: a path key with a
// #fragment (Microsoft's `/x#overload=stream`) is sent as the path before `#`, with the query after it, since a
// fragment never reaches the server; the operations that share the path keep their own methods and bodies.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { matrixSources, wireSuite } from "../../../test/support/wire.js";
import { emitPython } from "../emit/index.js";
import { runPython } from "./python-program.js";

const NAME = "wire3-fragment-path";
/** Each request line's method and target, with its Content-Type. */
const received: string[] = [];
const wire = wireSuite(
  "python-fragment-",
  matrixSources([NAME]),
  () => ({ emitters: [emitPython] }),
  ({ method, url, contentType }, res) => {
    received.push(`${method} ${url} ${contentType ?? ""}`);
    if (method === "PATCH") res.writeHead(204).end();
    else res.writeHead(200, { "content-type": "application/json" }).end('{"size":1}');
  },
);

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
    await runPython(program, [wire.baseUrl], wire.base, join(wire.base, NAME, "python"));
    expect(received).toEqual([
      "POST /thumbnail?width=64 application/octet-stream",
      "POST /thumbnail?width=32 application/json",
      "PATCH /items/a%20b?note=n ",
      "POST /thumbnail?width=16 application/octet-stream",
    ]);
  });
});
