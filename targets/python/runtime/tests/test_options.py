"""The options of one call (extra_headers, extra_query, extra_body, timeout, max_retries, deadline), copies of a
runtime with other defaults (with_options), and raw answers with their metadata (raw_response), sync and async."""

from __future__ import annotations

import asyncio
import json
import urllib.parse

import httpx
import pytest

from paperoffice_runtime import (
    ApiResult,
    AsyncRuntime,
    CallInput,
    OperationSpec,
    RawResponse,
    RetryPolicy,
    SdkError,
    ServiceError,
    SyncRuntime,
    async_raw_response,
    raw_response,
)

from .conftest import BASE, CREATE_THING, FAST, GET_THING, MakeRuntime, Recorder, json_answer, make_model, settle

FORM = OperationSpec("upload", "POST", "/upload", "multipart/form-data", security=((),))


def ok(request: httpx.Request) -> httpx.Response:
    return json_answer(200, {"status": "success"}, {"X-Request-Id": "req-5"})


def busy(request: httpx.Request) -> httpx.Response:
    return json_answer(503, {"status": "error", "code": "BUSY", "message": "busy"}, {"X-Request-Id": "req-4"})


def query_of(request: httpx.Request) -> dict[str, list[str]]:
    return urllib.parse.parse_qs(urllib.parse.urlsplit(str(request.url)).query)


