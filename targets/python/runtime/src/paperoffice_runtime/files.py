"""Files: a download written to a temporary file beside its target, renamed into place only once complete; and the
files of an upload, read chunk by chunk as the body is sent."""

from __future__ import annotations

import io
import mimetypes
import os
import pathlib
import tempfile
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import IO, BinaryIO, NamedTuple, Union, cast

from .errors import SdkError


class FileSink:
    """Receives the chunks of a download; ``path`` never holds a partial file."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        handle, self._temporary = tempfile.mkstemp(prefix=".download-", dir=os.path.dirname(os.path.abspath(self.path)))
        self._file: BinaryIO = os.fdopen(handle, "wb")
        self.size = 0

    def write(self, chunk: bytes) -> None:
        self._file.write(chunk)
        self.size += len(chunk)

    def reset(self) -> None:
        """Starts over (before a retry of a download that broke off)."""
        self._file.seek(0)
        self._file.truncate()
        self.size = 0

    def commit(self) -> None:
        self._file.close()
        os.replace(self._temporary, self.path)

    def discard(self) -> None:
        self._file.close()
        if os.path.exists(self._temporary):
            os.unlink(self._temporary)


# Uploads: what a file field of a multipart body takes, and how each part is read when the body is sent.

FileContent = Union[
    bytes,
    bytearray,
    "os.PathLike[str]",
    IO[bytes],
    Iterable[bytes],
    AsyncIterable[bytes],
]
"""A file's content: bytes, a path (``pathlib.Path``; a bare ``str`` is text, never a path), a binary file object
opened for reading, or an iterator of byte chunks (an async one only with the asyncio client)."""

CHUNK_SIZE = 64 * 1024
"""Bytes read from a path or a file object at a time: a file is sent without being read into memory whole."""


class FileUpload(NamedTuple):
    """A file part of a multipart body. ``filename`` defaults to the path's or the file object's name, else the field
    name; ``content_type`` to the media type of the file name's extension, else ``application/octet-stream``."""

    filename: str | None
    content: FileContent
    content_type: str | None = None

    @classmethod
    def from_path(
        cls, path: str | os.PathLike[str], *, filename: str | None = None, content_type: str | None = None
    ) -> FileUpload:
        """The file at ``path`` (a ``str`` is taken as a path here), read when the body is sent."""
        return cls(filename, pathlib.Path(path), content_type)


@dataclass(frozen=True)
class FilePart:
    """One file part, normalised: its name, media type and where its bytes come from."""

    field: str
    filename: str
    content_type: str
    data: bytes | None = None
    path: str | None = None
    file: IO[bytes] | None = None
    chunks: Iterable[bytes] | AsyncIterable[bytes] | None = None
    start: int = 0
    """Where a seekable file object stood when given: each attempt sends from there."""

    @property
    def in_memory(self) -> bool:
        return self.data is not None

    @property
    def replayable(self) -> bool:
        """Whether a second attempt can send the same bytes (an iterator is consumed by the first)."""
        return self.chunks is None and (self.file is None or _seekable(self.file))

    def size(self) -> int | None:
        """How many bytes the part sends, when known before sending: bytes, a path, a seekable file object (from
        where it stood); None for an iterator."""
        if self.data is not None:
            return len(self.data)
        if self.path is not None:
            return os.path.getsize(self.path)
        if self.file is not None and _seekable(self.file):
            end = self.file.seek(0, io.SEEK_END)
            self.file.seek(self.start)
            return max(0, end - self.start)
        return None

    def read_chunks(self) -> Iterator[bytes]:
        """The part's bytes, chunk by chunk, for the blocking client."""
        if self.data is not None:
            yield self.data
        elif self.path is not None:
            with open(self.path, "rb") as handle:
                yield from iter(lambda: handle.read(CHUNK_SIZE), b"")
        elif self.file is not None:
            if _seekable(self.file):
                self.file.seek(self.start)
            yield from _read_file(self.file, self.field)
        elif isinstance(self.chunks, AsyncIterable):
            raise SdkError(f"file field {self.field}: an async iterator can only be sent by the asyncio client")
        elif self.chunks is not None:
            for chunk in self.chunks:
                yield _chunk(chunk, self.field)

    async def aread_chunks(self) -> AsyncIterator[bytes]:
        """The part's bytes, chunk by chunk, for the asyncio client."""
        if isinstance(self.chunks, AsyncIterable):
            async for chunk in self.chunks:
                yield _chunk(chunk, self.field)
        else:
            for chunk in self.read_chunks():
                yield chunk


