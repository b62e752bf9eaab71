"""Paged reads, sync and async: items across pages in order, where paging stops, pages with their metadata, item
types, the names from the spec, refusals before sending, and one deadline for the whole iteration."""

from __future__ import annotations

import asyncio
import time
import urllib.parse
from typing import Any, Union

import httpx
import pytest

from paperoffice_runtime import (
    AsyncPager,
    AsyncRuntime,
    BaseModel,
    CallInput,
    DeadlineExceededError,
    OperationSpec,
    Page,
    PaginationModel,
    SdkError,
    SyncPager,
    SyncRuntime,
)

from .conftest import MakeRuntime, Recorder, json_answer

LIST = OperationSpec(
    "listEntries",
    "GET",
    "/entries",
    pagination=PaginationModel("page_size", "from", "entries", total="count"),
)


class Entry(BaseModel):
    id: str


def query(request: httpx.Request) -> dict[str, str]:
    return dict(urllib.parse.parse_qsl(request.url.query.decode()))


def page(*items: object, count: int | None = None, delay: float = 0) -> Any:
    def answer(request: httpx.Request) -> httpx.Response:
        if delay:
            time.sleep(delay)
        body: dict[str, object] = {"status": "success", "entries": list(items)}
        if count is not None:
            body["count"] = count
        return json_answer(200, body)

    return answer


Pager = Union[SyncPager[Any, Any], AsyncPager[Any, Any]]


def pager(runtime: SyncRuntime | AsyncRuntime, call_input: CallInput, item_kind: object = None, **kw: Any) -> Pager:
    if isinstance(runtime, SyncRuntime):
        return SyncPager[Any, Any](runtime, LIST, call_input, None, item_kind, **kw)
    return AsyncPager[Any, Any](runtime, LIST, call_input, None, item_kind, **kw)


def items_of(paged: Pager) -> list[Any]:
    if isinstance(paged, SyncPager):
        return list(paged)
    async_paged = paged

    async def collect() -> list[Any]:
        return [item async for item in async_paged]

    return asyncio.run(collect())


def pages_of(paged: Pager) -> list[Page[Any, Any]]:
    if isinstance(paged, SyncPager):
        return list(paged.pages())
    async_paged = paged

    async def collect() -> list[Page[Any, Any]]:
        return [p async for p in async_paged.pages()]

    return asyncio.run(collect())


def test_items_across_three_pages_in_order_until_the_total(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([page("a", "b", count=6), page("c", "d", count=6), page("e", "f", count=6), page("past")])
    runtime = make_runtime(recorder)
    assert items_of(pager(runtime, CallInput(query={"page_size": 2, "kind": "x"}))) == ["a", "b", "c", "d", "e", "f"]
    assert [query(r) for r in recorder.requests] == [
        {"page_size": "2", "kind": "x", "from": "0"},
        {"page_size": "2", "kind": "x", "from": "2"},
        {"page_size": "2", "kind": "x", "from": "4"},
    ]


def test_stops_at_a_short_or_an_empty_page_and_starts_at_the_given_offset(make_runtime: MakeRuntime) -> None:
    short = Recorder([page("a", "b"), page("c"), page("past")])
    assert items_of(pager(make_runtime(short), CallInput(query={"page_size": 2}))) == ["a", "b", "c"]
    assert len(short.requests) == 2
    empty = Recorder([page("a", "b"), page(), page("past")])
    assert items_of(pager(make_runtime(empty), CallInput(query={"page_size": 2, "from": 10}))) == ["a", "b"]
    assert [query(r)["from"] for r in empty.requests] == ["10", "12"]


def test_pages_carry_items_answer_metadata_offset_and_total(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([page({"id": "a"}, {"id": "b"}, count=3), page({"id": "c"}, count=3)])
    pages = pages_of(pager(make_runtime(recorder), CallInput(query={"page_size": 2}), Entry))
    assert [[e.id for e in p.items] for p in pages] == [["a", "b"], ["c"]]
    assert all(isinstance(e, Entry) for p in pages for e in p.items)
    assert [(p.offset, p.limit, p.total, p.meta.status) for p in pages] == [(0, 2, 3.0, 200), (2, 2, 3.0, 200)]
    assert pages[1].data == {"status": "success", "entries": [{"id": "c"}], "count": 3}


def test_refuses_before_sending(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([page("a")])
    runtime = make_runtime(recorder)
    with pytest.raises(SdkError, match=r"listEntries: the page size \(page_size\) must be a positive integer, got 0"):
        pager(runtime, CallInput(query={"page_size": 0}))
    unpaged = OperationSpec("getThing", "GET", "/thing")
    with pytest.raises(SdkError, match=r"getThing: the description states no paging for it"):
        SyncPager[Any, Any](runtime, unpaged, CallInput())  # type: ignore[arg-type]
    assert recorder.requests == []


def test_a_page_without_the_items_array_is_an_error_that_names_it(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda request: json_answer(200, {"status": "success", "rows": []})])
    with pytest.raises(SdkError, match=r"listEntries: the page at from=0 has no array field 'entries'"):
        items_of(pager(make_runtime(recorder), CallInput(query={"page_size": 2})))


def test_the_deadline_bounds_the_whole_iteration(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([page("a", "b", delay=0.15), page("c", "d", delay=0.15), page("e", "f", delay=0.15), page("g")])
    paged = pager(make_runtime(recorder), CallInput(query={"page_size": 2}), deadline=0.4)
    seen: list[Any] = []

    async def collect_async(async_paged: AsyncPager[Any, Any]) -> None:
        async for item in async_paged:
            seen.append(item)

    with pytest.raises(DeadlineExceededError) as raised:
        if isinstance(paged, SyncPager):
            seen.extend(item for item in paged)
        else:
            asyncio.run(collect_async(paged))
    assert raised.value.deadline == pytest.approx(0.4)
    assert seen[:4] == ["a", "b", "c", "d"]
    assert len(recorder.requests) <= 3
