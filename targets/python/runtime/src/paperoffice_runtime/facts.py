"""What a call needs to know of its operation that stays the same from call to call, worked out on the first call
(``OperationSpec.facts``) instead of on every one: the Accept header, whether it may be sent again, the path
template split at its parameters, and how an answer of a given status and Content-Type is read."""

from __future__ import annotations

from typing import cast

from .answers import AnswerKind, declared_kind
from .encoding import split_path
from .model import OperationSpec
from .parsing import accept_header, body_kind
from .retry import is_resendable

KINDS_KEPT = 64
"""Distinct (status, Content-Type) pairs whose answer kind is remembered per operation; a server that sends more
(say, a boundary in every Content-Type) has the rest worked out each time."""


class OperationFacts:
    """The per-operation facts of one OperationSpec; read-only once built, but for the answer kinds it remembers."""

    __slots__ = ("_kinds", "_operation", "accept", "drop", "path_parts", "resendable")

    def __init__(self, operation: OperationSpec) -> None:
        self._operation = operation
        self.accept = accept_header(operation)
        # An operation that declares no answer body sends no Accept header, not even the HTTP client's default.
        self.drop: tuple[str, ...] = ("accept",) if self.accept is None and operation.answers else ()
        self.resendable = is_resendable(operation)
        self.path_parts = split_path(operation.path)
        self._kinds: dict[tuple[int, str | None], AnswerKind | None] = {}

    def answer_kind(self, status: int, content_type: str | None) -> AnswerKind | None:
        """How a non-empty body of ``status`` and ``content_type`` is read: by the kind the operation declares for
        the status where it declares its answers (None: a body of a type the description does not declare), else by
        the Content-Type and the declared media types (``body_kind``)."""
        key = (status, content_type)
        if key in self._kinds:
            return self._kinds[key]
        operation = self._operation
        kind: AnswerKind | None = cast("AnswerKind", body_kind(operation, status, content_type, b"\0"))
        if kind != "none" and operation.answers:
            kind = declared_kind(operation, status, content_type)
        # Racing threads at worst work the same kind out twice (a dict's item assignment is atomic).
        if len(self._kinds) < KINDS_KEPT:
            self._kinds[key] = kind
        return kind
