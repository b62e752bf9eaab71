// Uploads through a generated Python client (test/matrix's bodies description) on the wire: a file field takes a
// path, a binary file object or an iterator of bytes (an async iterator with the asyncio client) beside bytes, the
// file name and media type coming from the path or the file object's name unless given; and strict pyright accepts
// each of them where the body's TypedDict declares a file.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { matrixSources, wireSuite } from "../../../test/support/wire.js";
import { emitPython } from "../emit/index.js";
import { diagnosticLine, pyrightStrict } from "./checkers.js";
import { runPython } from "./python-program.js";

const wire = wireSuite(
  "python-uploads-",
  matrixSources(["bodies"]),
  () => ({ emitters: [emitPython] }),
  (_request, res) => {
    res.writeHead(201, { "content-type": "application/json" }).end('{"size":1}');
  },
);
const received = wire.received;

const PROGRAM = `
import asyncio
import io
import pathlib
import sys
from collections.abc import AsyncIterator, Iterator

from matrix_bodies import AsyncClient, Client, FileUpload

folder = pathlib.Path(sys.argv[2])
path = folder / "invoice.pdf"
path.write_bytes(b"%PDF-1.7 from a path")
client = Client(base_url=sys.argv[1])
client.post_multipart({"file": path, "note": "a path"})
with path.open("rb") as handle:
    client.post_multipart({"file": handle, "note": "a file object"})
client.post_multipart({"file": FileUpload.from_path(str(path), filename="renamed.png"), "note": "a str path"})


def chunks() -> Iterator[bytes]:
    yield b"first,"
    yield b"second"


client.post_multipart({"file": ("data.csv", chunks()), "note": "an iterator"})
client.post_multipart({"file": ("raw.bin", io.BytesIO(b"bytes io"), "application/x-custom"), "note": "explicit"})


async def stream() -> AsyncIterator[bytes]:
    yield b"async "
    yield b"chunks"


async def main() -> None:
    async with AsyncClient(base_url=sys.argv[1]) as aclient:
        await aclient.post_multipart({"file": ("a.txt", stream()), "note": "an async iterator"})


asyncio.run(main())
`;

/** The part of the multipart body named `name`: its headers and content. */
function part(body: string, name: string): string | undefined {
  const start = body.indexOf(`name="${name}"`);
  return start < 0 ? undefined : body.slice(start, body.indexOf("\r\n--", start));
}

describe("uploads on the wire (Python)", () => {
  it("sends a path, a file object, an iterator and an async iterator as file parts named and typed", async () => {
    received.length = 0;
    await runPython(PROGRAM, [wire.baseUrl, wire.base], wire.base, join(wire.base, "bodies", "python"));
    const files = received.map((r) => part(r.body, "file"));
    expect(files).toEqual([
      'name="file"; filename="invoice.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7 from a path',
      'name="file"; filename="invoice.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7 from a path',
      'name="file"; filename="renamed.png"\r\nContent-Type: image/png\r\n\r\n%PDF-1.7 from a path',
      'name="file"; filename="data.csv"\r\nContent-Type: text/csv\r\n\r\nfirst,second',
      'name="file"; filename="raw.bin"\r\nContent-Type: application/x-custom\r\n\r\nbytes io',
      'name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nasync chunks',
    ]);
    expect(received.map((r) => r.contentType?.split(";")[0])).toEqual(Array(6).fill("multipart/form-data"));
  }, 60_000);

  it("types each of them as a file under strict pyright", async () => {
    const folder = join(wire.base, "bodies", "python");
    await writeFile(join(folder, "uploads_typed.py"), PROGRAM);
    await writeFile(
      join(folder, "uploads_refused.py"),
      'from matrix_bodies import Client\n\nClient(base_url="http://127.0.0.1:1").post_multipart({"file": 12, "note": "n"})\n',
    );
    const report = await pyrightStrict(folder, ["uploads_typed.py", "uploads_refused.py"]);
    const errors = report.generalDiagnostics.filter((d) => d.severity === "error");
    expect(errors.filter((d) => d.file.endsWith("uploads_typed.py")).map((d) => diagnosticLine(folder, d))).toEqual([]);
    // A value that is no file is still refused where a file goes.
    expect(errors.filter((d) => d.file.endsWith("uploads_refused.py")).length).toBeGreaterThan(0);
  }, 120_000);
});
