"""Request URLs and bodies from an operation and the call's input."""

from __future__ import annotations

import json
import re
import secrets
import urllib.parse
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Union, cast

import pydantic

from .errors import SdkError
from .files import FileContent, FilePart, FileUpload, file_part, is_file_content

FileValue = Union[
    FileContent, FileUpload, tuple[Union[str, None], FileContent], tuple[Union[str, None], FileContent, str]
]
"""A file field of a multipart body: its content (bytes, a path, a binary file object or an iterator of bytes), or
(file name, content[, media type]); see ``files.FileUpload``."""


@dataclass
class CallInput:
    """The parameters and body of one call, as generated code passes them."""

    path: Mapping[str, object] = field(default_factory=dict[str, object])
    query: Mapping[str, object] = field(default_factory=dict[str, object])
    headers: Mapping[str, object] = field(default_factory=dict[str, object])
    cookies: Mapping[str, object] = field(default_factory=dict[str, object])
    body: object = None
    json_strings: Sequence[str] = ()
    """Body fields that travel as JSON text."""


@dataclass
class EncodedBody:
    content: bytes | None = None
    content_type: str | None = None
    parts: Sequence[bytes | FilePart] = ()
    """A streamed multipart body (``content`` is None): the encoded headers and texts, and the files read as sent."""

    @property
    def streamed(self) -> bool:
        return bool(self.parts)

    def size(self) -> int | None:
        """The streamed body's length in bytes when every part's is known before sending (its Content-Length),
        else None (sent chunked)."""
        total = 0
        for part in self.parts:
            size = len(part) if isinstance(part, bytes) else part.size()
            if size is None:
                return None
            total += size
        return total

    @property
    def replayable(self) -> bool:
        """Whether another attempt can send the body again."""
        return all(isinstance(part, bytes) or part.replayable for part in self.parts)

    def stream(self) -> Iterator[bytes]:
        """The streamed body, for the blocking client: a file is read chunk by chunk, never whole."""
        for part in self.parts:
            if isinstance(part, bytes):
                yield part
            else:
                yield from part.read_chunks()

    async def astream(self) -> AsyncIterator[bytes]:
        """The streamed body, for the asyncio client."""
        for part in self.parts:
            if isinstance(part, bytes):
                yield part
            else:
                async for chunk in part.aread_chunks():
                    yield chunk


