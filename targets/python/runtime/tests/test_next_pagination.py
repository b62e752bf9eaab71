"""Reads by cursor and by Link header, sync and async: three pages to the end, where paging stops, the call's
headers and credentials on every page, one deadline for the whole iteration, and a next link to another origin
refused before anything is sent there."""

from __future__ import annotations

import asyncio
import time
import urllib.parse
from typing import Any, Union

import httpx
import pytest

from paperoffice_runtime import (
    AsyncNextPager,
    AsyncRuntime,
    CallInput,
    CursorPaginationModel,
    DeadlineExceededError,
    LinkPaginationModel,
    NextPage,
    OperationSpec,
    SdkError,
    SyncNextPager,
    SyncRuntime,
    next_link,
)

from .conftest import BASE, MakeRuntime, Recorder, json_answer

CURSOR = OperationSpec(
    "listEntries", "GET", "/entries", pagination=CursorPaginationModel("cursor", "next_cursor", "entries")
)
LINK = OperationSpec("listThings", "GET", "/things", pagination=LinkPaginationModel())

Pager = Union[SyncNextPager[Any, Any], AsyncNextPager[Any, Any]]


def pager(runtime: SyncRuntime | AsyncRuntime, operation: OperationSpec, **kw: Any) -> Pager:
    if isinstance(runtime, SyncRuntime):
        return SyncNextPager[Any, Any](runtime, operation, CallInput(query={"kind": "x"}), **kw)
    return AsyncNextPager[Any, Any](runtime, operation, CallInput(query={"kind": "x"}), **kw)


def pages_of(paged: Pager) -> list[NextPage[Any, Any]]:
    if isinstance(paged, SyncNextPager):
        return list(paged.pages())
    async_paged = paged

    async def collect() -> list[NextPage[Any, Any]]:
        return [p async for p in async_paged.pages()]

    return asyncio.run(collect())


def items_of(paged: Pager) -> list[Any]:
    return [item for p in pages_of(paged) for item in p.items]


def query(request: httpx.Request) -> dict[str, str]:
    return dict(urllib.parse.parse_qsl(request.url.query.decode()))


def cursor_page(items: list[object], following: object, delay: float = 0) -> Any:
    def answer(request: httpx.Request) -> httpx.Response:
        if delay:
            time.sleep(delay)
        return json_answer(200, {"entries": items, "next_cursor": following})

    return answer


def link_page(items: list[object], link: str | None) -> Any:
    def answer(request: httpx.Request) -> httpx.Response:
        return json_answer(200, items, {} if link is None else {"Link": link})

    return answer


def test_cursor_three_pages_to_the_end_with_the_call_headers(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([cursor_page(["a", "b"], "c2"), cursor_page(["c"], "c3"), cursor_page(["d"], None)])
    paged = pager(make_runtime(recorder), CURSOR, extra_headers={"X-Trace": "t1"})
    pages = pages_of(paged)
    assert [p.items for p in pages] == [["a", "b"], ["c"], ["d"]]
    assert [p.next for p in pages] == ["c2", "c3", None]
    assert [query(r) for r in recorder.requests] == [
        {"kind": "x"},
        {"kind": "x", "cursor": "c2"},
        {"kind": "x", "cursor": "c3"},
    ]
    assert [r.headers.get("X-Trace") for r in recorder.requests] == ["t1", "t1", "t1"]


def test_cursor_stops_on_an_empty_page_or_an_empty_cursor(make_runtime: MakeRuntime) -> None:
    empty = Recorder([cursor_page([], "again"), cursor_page(["past"], None)])
    assert items_of(pager(make_runtime(empty), CURSOR)) == []
    assert len(empty.requests) == 1
    blank = Recorder([cursor_page(["a"], ""), cursor_page(["past"], None)])
    assert items_of(pager(make_runtime(blank), CURSOR)) == ["a"]
    assert len(blank.requests) == 1


def test_link_three_pages_below_the_base_address_with_credentials(make_runtime: MakeRuntime) -> None:
    recorder = Recorder(
        [
            link_page([1, 2], f'<{BASE}/things?page=2>; rel="next", <{BASE}/things?page=3>; rel="last"'),
            link_page([3], '</v1/things?page=3>; rel="next"'),
            link_page([4], None),
        ]
    )
    paged = pager(make_runtime(recorder), LINK, extra_headers={"X-Trace": "t2"})
    assert items_of(paged) == [1, 2, 3, 4]
    assert [str(r.url) for r in recorder.requests] == [
        f"{BASE}/things?kind=x",
        f"{BASE}/things?page=2",
        f"{BASE}/things?page=3",
    ]
    assert all(r.headers.get("Authorization", "").startswith("Bearer ") for r in recorder.requests)
    assert [r.headers.get("X-Trace") for r in recorder.requests] == ["t2", "t2", "t2"]


def test_a_next_link_to_another_origin_is_refused_before_sending(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([link_page([1], '<https://elsewhere.example/things?page=2>; rel="next"'), link_page([2], None)])
    with pytest.raises(SdkError, match=r"listThings: the next link goes to https://elsewhere.example:443, not to"):
        items_of(pager(make_runtime(recorder), LINK))
    assert [r.url.host for r in recorder.requests] == ["api.example.test"]


def test_the_deadline_bounds_the_whole_iteration(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([cursor_page(["a"], "more", delay=0.15)])
    paged = pager(make_runtime(recorder), CURSOR, deadline=0.4)
    with pytest.raises(DeadlineExceededError):
        items_of(paged)
    assert 2 <= len(recorder.requests) <= 3


def test_a_page_without_its_items_array_is_an_error_that_names_it(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda request: json_answer(200, {"rows": []})])
    with pytest.raises(SdkError, match=r"listEntries: a page has no array field 'entries'"):
        items_of(pager(make_runtime(recorder), CURSOR))


@pytest.mark.parametrize(
    ("header", "want"),
    [
        ('<https://a.example/x?page=2>; rel="next"', "https://a.example/x?page=2"),
        (
            '<https://a.example/x?page=1>; rel="prev", <https://a.example/x?page=3>; rel=next',
            "https://a.example/x?page=3",
        ),
        ('<https://a.example/x?page=1>; rel="first"', None),
        (None, None),
    ],
)
def test_next_link(header: str | None, want: str | None) -> None:
    assert next_link(header) == want
