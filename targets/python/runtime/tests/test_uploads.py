"""Uploads: a file field takes bytes, a path, a binary file object or an iterator of bytes, with a file name and a
media type; paths, file objects and iterators are read chunk by chunk as the body is sent."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from paperoffice_runtime import CallInput, FileUpload, OperationSpec, SdkError
from paperoffice_runtime.encoding import encode_body
from paperoffice_runtime.files import CHUNK_SIZE

from .conftest import MakeRuntime, Recorder, json_answer, settle

UPLOAD = OperationSpec("upload", "POST", "/upload", "multipart/form-data", security=((),))


def part_of(body: bytes, field: str) -> bytes:
    """The headers and content of the part named ``field``."""
    start = body.index(f'name="{field}"'.encode())
    return body[start : body.index(b"\r\n--", start)]


def sent(make_runtime: MakeRuntime, body: dict[str, object]) -> bytes:
    recorder = Recorder([lambda r: json_answer(200, {})])
    settle(make_runtime(recorder).call(UPLOAD, CallInput(body=body)))
    return recorder.requests[0].content


def test_a_path_names_the_file_and_gives_its_media_type(make_runtime: MakeRuntime, tmp_path: Path) -> None:
    path = tmp_path / "invoice.pdf"
    path.write_bytes(b"%PDF-1.7 path")
    body = sent(make_runtime, {"file": path, "lang": "de"})
    assert part_of(body, "file") == (
        b'name="file"; filename="invoice.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7 path'
    )
    assert b'name="lang"\r\n\r\nde\r\n' in body
    # A str path goes through FileUpload.from_path (a bare str is a text field).
    body = sent(make_runtime, {"file": FileUpload.from_path(str(path), filename="other.png")})
    assert b'filename="other.png"\r\nContent-Type: image/png\r\n\r\n%PDF-1.7 path' in body


def test_a_file_object_is_named_by_its_name_and_sent_from_where_it_stands(
    make_runtime: MakeRuntime, tmp_path: Path
) -> None:
    path = tmp_path / "scan.png"
    path.write_bytes(b"HEADER" + b"P" * 10)
    with path.open("rb") as handle:
        handle.seek(6)
        body = sent(make_runtime, {"file": handle})
    assert part_of(body, "file") == b'name="file"; filename="scan.png"\r\nContent-Type: image/png\r\n\r\n' + b"P" * 10
    # An explicit name and media type win; an object without a name takes the field's.
    body = sent(make_runtime, {"file": ("a.txt", io.BytesIO(b"abc"), "text/csv"), "other": io.BytesIO(b"xyz")})
    assert b'filename="a.txt"\r\nContent-Type: text/csv\r\n\r\nabc' in body
    assert (
        part_of(body, "other") == b'name="other"; filename="other"\r\nContent-Type: application/octet-stream\r\n\r\nxyz'
    )


def test_an_iterator_of_bytes_is_streamed(make_runtime: MakeRuntime, flavor: str) -> None:
    def chunks() -> Iterator[bytes]:
        yield b"one,"
        yield b"two"

    body = sent(make_runtime, {"file": FileUpload("data.csv", chunks())})
    assert b'filename="data.csv"\r\nContent-Type: text/csv\r\n\r\none,two\r\n' in body


def test_an_async_iterator_needs_the_asyncio_client(make_runtime: MakeRuntime, flavor: str) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        yield b"async "
        yield b"bytes"

    if flavor == "async":
        body = sent(make_runtime, {"file": ("a.bin", chunks())})
        assert b'filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\nasync bytes\r\n' in body
    else:
        with pytest.raises(SdkError, match="file field file: an async iterator can only be sent by the asyncio client"):
            sent(make_runtime, {"file": ("a.bin", chunks())})


def test_bytes_default_to_the_field_name_and_a_guessed_media_type() -> None:
    encoded = encode_body("multipart/form-data", {"file": b"raw", "doc": ("report.pdf", b"%PDF")})
    assert encoded.content is not None
    assert b'name="file"; filename="file"\r\nContent-Type: application/octet-stream\r\n\r\nraw' in encoded.content
    assert b'filename="report.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF' in encoded.content


def test_a_large_file_is_not_read_into_memory_whole(tmp_path: Path) -> None:
    path = tmp_path / "big.bin"
    path.write_bytes(b"x" * (CHUNK_SIZE * 5 + 7))
    encoded = encode_body("multipart/form-data", {"file": path})
    assert encoded.content is None and encoded.streamed and encoded.replayable
    pieces = list(encoded.stream())
    assert max(len(piece) for piece in pieces) <= CHUNK_SIZE
    assert sum(piece.count(b"x") for piece in pieces) == CHUNK_SIZE * 5 + 7
    # Each attempt reads the file again from the start.
    assert list(encoded.stream()) == pieces


def test_a_streamed_upload_is_retried_when_it_can_be_read_again(make_runtime: MakeRuntime, tmp_path: Path) -> None:
    path = tmp_path / "a.pdf"
    path.write_bytes(b"%PDF again")
    recorder = Recorder([lambda r: httpx.Response(503), lambda r: json_answer(200, {})])
    settle(make_runtime(recorder).call(UPLOAD, CallInput(body={"file": path})))
    assert len(recorder.requests) == 2
    assert recorder.requests[0].content == recorder.requests[1].content
    assert b"%PDF again" in recorder.requests[1].content


def test_a_consumed_iterator_is_not_sent_again(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: httpx.Response(503), lambda r: json_answer(200, {})])
    with pytest.raises(SdkError, match="upload: the upload's iterator was consumed by the first attempt"):
        settle(make_runtime(recorder).call(UPLOAD, CallInput(body={"file": iter([b"once"])})))
    assert len(recorder.requests) == 1


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (Path("no/such/file.pdf"), "file field file: no/such/file.pdf is not a readable file"),
        (io.StringIO("text"), "file field file: the file object is open in text mode; open it with 'rb'"),
        (("a.bin", 12), None),
    ],
)
def test_what_is_not_a_file_is_said(value: object, message: str | None) -> None:
    if message is None:
        # A tuple whose content is no file is a text field, as before.
        encoded = encode_body("multipart/form-data", {"file": value})
        assert encoded.content is not None and b'name="file"\r\n\r\na.bin,12\r\n' in encoded.content
        return
    with pytest.raises(SdkError, match=message):
        encode_body("multipart/form-data", {"file": value})


def test_iterators_yielding_text_are_refused_with_the_field() -> None:
    encoded = encode_body("multipart/form-data", {"file": iter(["text"])})
    with pytest.raises(SdkError, match="file field file: the file yields str, not bytes"):
        list(encoded.stream())
