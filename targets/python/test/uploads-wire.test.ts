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
  (request, res) => {
    // A raw upload asking for it is answered 503 the first time its tag arrives: the retry must send it again whole.
    const tag = request.headers["x-fail-once"];
    if (typeof tag === "string" && !failed.has(tag)) {
      failed.add(tag);
      res.writeHead(503, { "retry-after": "0" }).end();
      return;
    }
    if (request.url.endsWith("/upload")) return void res.writeHead(204).end();
    res.writeHead(201, { "content-type": "application/json" }).end('{"size":1}');
  },
);
const failed = new Set<string>();
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

/** Raw bodies (the bodies description's `upload`, application/octet-stream) from a path, a file, an iterator. */
const RAW_PROGRAM = `
import asyncio
import io
import pathlib
import sys
from collections.abc import AsyncIterator, Iterator

from matrix_bodies import AsyncClient, Client, FileUpload
from paperoffice_runtime import SdkError

folder = pathlib.Path(sys.argv[2])
path = folder / "scan.bin"
path.write_bytes(b"raw bytes from a path")
client = Client(base_url=sys.argv[1])
client.upload(path, extra_headers={"x-fail-once": "path"})
with path.open("rb") as handle:
    handle.read(4)
    client.upload(handle, extra_headers={"x-fail-once": "file"})
client.upload(FileUpload.from_path(str(path)))
client.upload(io.BytesIO(b"bytes io"), extra_headers={"x-fail-once": "bytesio"})


def chunks() -> Iterator[bytes]:
    yield b"first,"
    yield b"second"


client.upload(chunks())
try:
    client.upload(chunks(), extra_headers={"x-fail-once": "iterator"})
except SdkError as error:
    print("refused:", error)
client.upload(("x.png", b"typed", "image/png"))


async def stream() -> AsyncIterator[bytes]:
    yield b"async "
    yield b"chunks"


async def main() -> None:
    async with AsyncClient(base_url=sys.argv[1]) as aclient:
        await aclient.upload(stream())
        await aclient.upload(path, extra_headers={"x-fail-once": "async path"})


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
    await writeFile(join(folder, "raw_uploads_typed.py"), RAW_PROGRAM);
    await writeFile(
      join(folder, "uploads_refused.py"),
      'from matrix_bodies import Client\n\nClient(base_url="http://127.0.0.1:1").post_multipart({"file": 12, "note": "n"})\n',
    );
    const report = await pyrightStrict(folder, ["uploads_typed.py", "raw_uploads_typed.py", "uploads_refused.py"]);
    const errors = report.generalDiagnostics.filter((d) => d.severity === "error");
    expect(errors.filter((d) => d.file.endsWith("uploads_typed.py")).map((d) => diagnosticLine(folder, d))).toEqual([]);
    // A value that is no file is still refused where a file goes.
    expect(errors.filter((d) => d.file.endsWith("uploads_refused.py")).length).toBeGreaterThan(0);
  }, 120_000);

  it("streams a raw application/octet-stream body from a path, a file object or an iterator, sent again whole by a retry", async () => {
    received.length = 0;
    const stdout = await runPython(RAW_PROGRAM, [wire.baseUrl, wire.base], wire.base, join(wire.base, "bodies", "python"));
    expect(stdout).toMatch(/refused: upload: the upload's iterator was consumed by the first attempt/);
    const uploads = received.map((r) => [
      r.headers["x-fail-once"] ?? "",
      r.contentType,
      r.headers["content-length"] ?? (r.headers["transfer-encoding"] === "chunked" ? "chunked" : "none"),
      r.body,
    ]);
    const whole = "raw bytes from a path";
    expect(uploads).toEqual([
      ["path", "application/octet-stream", "21", whole],
      ["path", "application/octet-stream", "21", whole],
      // A file object is sent from where it stood, by every attempt.
      ["file", "application/octet-stream", "17", whole.slice(4)],
      ["file", "application/octet-stream", "17", whole.slice(4)],
      ["", "application/octet-stream", "21", whole],
      ["bytesio", "application/octet-stream", "8", "bytes io"],
      ["bytesio", "application/octet-stream", "8", "bytes io"],
      ["", "application/octet-stream", "chunked", "first,second"],
      // An iterator is consumed by its first attempt: the retry is refused, not sent empty.
      ["iterator", "application/octet-stream", "chunked", "first,second"],
      ["", "image/png", "5", "typed"],
      ["", "application/octet-stream", "chunked", "async chunks"],
      ["async path", "application/octet-stream", "21", whole],
      ["async path", "application/octet-stream", "21", whole],
    ]);
    expect(received.every((r) => r.method === "PUT" && r.url.endsWith("/upload"))).toBe(true);
  }, 60_000);
});
