"""Iteration over reads whose answer says where the next page is: a cursor in an answer field, or the URL of an
RFC 8288 ``Link: <...>; rel="next"`` header.

The first page is the operation's call with the caller's parameters; each next one the same call with the cursor
set, or a GET of the next link. A next link is followed only at the operation's own origin: one elsewhere is an
:class:`SdkError` before anything is sent, so that credentials never go to another host. ``extra_headers`` reach
every page; a ``deadline`` (seconds) bounds the whole iteration, as for the limit/offset pagers. Paging stops when
an answer gives no next cursor or link (absent, null or empty), or after an empty page.
"""

from __future__ import annotations

import re
import types
import urllib.parse
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from .base import ApiResult, origin_of
from .base_url import operation_base_url
from .deadline import Deadline
from .encoding import CallInput
from .envelope import ResponseMeta
from .errors import SdkError
from .model import CursorPaginationModel, LinkPaginationModel, OperationSpec

if TYPE_CHECKING:
    from .async_runtime import AsyncRuntime
    from .base import BaseRuntime
    from .sync_runtime import SyncRuntime

T = TypeVar("T")
D = TypeVar("D")

_LINK = re.compile(r"<([^>]*)>([^,<]*)")
_REL = re.compile(r';\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))', re.IGNORECASE)


def next_link(header: str | None) -> str | None:
    """The URL of the ``rel="next"`` link of a Link header (RFC 8288), if any."""
    for target, params in _LINK.findall(header or ""):
        rel = _REL.search(params)
        if rel is not None and "next" in (rel.group(1) or rel.group(2) or "").lower().split():
            return cast("str", target)
    return None


@dataclass(frozen=True)
class NextPage(Generic[T, D]):
    """One page of a read by cursor or Link header: its items, the whole answer (as the operation's method returns
    it), its metadata and the next page's cursor or URL (None on the last page)."""

    items: list[T]
    data: D
    meta: ResponseMeta
    next: str | None = None


@dataclass
class _Progress:
    deadline: Deadline | None
    next: str | None = None
    done: bool = False


class NextPagerBase(Generic[T, D]):
    """What a sync and an async pager by cursor or Link header share; iterating starts over from the first page."""

    def __init__(
        self,
        runtime: BaseRuntime,
        operation: OperationSpec,
        call_input: CallInput,
        data_kind: object = None,
        item_kind: object = None,
        *,
        deadline: float | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> None:
        names = operation.pagination
        if not isinstance(names, (CursorPaginationModel, LinkPaginationModel)):
            raise SdkError(f"{operation.operation_id}: the description states no cursor or Link header paging for it")
        if deadline is not None and not deadline > 0:
            raise SdkError(f"{operation.operation_id}: a deadline must be a positive number of seconds, got {deadline}")
        self._runtime = runtime
        self._operation = operation
        self._input = call_input
        self._names: CursorPaginationModel | LinkPaginationModel = names
        self._data_kind = data_kind
        self._item_kind = item_kind
        self._deadline = deadline
        self._headers = dict(extra_headers or {})

    def _begin(self) -> _Progress:
        return _Progress(None if self._deadline is None else Deadline(self._deadline))

    def _request(self, progress: _Progress) -> tuple[CallInput, str | None]:
        """The next page's input, and the URL to read it at (None: the operation's own)."""
        if progress.next is None:
            return self._input, None
        if isinstance(self._names, CursorPaginationModel):
            return replace(self._input, query={**self._input.query, self._names.cursor: progress.next}), None
        runtime = self._runtime
        base = operation_base_url(self._operation, runtime.base_url, runtime.base_url_given, None)
        url = urllib.parse.urljoin(base + "/", progress.next)
        if origin_of(url) != origin_of(base):
            scheme, host, port = origin_of(url)
            raise SdkError(
                f"{self._operation.operation_id}: the next link goes to {scheme}://{host}:{port}, not to the "
                "operation's origin; it is not followed"
            )
        # The link holds the whole query of the next page.
        return replace(self._input, query={}), url

    def _page(self, progress: _Progress, result: ApiResult[object]) -> NextPage[T, D]:
        data: object = result.data
        body = cast("dict[str, object]", data) if isinstance(data, dict) else {}
        field = self._names.items
        found: object = result.data if field is None else body.get(field)
        if not isinstance(found, list):
            where = "answer" if field is None else f"field {field!r}"
            raise SdkError(f"{self._operation.operation_id}: a page has no array {where}")
        raw = cast("list[object]", found)
        items: list[Any] = (
            raw
            if self._item_kind is None
            else self._runtime.answer(ApiResult(raw, result.meta), types.GenericAlias(list, (self._item_kind,)))
        )
        if isinstance(self._names, CursorPaginationModel):
            given = body.get(self._names.next)
        else:
            given = next_link(result.meta.headers.get("link"))
        following = given if isinstance(given, str) and given != "" else None
        progress.next = following
        progress.done = following is None or len(raw) == 0
        return NextPage(items, self._runtime.answer(result, self._data_kind), result.meta, following)


class SyncNextPager(NextPagerBase[T, D]):
    """The items of a read by cursor or Link header, page after page (``for item in pager``), or its pages
    (``pager.pages()``)."""

    def __init__(
        self,
        runtime: SyncRuntime,
        operation: OperationSpec,
        call_input: CallInput,
        data_kind: object = None,
        item_kind: object = None,
        *,
        deadline: float | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(
            runtime, operation, call_input, data_kind, item_kind, deadline=deadline, extra_headers=extra_headers
        )
        self._sync = runtime

    def pages(self) -> Iterator[NextPage[T, D]]:
        progress = self._begin()
        while not progress.done:
            call_input, url = self._request(progress)
            result = self._sync.call_at(self._operation, call_input, url, self._headers, progress.deadline)
            yield self._page(progress, result)

    def __iter__(self) -> Iterator[T]:
        for page in self.pages():
            yield from page.items


class AsyncNextPager(NextPagerBase[T, D]):
    """The asyncio twin of :class:`SyncNextPager`: ``async for item in pager``, ``async for page in pager.pages()``."""

    def __init__(
        self,
        runtime: AsyncRuntime,
        operation: OperationSpec,
        call_input: CallInput,
        data_kind: object = None,
        item_kind: object = None,
        *,
        deadline: float | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(
            runtime, operation, call_input, data_kind, item_kind, deadline=deadline, extra_headers=extra_headers
        )
        self._async = runtime

    async def pages(self) -> AsyncIterator[NextPage[T, D]]:
        progress = self._begin()
        while not progress.done:
            call_input, url = self._request(progress)
            result = await self._async.call_at(self._operation, call_input, url, self._headers, progress.deadline)
            yield self._page(progress, result)

    async def __aiter__(self) -> AsyncIterator[T]:
        async for page in self.pages():
            for item in page.items:
                yield item