def plain(value: object) -> object:
    """A pydantic model as the JSON value it stands for (by alias, unset fields left out); other values as they are."""
    if isinstance(value, pydantic.BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return value


def parameter_text(value: object) -> str:
    """A path, header or cookie parameter's text: a list by OpenAPI's ``simple`` style (``a,b``), an object as JSON."""
    value = plain(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(parameter_text(item) for item in cast("Sequence[object]", value))
    if isinstance(value, dict):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


_DOT_OR_EMPTY = re.compile(r"(?:\.|%2e){0,2}", re.IGNORECASE)
"""An empty or dot segment, plain or percent-encoded: servers and proxies collapse or resolve it (RFC 3986 removes dot
segments), so the request would reach another path than the operation's."""


def fill_path(template: str, values: Mapping[str, object], label: str) -> str:
    """The template with each parameter percent-encoded. A value that is empty, ``.`` or ``..`` once encoded is
    refused before anything is sent; ``%`` is encoded too, so ``%2e%2e`` given is sent as ``%252e%252e``. The value
    is left out of the message (a download token is a credential)."""
    return fill_path_parts(split_path(template), values, label)


_PARAMETER = re.compile(r"\{([^}]+)\}")


def split_path(template: str) -> tuple[str, ...]:
    """A path template split at its parameters: literal text at even places, parameter names at odd ones."""
    return tuple(_PARAMETER.split(template))


def fill_path_parts(parts: Sequence[str], values: Mapping[str, object], label: str) -> str:
    """``fill_path`` of a template already split by ``split_path``."""
    if len(parts) == 1:
        return parts[0]
    filled = list(parts)
    for index in range(1, len(parts), 2):
        name = parts[index]
        if name not in values:
            raise SdkError(f"path parameter {name!r} is missing")
        encoded = urllib.parse.quote(parameter_text(values[name]), safe="")
        if _DOT_OR_EMPTY.fullmatch(encoded):
            raise SdkError(f'{label}: path parameter {name} must not be empty, "." or ".."')
        filled[index] = encoded
    return "".join(filled)


def query_pairs(query: Mapping[str, object]) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for name, raw in query.items():
        value = plain(raw)
        if value is None:
            continue
        if isinstance(value, (list, tuple)):
            items: Sequence[object] = cast("Sequence[object]", value)
            pairs.extend((name, parameter_text(item)) for item in items)
        else:
            pairs.append((name, parameter_text(value)))
    return pairs


def encode_body(media_type: str | None, body: object, json_strings: Sequence[str] = ()) -> EncodedBody:
    """The body as the operation's media type wants it."""
    body = plain(body)
    if body is None:
        return EncodedBody()
    if media_type is None or media_type == "application/json" or media_type.endswith("+json"):
        return EncodedBody(content=json.dumps(body).encode("utf-8"), content_type=media_type or "application/json")
    if media_type in ("multipart/form-data", "application/x-www-form-urlencoded"):
        if not isinstance(body, Mapping):
            raise SdkError(f"a {media_type} body must be a mapping of fields")
        if media_type == "application/x-www-form-urlencoded":
            return _urlencoded(body, frozenset(json_strings))  # pyright: ignore[reportUnknownArgumentType]
        return _form(body, frozenset(json_strings))  # pyright: ignore[reportUnknownArgumentType]
    if isinstance(body, str):
        return EncodedBody(content=body.encode("utf-8"), content_type=media_type)
    if isinstance(body, (bytes, bytearray)):
        return EncodedBody(content=bytes(body), content_type=media_type)
    if is_file_content(body):
        return _raw_file(media_type, body)
    raise SdkError(
        f"a {media_type} body must be bytes, str, a path, a binary file object or an iterator of bytes, not"
        f" {type(body).__name__}"
    )


def _raw_file(media_type: str, body: object) -> EncodedBody:
    """A body of one file sent as it is (application/octet-stream, image/png...): a path, a file object or an
    iterator is read chunk by chunk as it is sent, and read again from the start by a retry (an iterator cannot be).
    A media type given with it (``FileUpload(..., content_type=...)`` or a 3-tuple) replaces the operation's."""
    part = file_part("body", body)
    content_type = _given_media_type(body) or media_type
    if part.data is not None:
        return EncodedBody(content=part.data, content_type=content_type)
    return EncodedBody(content_type=content_type, parts=(part,))


def _given_media_type(value: object) -> str | None:
    """The media type of a (file name, content, media type) tuple or a FileUpload, when it gives one."""
    if not isinstance(value, tuple):
        return None
    parts = cast("tuple[object, ...]", value)
    given = parts[2] if len(parts) == 3 else None
    return given if isinstance(given, str) and given else None


def _form(body: Mapping[str, object], json_strings: frozenset[str]) -> EncodedBody:
    """A multipart/form-data body: files as parts, a list as ``a,b``, an object as JSON text."""
    data: dict[str, str] = {}
    files: list[FilePart] = []
    for name, raw in body.items():
        value = plain(raw)
        if value is None:
            continue
        if name in json_strings:
            data[name] = json.dumps(value)
        elif is_file_content(value):
            files.append(file_part(name, value))
        elif _is_file_list(value):
            # Several files under one field name: one part each, in order.
            files.extend(file_part(name, item) for item in cast("Sequence[object]", value))
        else:
            data[name] = parameter_text(value)
    return _multipart(data, files)


def _urlencoded(body: Mapping[str, object], json_strings: frozenset[str]) -> EncodedBody:
    """A urlencoded form: a list repeats its name, an object's fields go as ``name[key]`` and a list of objects as
    ``name[0][key]``, as the TypeScript and Go clients send them and form APIs (Stripe's, Twilio's) read them."""
    pairs: list[tuple[str, str]] = []
    for name, raw in body.items():
        value = plain(raw)
        if name in json_strings and value is not None:
            pairs.append((name, json.dumps(value)))
        else:
            _form_pairs(name, value, pairs)
    return EncodedBody(
        content=urllib.parse.urlencode(pairs).encode("ascii"), content_type="application/x-www-form-urlencoded"
    )


def _form_pairs(name: str, raw: object, pairs: list[tuple[str, str]]) -> None:
    value = plain(raw)
    if value is None:
        return
    if is_file_content(value):
        raise SdkError(f"files cannot travel in an application/x-www-form-urlencoded body (field {name})")
    if isinstance(value, Mapping):
        for key, item in cast("Mapping[str, object]", value).items():
            _form_pairs(f"{name}[{key}]", item, pairs)
    elif isinstance(value, (list, tuple)):
        items = cast("Sequence[object]", value)
        indexed = any(isinstance(item, (Mapping, list, tuple)) for item in items)
        for index, item in enumerate(items):
            _form_pairs(f"{name}[{index}]" if indexed else name, item, pairs)
    else:
        pairs.append((name, parameter_text(value)))


def _is_file_list(value: object) -> bool:
    """A list of files (bytes, paths, file objects, iterators or file tuples), sent as parts of the same name."""
    if not isinstance(value, list) or not value:
        return False
    items = cast("list[object]", value)
    return all(is_file_content(item) for item in items)


def _quoted(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\r", "%0D").replace("\n", "%0A")


def _multipart(data: Mapping[str, str], files: Sequence[FilePart]) -> EncodedBody:
    """A multipart/form-data body, also when it has no file (an HTTP client would send a form instead). Files held
    in memory make one bytes body; a path, file object or iterator makes a streamed one, read as it is sent."""
    boundary = secrets.token_hex(16)
    parts: list[bytes | FilePart] = []
    out = bytearray()
    for name, text in data.items():
        out += f'--{boundary}\r\nContent-Disposition: form-data; name="{_quoted(name)}"\r\n\r\n'.encode()
        out += text.encode("utf-8") + b"\r\n"
    for part in files:
        disposition = f'form-data; name="{_quoted(part.field)}"; filename="{_quoted(part.filename)}"'
        out += f"--{boundary}\r\nContent-Disposition: {disposition}\r\n".encode()
        out += f"Content-Type: {_header_text(part.content_type)}\r\n\r\n".encode()
        if part.data is not None:
            out += part.data
        else:
            parts.extend((bytes(out), part))
            out = bytearray()
        out += b"\r\n"
    out += f"--{boundary}--\r\n".encode()
    content_type = f"multipart/form-data; boundary={boundary}"
    if not parts:
        return EncodedBody(content=bytes(out), content_type=content_type)
    parts.append(bytes(out))
    return EncodedBody(content_type=content_type, parts=tuple(parts))


def _header_text(text: str) -> str:
    """A media type as a header's text: no line break can end the header early."""
    return text.replace("\r", "").replace("\n", "")
