"""Base address rules, pacing, and a token provider asked again after a 401."""

from __future__ import annotations

import time

import httpx
import pytest

from paperoffice_runtime import (
    CallInput,
    ConventionsModel,
    EnvelopeModel,
    SdkError,
    ServerModel,
    ServerVariable,
    ServiceError,
    SyncRuntime,
)

from .conftest import GET_THING, MakeRuntime, Recorder, json_answer, make_model, settle


def base_url_of(**options: object) -> str:
    runtime = SyncRuntime(make_model(conventions=ConventionsModel(base_path_suffix="/v1")), environ={}, **options)  # type: ignore[arg-type]
    runtime.close()
    return runtime.base_url


def test_base_url_rules() -> None:
    assert base_url_of() == "https://api.example.test/v1"
    assert base_url_of(server_variables={"host": "eu.example.test"}) == "https://eu.example.test/v1"
    assert base_url_of(base_url="http://127.0.0.1:8080/v1/") == "http://127.0.0.1:8080/v1"
    with pytest.raises(SdkError, match="base-path rule"):
        base_url_of(base_url="https://api.example.test/v2")
    with pytest.raises(SdkError, match="without query"):
        base_url_of(base_url="https://api.example.test/v1?x=1")
    with pytest.raises(SdkError, match="absolute http"):
        base_url_of(base_url="ftp://api.example.test/v1")
    with pytest.raises(SdkError, match="has host"):
        base_url_of(server_variables={"region": "eu"})


def test_server_variable_enum_and_unfilled_variables() -> None:
    model = make_model(
        servers=(
            ServerModel("https://{region}.example.test/{version}", {"region": ServerVariable("eu", ("eu", "us"))}),
        )
    )
    with pytest.raises(SdkError, match="must be one of eu, us"):
        SyncRuntime(model, environ={}, server_variables={"region": "mars"})
    with pytest.raises(SdkError, match="unfilled server variable"):
        SyncRuntime(model, environ={})


def test_pacing_waits_as_the_envelope_asks(make_runtime: MakeRuntime) -> None:
    envelope = EnvelopeModel("status", "success", "error", "code", "message", next_request_seconds=("pacing", "wait"))
    model = make_model(conventions=ConventionsModel(envelope=envelope))
    recorder = Recorder([lambda r: json_answer(200, {"status": "success", "pacing": {"wait": 0.4}})])
    runtime = make_runtime(recorder, model, pacing=True)
    settle(runtime.call(GET_THING, CallInput(path={"id": "1"})))
    started = time.monotonic()
    settle(runtime.call(GET_THING, CallInput(path={"id": "1"})))
    assert time.monotonic() - started >= 0.35
    with pytest.raises(SdkError, match="asked to wait longer"):
        settle(runtime.call(GET_THING, CallInput(path={"id": "1"}), deadline=0.1))
    assert len(recorder.requests) == 2


def test_token_provider_is_asked_again_once_after_a_401(make_runtime: MakeRuntime) -> None:
    issued: list[str] = []

    def provider() -> str:
        issued.append(f"token-{len(issued) + 1}")
        return issued[-1]

    refused = {"status": "error", "code": "TOKEN_INVALID", "message": "expired"}
    recorder = Recorder([lambda r: json_answer(401, refused), lambda r: json_answer(200, {"status": "success"})])
    settle(make_runtime(recorder, token=provider).call(GET_THING, CallInput(path={"id": "1"})))
    assert [r.headers["Authorization"] for r in recorder.requests] == ["Bearer token-1", "Bearer token-2"]
    always = Recorder([lambda r: json_answer(401, refused)])
    with pytest.raises(ServiceError):
        settle(make_runtime(always, token=provider).call(GET_THING, CallInput(path={"id": "1"})))
    assert len(always.requests) == 2


def test_a_fixed_token_is_not_sent_again_after_a_401(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: httpx.Response(401, json={"status": "error", "code": "X", "message": "no"})])
    with pytest.raises(ServiceError):
        settle(make_runtime(recorder).call(GET_THING, CallInput(path={"id": "1"})))
    assert len(recorder.requests) == 1
