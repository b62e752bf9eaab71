"""Answers as Python values: JSON validated into the pydantic type the generated code names, text as str, other
media types as bytes, and no body as None. JSON is parsed only where the operation declares it."""

from __future__ import annotations

import threading
from typing import Any, TypeVar

import pydantic
from pydantic import ConfigDict, TypeAdapter

from .model import OperationSpec

T = TypeVar("T")


ABSENT: Any = None
"""The default generated models give the fields the description requires: an answer that lacks one still parses
(the field reads None) rather than failing the call, while every field that is present is validated. Models of
answers are lenient about absence as they are about additions (unknown fields are kept)."""


class BaseModel(pydantic.BaseModel):
    """Base of the generated models: fields the description does not name (yet) are kept, not dropped."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)


_adapters: dict[object, TypeAdapter[Any]] = {}
_adapters_lock = threading.Lock()


def adapter_for(kind: type[T]) -> TypeAdapter[T]:
    """One TypeAdapter per type, built once (they are costly to build)."""
    found = _adapters.get(kind)
    if found is not None:
        return found
    with _adapters_lock:
        found = _adapters.get(kind)
        if found is None:
            found = TypeAdapter(kind)
            _adapters[kind] = found
        return found


def adapter_of(kind: object) -> TypeAdapter[Any]:
    """One TypeAdapter per type expression (a union, a list of models...), built once."""
    found = _adapters.get(kind)
    if found is not None:
        return found
    with _adapters_lock:
        found = _adapters.get(kind)
        if found is None:
            found = TypeAdapter[Any](kind)
            _adapters[kind] = found
        return found


def media_type_of(content_type: str | None) -> str:
    return "" if content_type is None else content_type.split(";", 1)[0].strip().lower()


def is_json_media_type(media_type: str) -> bool:
    media = media_type_of(media_type)
    return media == "application/json" or media.endswith("+json")


def is_text_media_type(media_type: str) -> bool:
    return media_type_of(media_type).startswith("text/")


def accept_header(operation: OperationSpec) -> str | None:
    """The Accept header of an operation: its declared answer media types, or none when it declares none."""
    return ", ".join(dict.fromkeys(operation.response_media_types)) or None


def expects_json(operation: OperationSpec, content_type: str | None) -> bool:
    """JSON is parsed only where the operation declares it, and the answer does not say it is something else."""
    declared = [m for m in operation.response_media_types if is_json_media_type(m)]
    if not declared:
        return False
    media = media_type_of(content_type)
    return media == "" or is_json_media_type(media) or len(declared) == len(operation.response_media_types)


def body_kind(operation: OperationSpec, status: int, content_type: str | None, body: bytes) -> str:
    """``none``, ``json``, ``text`` or ``bytes``: how an answer's body is handed over."""
    if not body or status in (204, 205, 304) or operation.method == "HEAD":
        return "none"
    if expects_json(operation, content_type):
        return "json"
    media = media_type_of(content_type)
    if is_text_media_type(media) or (
        media == "" and any(is_text_media_type(m) for m in operation.response_media_types)
    ):
        return "text"
    return "bytes"


def charset_of(content_type: str | None) -> str:
    for part in (content_type or "").split(";")[1:]:
        name, _, value = part.partition("=")
        if name.strip().lower() == "charset" and value.strip():
            return value.strip().strip('"')
    return "utf-8"