def test_extra_query_is_added_and_replaces_a_parameter_of_its_name(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([ok])
    call_input = CallInput(path={"id": "1"}, query={"page": 2, "kind": "a"})
    settle(make_runtime(recorder).call(GET_THING, call_input, extra_query={"kind": "b", "trace": "t-1"}))
    assert query_of(recorder.requests[0]) == {"page": ["2"], "kind": ["b"], "trace": ["t-1"]}


def test_extra_headers_reach_every_attempt(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([busy, ok])
    settle(make_runtime(recorder).call(GET_THING, CallInput(path={"id": "1"}), extra_headers={"X-Trace": "x-1"}))
    assert [r.headers["X-Trace"] for r in recorder.requests] == ["x-1", "x-1"]


def test_extra_body_is_laid_over_a_json_body_and_a_form(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([ok])
    runtime = make_runtime(recorder)
    settle(runtime.call(CREATE_THING, CallInput(body={"name": "a", "note": "own"}), extra_body={"note": "extra"}))
    assert json.loads(recorder.requests[0].content) == {"name": "a", "note": "extra"}
    settle(runtime.call(CREATE_THING, None, extra_body={"only": True}))
    assert json.loads(recorder.requests[1].content) == {"only": True}
    settle(runtime.call(FORM, CallInput(body={"a": "1"}), extra_body={"b": "2"}))
    assert b'name="a"' in recorder.requests[2].content and b'name="b"' in recorder.requests[2].content


def test_extra_body_over_a_body_that_is_no_mapping_is_refused_before_sending(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([ok])
    with pytest.raises(SdkError, match="thingCreate: extra_body needs a body that is a mapping"):
        settle(make_runtime(recorder).call(CREATE_THING, CallInput(body=[1, 2]), extra_body={"a": 1}))
    assert recorder.requests == []


def test_max_retries_of_one_call_win_over_the_clients(make_runtime: MakeRuntime) -> None:
    none = Recorder([busy, ok])
    with pytest.raises(ServiceError):
        settle(make_runtime(none).call(GET_THING, CallInput(path={"id": "1"}), max_retries=0))
    assert len(none.requests) == 1
    more = Recorder([busy])
    runtime = make_runtime(more, retry=RetryPolicy(0, 0.001, 0.01, 0.05))
    with pytest.raises(ServiceError):
        settle(runtime.call(GET_THING, CallInput(path={"id": "1"}), max_retries=2))
    assert len(more.requests) == 3


def test_timeout_of_one_call_bounds_each_socket_operation(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([ok])
    settle(make_runtime(recorder).call(GET_THING, CallInput(path={"id": "1"}), timeout=1.5))
    assert recorder.requests[0].extensions["timeout"]["read"] == pytest.approx(1.5)


def test_bad_timeout_and_deadline_name_the_operation(make_runtime: MakeRuntime) -> None:
    runtime = make_runtime(Recorder([ok]))
    with pytest.raises(ValueError, match="thingGet: timeout must be a positive"):
        settle(runtime.call(GET_THING, CallInput(path={"id": "1"}), timeout=0))
    with pytest.raises(ValueError, match="thingGet: deadline must be a positive"):
        settle(runtime.call(GET_THING, CallInput(path={"id": "1"}), deadline=-1))


def test_a_copy_merges_headers_replaces_retries_and_shares_the_pool() -> None:
    recorder = Recorder([busy])
    client = httpx.Client(transport=httpx.MockTransport(recorder))
    runtime = SyncRuntime(
        make_model(), http_client=client, base_url=BASE, token="t", headers={"X-Team": "a"}, retry=FAST, environ={}
    )
    copy = runtime.with_options(headers={"x-team": "b", "X-Copy": "1"}, max_retries=0)
    with pytest.raises(ServiceError):
        copy.call(GET_THING, CallInput(path={"id": "1"}))
    assert len(recorder.requests) == 1
    assert recorder.requests[0].headers["X-Team"] == "b" and recorder.requests[0].headers["X-Copy"] == "1"
    copy.close()
    assert not client.is_closed
    with pytest.raises(ServiceError):
        runtime.call(GET_THING, CallInput(path={"id": "1"}))
    assert len(recorder.requests) == 1 + 1 + FAST.max_retries
    assert recorder.requests[-1].headers["X-Team"] == "a" and "X-Copy" not in recorder.requests[-1].headers
    client.close()


def test_an_async_copy_shares_the_pool() -> None:
    recorder = Recorder([ok])
    client = httpx.AsyncClient(transport=httpx.MockTransport(recorder))
    runtime = AsyncRuntime(make_model(), http_client=client, base_url=BASE, token="t", environ={})
    copy = runtime.with_options(headers={"X-Copy": "1"})

    async def run() -> None:
        await copy.call(GET_THING, CallInput(path={"id": "1"}))
        await copy.aclose()
        assert not client.is_closed
        await client.aclose()

    asyncio.run(run())
    assert recorder.requests[0].headers["X-Copy"] == "1"


def test_a_raw_response_holds_the_answer_of_the_result() -> None:
    recorder = Recorder([busy, ok])
    runtime = SyncRuntime(
        make_model(), http_client=httpx.Client(transport=httpx.MockTransport(recorder)), base_url=BASE, token="t"
    )

    def get(thing: str) -> ApiResult[object]:
        return runtime.call(GET_THING, CallInput(path={"id": thing}), response_type=None)

    raw = raw_response(get)("1")
    assert isinstance(raw, RawResponse)
    assert (raw.status_code, raw.request_id, raw.headers["x-request-id"]) == (200, "req-5", "req-5")
    assert raw.meta.request_count == 2 and raw.http_response is not None
    assert json.loads(raw.content) == {"status": "success"} and raw.parse().data == {"status": "success"}


def test_an_async_raw_response_holds_the_answer_of_the_result() -> None:
    recorder = Recorder([ok])
    client = httpx.AsyncClient(transport=httpx.MockTransport(recorder))
    runtime = AsyncRuntime(make_model(), http_client=client, base_url=BASE, token="t")

    async def get(thing: str) -> ApiResult[object]:
        return await runtime.call(GET_THING, CallInput(path={"id": thing}), response_type=None)

    raw = asyncio.run(async_raw_response(get)("1"))
    assert (raw.status_code, raw.request_id) == (200, "req-5")


def nothing() -> None:
    return None


def test_a_raw_response_names_the_method() -> None:
    with pytest.raises(SdkError, match=r"^nothing: the call sent no request"):
        raw_response(nothing)()
