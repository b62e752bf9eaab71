"""Path parameters that would make the request reach another path (empty, "." or "..", as the URL carries them) are
refused before anything is sent: operations, job polls and downloads by token, sync and async."""

from __future__ import annotations

import httpx
import pytest

from paperoffice_runtime import CallInput, SdkError
from paperoffice_runtime.encoding import fill_path

from .conftest import GET_THING, MakeRuntime, Recorder, json_answer, settle

REFUSED = 'thingGet: path parameter id must not be empty, "." or ".."'


def answer(request: httpx.Request) -> httpx.Response:
    return json_answer(200, {"status": "success", "job_id": "j", "job_status": "completed", "result": {}})


@pytest.mark.parametrize("value", ["", ".", ".."])
def test_fill_path_refuses_empty_and_dot_segments(value: str) -> None:
    with pytest.raises(SdkError) as caught:
        fill_path("/things/{id}", {"id": value}, "thingGet")
    assert str(caught.value) == REFUSED


@pytest.mark.parametrize(
    ("value", "sent"),
    [
        ("...", "..."),
        (".a", ".a"),
        ("%2e%2e", "%252e%252e"),
        ("%2E", "%252E"),
        ("../x", "..%2Fx"),
        (0, "0"),
        (False, "false"),
        ([".", "."], ".%2C."),
    ],
)
def test_fill_path_lets_other_values_through_encoded(value: object, sent: str) -> None:
    assert fill_path("/things/{id}", {"id": value}, "thingGet") == f"/things/{sent}"


def test_fill_path_names_the_parameter_and_leaves_the_value_out() -> None:
    with pytest.raises(SdkError) as caught:
        fill_path("/a/{x}/{token}", {"x": "1", "token": ".."}, "getFile")
    assert str(caught.value) == 'getFile: path parameter token must not be empty, "." or ".."'


@pytest.mark.parametrize("value", ["", ".", ".."])
def test_an_operation_sends_nothing(make_runtime: MakeRuntime, value: str) -> None:
    recorder = Recorder([answer])
    runtime = make_runtime(recorder)
    with pytest.raises(SdkError) as caught:
        settle(runtime.call(GET_THING, CallInput(path={"id": value})))
    assert str(caught.value) == REFUSED
    assert recorder.requests == []


def test_waiting_on_job_dotdot_sends_no_poll(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([answer])
    with pytest.raises(SdkError, match=r'^jobGet: path parameter job_id must not be empty, "\." or "\.\."$'):
        settle(make_runtime(recorder).wait_job("..", deadline=2))
    assert recorder.requests == []


def test_a_download_by_token_dot_sends_nothing(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([answer])
    with pytest.raises(SdkError, match=r'^fileDownload: path parameter token must not be empty, "\." or "\.\."$'):
        settle(make_runtime(recorder).download("."))
    assert recorder.requests == []
