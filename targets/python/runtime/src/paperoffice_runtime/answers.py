"""Answers as the description declares them for their status: which kind of body each success status carries."""

from __future__ import annotations

from typing import Literal

from .model import OperationSpec
from .parsing import media_type_of

AnswerKind = Literal["none", "json", "text", "bytes"]


def kind_of_media_type(media_type: str) -> AnswerKind:
    """How a body of a declared media type is handed over: JSON, text (text/*, XML, YAML) or bytes."""
    essence = media_type_of(media_type)
    if "json" in essence:
        return "json"
    subtype = essence.split("/", 1)[1] if "/" in essence else ""
    if essence.startswith("text/") or subtype in ("xml", "yaml", "x-yaml") or subtype.endswith("+xml"):
        return "text"
    return "bytes"


def kind_of_declared(operation: OperationSpec, media_type: str) -> AnswerKind:
    """The kind of a declared media type: as the generated spec states it, else by its name."""
    for declared, kind in operation.answer_kinds:
        if declared == media_type:
            return kind
    return kind_of_media_type(media_type)


def declared_media_types(operation: OperationSpec, status: int) -> tuple[str, ...] | None:
    """The media types declared for a status (0: any other success status); None when no status declares it, in
    which case any of the declared ones is accepted."""
    declared = dict(operation.answers)
    found = declared.get(status, declared.get(0))
    if found is not None:
        return found
    return None


def declared_kind(operation: OperationSpec, status: int, content_type: str | None) -> AnswerKind | None:
    """The kind of a body by what the operation declares for its status: ``none`` where the status is declared
    without content, else the kind of the first declared media range the body's type matches (a JSON body where
    JSON is declared; without a Content-Type, JSON when declared, else the first declared kind). None for a body of
    a type the description does not declare."""
    media = declared_media_types(operation, status)
    if media is None:
        media = tuple(m for _, types in operation.answers for m in types)
    if not media:
        return "none"
    kinds: list[AnswerKind] = [kind_of_declared(operation, m) for m in media]
    essence = media_type_of(content_type)
    if essence == "":
        return "json" if "json" in kinds else kinds[0]
    for declared, kind in zip(media, kinds):
        wanted = media_type_of(declared)
        if wanted in (essence, "*/*") or (wanted.endswith("/*") and essence.startswith(wanted[:-1])):
            return kind
    if "json" in essence and "json" in kinds:
        return "json"
    # application/octet-stream stands for any binary: a body of another binary type (application/pdf) is bytes too.
    if "bytes" in kinds and kind_of_media_type(essence) == "bytes" and "application/octet-stream" in media:
        return "bytes"
    return None


def declared_text(operation: OperationSpec, status: int) -> str:
    media = declared_media_types(operation, status)
    if media is None:
        media = tuple(m for _, types in operation.answers for m in types)
    return ", ".join(media) or "no content"