def _seekable(file: IO[bytes]) -> bool:
    try:
        return file.seekable()
    except (AttributeError, ValueError):
        return False


def _read_file(file: IO[bytes], field: str) -> Iterator[bytes]:
    while True:
        chunk = file.read(CHUNK_SIZE)
        if not chunk:
            return
        yield _chunk(chunk, field)


def _chunk(chunk: object, field: str) -> bytes:
    if isinstance(chunk, (bytes, bytearray)):
        return bytes(chunk)
    raise SdkError(f"file field {field}: the file yields {type(chunk).__name__}, not bytes (open it in binary mode)")


def is_file_content(value: object) -> bool:
    """Whether a body field's value is a file (rather than a text, number, list or object field)."""
    if isinstance(value, (bytes, bytearray, os.PathLike, FileUpload)):
        return True
    if isinstance(value, (str, Mapping, list, tuple)):
        return isinstance(value, tuple) and _is_file_tuple(cast("tuple[object, ...]", value))
    return callable(getattr(value, "read", None)) or isinstance(value, (Iterator, AsyncIterable))


def _is_file_tuple(parts: tuple[object, ...]) -> bool:
    if len(parts) not in (2, 3) or not (parts[0] is None or isinstance(parts[0], str)):
        return False
    if len(parts) == 3 and not (parts[2] is None or isinstance(parts[2], str)):
        return False
    content = parts[1]
    return not isinstance(content, (str, tuple)) and is_file_content(content)


def file_part(field: str, value: object) -> FilePart:
    """The part of a file value (see ``is_file_content``): its file name and media type filled in."""
    filename: str | None = None
    content_type: str | None = None
    content: object = value
    if isinstance(value, tuple):
        parts = cast("tuple[object, ...]", value)
        filename = cast("str | None", parts[0])
        content = parts[1]
        content_type = cast("str | None", parts[2]) if len(parts) == 3 else None
    name = filename
    data: bytes | None = None
    path: str | None = None
    file: IO[bytes] | None = None
    chunks: Iterable[bytes] | AsyncIterable[bytes] | None = None
    start = 0
    if isinstance(content, (bytes, bytearray)):
        data = bytes(content)
    elif isinstance(content, os.PathLike):
        path = os.fspath(cast("os.PathLike[str]", content))
        if not os.path.isfile(path):
            raise SdkError(f"file field {field}: {path} is not a readable file")
        name = name or os.path.basename(path)
    elif callable(getattr(content, "read", None)):
        file = cast("IO[bytes]", content)
        if isinstance(file, io.TextIOBase) or "b" not in str(getattr(file, "mode", "b")):
            raise SdkError(f"file field {field}: the file object is open in text mode; open it with 'rb'")
        start = file.tell() if _seekable(file) else 0
        own: object = getattr(file, "name", None)
        if name is None and isinstance(own, str) and own:
            name = os.path.basename(own)
    elif isinstance(content, (Iterable, AsyncIterable)):
        chunks = cast("Iterable[bytes] | AsyncIterable[bytes]", content)
    else:
        kind = type(content).__name__
        raise SdkError(f"file field {field}: {kind} is not bytes, a path, a file object or an iterator of bytes")
    name = name or field
    kind = content_type or mimetypes.guess_type(name)[0] or "application/octet-stream"
    return FilePart(field, name, kind, data=data, path=path, file=file, chunks=chunks, start=start)
