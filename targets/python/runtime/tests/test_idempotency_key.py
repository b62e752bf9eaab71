"""Idempotency keys, sync and async: an operation that takes one sends a key on every call (the caller's
``idempotency_key``, else a random UUID v4 made for the call), the same one on each retry, so that even a billed
write is sent again after a 500; an operation without one refuses the option before sending."""

from __future__ import annotations

import re

import httpx
import pytest

from paperoffice_runtime import CallInput, MayHaveBeenProcessedError, OperationSpec, SdkError, is_resendable

from .conftest import CREATE_THING, MakeRuntime, Recorder, json_answer, settle

KEYED = OperationSpec(
    "createCharge",
    "POST",
    "/charges",
    request_media_type="application/json",
    idempotent=False,
    billed=True,
    idempotency_key="Idempotency-Key",
    security=(("bearerAuth",),),
)
UUID_V4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


def ok(request: httpx.Request) -> httpx.Response:
    return json_answer(200, {"status": "success"})


def failed(request: httpx.Request) -> httpx.Response:
    return json_answer(500, {"status": "error", "code": "INTERNAL_ERROR", "message": "boom"})


def busy(request: httpx.Request) -> httpx.Response:
    return json_answer(503, {"status": "error", "code": "SERVICE_UNAVAILABLE", "message": "busy"})


def keys(recorder: Recorder) -> list[str | None]:
    return [r.headers.get("Idempotency-Key") for r in recorder.requests]


def test_one_key_per_call_sent_on_every_retry_and_a_new_one_next_call(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([failed, busy, ok, ok])
    runtime = make_runtime(recorder)
    settle(runtime.call(KEYED, CallInput(body={"amount": 1})))
    first = keys(recorder)
    assert len(first) == 3 and first[0] is not None and UUID_V4.match(first[0])
    assert first == [first[0]] * 3
    settle(runtime.call(KEYED, CallInput(body={"amount": 1})))
    following = keys(recorder)[3]
    assert following is not None and UUID_V4.match(following) and following != first[0]


def test_the_callers_key_is_sent_as_given(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([failed, ok])
    runtime = make_runtime(recorder, headers={"Idempotency-Key": "client-wide"})
    settle(runtime.call(KEYED, CallInput(), idempotency_key="order-42"))
    assert keys(recorder) == ["order-42", "order-42"]
    assert recorder.requests[0].headers.get_list("Idempotency-Key") == ["order-42"]
    # A header of that name among the call's own is the caller's key too.
    settle(runtime.call(KEYED, CallInput(), extra_headers={"idempotency-key": "from-header"}))
    assert keys(recorder)[2] == "from-header"


def test_an_operation_without_a_key_refuses_the_option(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([ok])
    runtime = make_runtime(recorder)
    with pytest.raises(SdkError, match="thingCreate: the operation takes no idempotency key"):
        settle(runtime.call(CREATE_THING, CallInput(body={"name": "a"}), idempotency_key="k"))
    with pytest.raises(SdkError, match="createCharge: idempotency_key is empty"):
        settle(runtime.call(KEYED, CallInput(), idempotency_key=""))
    assert recorder.requests == []
    # Without the option it sends no key header, and its 500 is not sent again.
    failing = Recorder([failed, ok])
    with pytest.raises(MayHaveBeenProcessedError):
        settle(make_runtime(failing).call(CREATE_THING, CallInput(body={"name": "a"})))
    assert keys(failing) == [None]


def test_a_key_makes_an_operation_resendable_but_never_a_job_submission() -> None:
    assert is_resendable(KEYED)
    assert not is_resendable(OperationSpec("charge", "POST", "/c", idempotent=False, billed=True))
    assert not is_resendable(OperationSpec("submit", "POST", "/j", idempotency_key="Idempotency-Key", job="submit"))
