"""Iteration over reads that page by a size and an offset and may report a total.

Every name (the two query parameters, the items and total fields) comes from the operation's spec, which the
description states (``x-paperoffice-pagination``). :class:`SyncPager` and :class:`AsyncPager` share one base that
holds what an iteration needs besides sending: where the next page starts, what a page holds and when to stop.

A deadline given (``deadline`` seconds) bounds the whole iteration: every page shares it, and no page is asked for
once it has passed. Without one, each page is one call with the runtime's own deadline.
"""

from __future__ import annotations

import math
import types
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from .base import ApiResult
from .deadline import Deadline
from .encoding import CallInput
from .envelope import ResponseMeta
from .errors import SdkError
from .model import OperationSpec, PaginationModel
from .options import RequestOptions

if TYPE_CHECKING:
    from .async_runtime import AsyncRuntime
    from .base import BaseRuntime
    from .sync_runtime import SyncRuntime

T = TypeVar("T")
D = TypeVar("D")

DEFAULT_PAGE_SIZE = 100
"""Page size when the call's parameters do not set one."""


@dataclass(frozen=True)
class Page(Generic[T, D]):
    """One page of a paged read: its items, the whole answer (as the operation's method returns it) and its
    metadata, with the page size and offset it was asked for with and the answer's total when it carries one."""

    items: list[T]
    data: D
    meta: ResponseMeta
    limit: int
    offset: int
    total: float | None = None


@dataclass
class _Paging:
    """One iteration's progress: the next page's offset, the whole iteration's deadline, and whether it is over."""

    offset: int
    deadline: Deadline | None
    done: bool = field(default=False)


class PagerBase(Generic[T, D]):
    """What a sync and an async pager share: the page requests and reading a page. Iterating starts over from the
    first page each time."""

    def __init__(
        self,
        runtime: BaseRuntime,
        operation: OperationSpec,
        call_input: CallInput,
        data_kind: object = None,
        item_kind: object = None,
        *,
        deadline: float | None = None,
    ) -> None:
        names = operation.pagination
        if not isinstance(names, PaginationModel):
            raise SdkError(
                f"{operation.operation_id}: the description states no paging for it (x-paperoffice-pagination)"
            )
        limit = _number(call_input.query.get(names.limit), DEFAULT_PAGE_SIZE)
        if not (float(limit).is_integer() and limit > 0):
            raise SdkError(
                f"{operation.operation_id}: the page size ({names.limit}) must be a positive integer, got {limit}"
            )
        if deadline is not None and not deadline > 0:
            raise SdkError(f"{operation.operation_id}: a deadline must be a positive number of seconds, got {deadline}")
        self._runtime = runtime
        self._operation = operation
        self._input = call_input
        self._names = names
        self._limit = int(limit)
        self._start = int(_number(call_input.query.get(names.offset), 0))
        self._data_kind = data_kind
        self._item_kind = item_kind
        self._deadline = deadline

    def _begin(self) -> _Paging:
        deadline = None if self._deadline is None else Deadline(self._deadline)
        return _Paging(self._start, deadline)

    def _options(self, paging: _Paging) -> RequestOptions:
        """The next page's call options: the iteration's own Deadline, shared by its pages (the runtime's call takes
        a Deadline where RequestOptions, for callers, says seconds), else none (the runtime's own per call)."""
        return {} if paging.deadline is None else cast("RequestOptions", {"deadline": paging.deadline})

    def _request(self, paging: _Paging) -> CallInput:
        query = {**self._input.query, self._names.limit: self._limit, self._names.offset: paging.offset}
        return replace(self._input, query=query)

    def _page(self, paging: _Paging, result: ApiResult[object]) -> Page[T, D]:
        """The page of an answer; marks the iteration done after a short or empty page, or at the total."""
        data: object = result.data
        body = cast("dict[str, object]", data) if isinstance(data, dict) else {}
        found = body.get(self._names.items)
        if not isinstance(found, list):
            raise SdkError(
                f"{self._operation.operation_id}: the page at {self._names.offset}={paging.offset} has no array field "
                f"{self._names.items!r}"
            )
        raw = cast("list[object]", found)
        items: list[Any] = (
            raw
            if self._item_kind is None
            else self._runtime.answer(ApiResult(raw, result.meta), types.GenericAlias(list, (self._item_kind,)))
        )
        reported = None if self._names.total is None else body.get(self._names.total)
        total = float(reported) if isinstance(reported, (int, float)) and not isinstance(reported, bool) else None
        page: Page[T, D] = Page(
            items, self._runtime.answer(result, self._data_kind), result.meta, self._limit, paging.offset, total
        )
        paging.offset += len(raw)
        if len(raw) == 0 or len(raw) < self._limit or (total is not None and paging.offset >= total):
            paging.done = True
        return page


class SyncPager(PagerBase[T, D]):
    """The items of a paged read, page after page (``for item in pager``), or its pages (``pager.pages()``)."""

    def __init__(
        self,
        runtime: SyncRuntime,
        operation: OperationSpec,
        call_input: CallInput,
        data_kind: object = None,
        item_kind: object = None,
        *,
        deadline: float | None = None,
    ) -> None:
        super().__init__(runtime, operation, call_input, data_kind, item_kind, deadline=deadline)
        self._sync = runtime

    def pages(self) -> Iterator[Page[T, D]]:
        paging = self._begin()
        while not paging.done:
            result = self._sync.call(self._operation, self._request(paging), **self._options(paging))
            yield self._page(paging, result)

    def __iter__(self) -> Iterator[T]:
        for page in self.pages():
            yield from page.items


class AsyncPager(PagerBase[T, D]):
    """The asyncio twin of :class:`SyncPager`: ``async for item in pager``, ``async for page in pager.pages()``."""

    def __init__(
        self,
        runtime: AsyncRuntime,
        operation: OperationSpec,
        call_input: CallInput,
        data_kind: object = None,
        item_kind: object = None,
        *,
        deadline: float | None = None,
    ) -> None:
        super().__init__(runtime, operation, call_input, data_kind, item_kind, deadline=deadline)
        self._async = runtime

    async def pages(self) -> AsyncIterator[Page[T, D]]:
        paging = self._begin()
        while not paging.done:
            result = await self._async.call(self._operation, self._request(paging), **self._options(paging))
            yield self._page(paging, result)

    async def __aiter__(self) -> AsyncIterator[T]:
        async for page in self.pages():
            for item in page.items:
                yield item


def _number(value: object, fallback: float) -> float:
    if isinstance(value, bool):
        return fallback
    if isinstance(value, (int, float)):
        return value if math.isfinite(value) else fallback
    if isinstance(value, str) and value.strip() != "":
        try:
            parsed = float(value)
        except ValueError:
            return fallback
        return parsed if math.isfinite(parsed) else fallback
    return fallback
