"""Raw answers: an operation method wrapped so that it answers with a :class:`RawResponse`, the parsed result with
the status, headers and request id of the HTTP answer it came from (as ``client.with_raw_response`` offers)."""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Generic, TypeVar

import httpx
from typing_extensions import ParamSpec

from .base import ApiResult
from .envelope import ResponseMeta
from .errors import SdkError

P = ParamSpec("P")
R = TypeVar("R")

_CAPTURE: contextvars.ContextVar[list[ApiResult[object]] | None] = contextvars.ContextVar(
    "paperoffice_raw_capture", default=None
)


def note_result(result: ApiResult[object]) -> None:
    """Hands the result of one call to the raw wrapper it runs under, if any (a runtime calls it once per call)."""
    captured = _CAPTURE.get()
    if captured is not None:
        captured.append(result)


class RawResponse(Generic[R]):
    """What an operation answered, with the answer's metadata: ``parse()`` is what the method returns."""

    def __init__(self, parsed: R, result: ApiResult[object]) -> None:
        self._parsed = parsed
        self._result = result

    @property
    def meta(self) -> ResponseMeta:
        """Status, headers, request count, request id, and the envelope's processing time and billing."""
        return self._result.meta

    @property
    def status_code(self) -> int:
        return self._result.meta.status

    @property
    def headers(self) -> httpx.Headers:
        return self._result.meta.headers

    @property
    def request_id(self) -> str | None:
        """The request id header of the answer (the name the description states, else X-Request-Id)."""
        return self._result.meta.request_id

    @property
    def http_response(self) -> httpx.Response | None:
        """The httpx response itself (its body already read: see ``content``)."""
        return self._result.response

    @property
    def content(self) -> bytes:
        """The body as it arrived."""
        return self._result.content

    def parse(self) -> R:
        """The result as the method returns it."""
        return self._parsed

    def __repr__(self) -> str:
        return f"RawResponse(status_code={self.status_code}, request_id={self.request_id!r})"


def _raw(parsed: R, captured: list[ApiResult[object]], name: str) -> RawResponse[R]:
    if not captured:
        raise SdkError(f"{name}: the call sent no request, so there is no raw answer")
    return RawResponse(parsed, captured[-1])


def raw_response(method: Callable[P, R]) -> Callable[P, RawResponse[R]]:
    """``method`` answering with a RawResponse of what it returns."""
    name = getattr(method, "__name__", "call")

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> RawResponse[R]:
        captured: list[ApiResult[object]] = []
        token = _CAPTURE.set(captured)
        try:
            parsed = method(*args, **kwargs)
        finally:
            _CAPTURE.reset(token)
        return _raw(parsed, captured, name)

    return wrapper


def async_raw_response(method: Callable[P, Awaitable[R]]) -> Callable[P, Coroutine[Any, Any, RawResponse[R]]]:
    """The coroutine method ``method`` answering with a RawResponse of what it returns."""
    name = getattr(method, "__name__", "call")

    @functools.wraps(method)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> RawResponse[R]:
        captured: list[ApiResult[object]] = []
        token = _CAPTURE.set(captured)
        try:
            parsed = await method(*args, **kwargs)
        finally:
            _CAPTURE.reset(token)
        return _raw(parsed, captured, name)

    return wrapper
