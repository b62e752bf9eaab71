"""Credentials from the model's security schemes, per operation, and redaction in every error."""

from __future__ import annotations

import base64

import httpx
import pytest

from paperoffice_runtime import (
    APIConnectionError,
    BasicCredentials,
    CallInput,
    JobFailedError,
    MalformedResponseError,
    MayHaveBeenProcessedError,
    MissingCredentialsError,
    OperationSpec,
    Redactor,
    ServiceError,
    SyncRuntime,
    redact_secrets,
)

from .conftest import BASE, Handler, MakeRuntime, Recorder, json_answer, make_model, settle


def ok(request: httpx.Request) -> httpx.Response:
    return json_answer(200, {"status": "success"})


def op(*alternatives: tuple[str, ...]) -> OperationSpec:
    return OperationSpec("secured", "GET", "/secured", security=alternatives)


def one_request(make_runtime: MakeRuntime, operation: OperationSpec, **options: object) -> httpx.Request:
    recorder = Recorder([ok])
    settle(make_runtime(recorder, **options).call(operation))
    return recorder.requests[0]


def test_bearer_basic_and_api_keys(make_runtime: MakeRuntime) -> None:
    assert one_request(make_runtime, op(("oauth",)), token="t0ken-1").headers["Authorization"] == "Bearer t0ken-1"
    basic = one_request(make_runtime, op(("basicAuth",)), token=None, username="ann", password="pw:1")
    assert basic.headers["Authorization"] == "Basic " + base64.b64encode(b"ann:pw:1").decode()
    header = one_request(make_runtime, op(("headerKey",)), token=None, api_key="k-1")
    assert header.headers["X-Api-Key"] == "k-1" and "Authorization" not in header.headers
    query = one_request(make_runtime, op(("queryKey",)), token=None, api_key="k 2")
    assert query.url.params["api_key"] == "k 2"
    cookie = one_request(make_runtime, op(("cookieKey",)), token=None, api_key="k;3")
    assert cookie.headers["Cookie"] == "session=k%3B3"


def test_the_token_stands_in_for_an_api_key(make_runtime: MakeRuntime) -> None:
    assert one_request(make_runtime, op(("headerKey",)), token="tok-9").headers["X-Api-Key"] == "tok-9"


def test_credentials_by_scheme_name(make_runtime: MakeRuntime) -> None:
    request = one_request(
        make_runtime,
        op(("headerKey", "basicAuth")),
        token=None,
        credentials={"headerKey": "named-key", "basicAuth": BasicCredentials("u", "p")},
    )
    assert request.headers["X-Api-Key"] == "named-key"
    assert request.headers["Authorization"] == "Basic " + base64.b64encode(b"u:p").decode()


def test_token_provider_is_called_per_request(make_runtime: MakeRuntime) -> None:
    tokens = iter(["first-token-1", "second-token-2"])
    recorder = Recorder([ok])
    runtime = make_runtime(recorder, token=lambda: next(tokens))
    settle(runtime.call(op(("bearerAuth",))))
    settle(runtime.call(op(("bearerAuth",))))
    assert [r.headers["Authorization"] for r in recorder.requests] == ["Bearer first-token-1", "Bearer second-token-2"]


def test_alternatives_first_one_the_client_has(make_runtime: MakeRuntime) -> None:
    request = one_request(make_runtime, op(("basicAuth",), ("headerKey",)), token=None, api_key="k")
    assert request.headers["X-Api-Key"] == "k" and "Authorization" not in request.headers


def test_empty_security_sends_nothing(make_runtime: MakeRuntime) -> None:
    request = one_request(make_runtime, OperationSpec("open", "GET", "/open", security=()))
    assert "Authorization" not in request.headers


def test_optional_security_sends_what_the_client_has(make_runtime: MakeRuntime) -> None:
    assert "Authorization" in one_request(make_runtime, op(("bearerAuth",), ())).headers
    assert "Authorization" not in one_request(make_runtime, op(("bearerAuth",), ()), token=None).headers


def test_missing_credentials_name_the_schemes(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([ok])
    with pytest.raises(MissingCredentialsError) as caught:
        settle(make_runtime(recorder, token=None).call(op(("basicAuth",), ("headerKey", "queryKey"))))
    assert "basicAuth" in str(caught.value) and "headerKey" in str(caught.value)
    assert recorder.requests == []


def test_token_and_base_url_from_the_environment_variables_the_model_names() -> None:
    recorder = Recorder([ok])
    runtime = SyncRuntime(
        make_model(),
        http_client=httpx.Client(transport=httpx.MockTransport(recorder)),
        environ={"DOCS_TOKEN": "env-token-1", "DOCS_BASE_URL": "https://env.example.test/v2/"},
    )
    runtime.call(op(("bearerAuth",)))
    assert str(recorder.requests[0].url) == "https://env.example.test/v2/secured"
    assert recorder.requests[0].headers["Authorization"] == "Bearer env-token-1"
    default = SyncRuntime(make_model(), environ={}, server_variables={"host": "eu.example.test"})
    assert default.base_url == "https://eu.example.test/v1"
    default.close()


def test_redaction_rule() -> None:
    assert redact_secrets("no pet here", ["t", "pet"]) == "no [redacted] here"
    assert redact_secrets("petty", ["pet"]) == "petty"
    assert redact_secrets("keyABCDEFGHIJKLMNOP-glued", ["ABCDEFGHIJKLMNOP"]) == "key[redacted]-glued"
    assert redact_secrets("Authorization: Bearer abc.def-123", []) == "Authorization: Bearer [redacted]"
    assert redact_secrets("Bearer tokenless", []) == "Bearer tokenless"
    redactor = Redactor(["a b+c/d"])
    assert redactor.text("q=a+b%2Bc%2Fd and a%20b%2Bc%2Fd") == "q=[redacted] and [redacted]"


def test_brand_tokens_are_redacted(make_runtime: MakeRuntime) -> None:
    body = {
        "status": "error",
        "code": "TOKEN_INVALID",
        "message": "token po_pk_other999 and po_sk_live0123456789 refused",
    }
    recorder = Recorder([lambda r: json_answer(401, body)])
    with pytest.raises(ServiceError) as caught:
        settle(make_runtime(recorder).call(op(("bearerAuth",))))
    assert "po_pk_other999" not in str(caught.value) and "po_sk_live0123456789" not in repr(caught.value.body)


SECRET = "s3cr3t-key-value-42"


SECRET_ANSWERS: list[Handler] = [
    lambda r: json_answer(401, {"status": "error", "code": "A", "message": f"bad key {SECRET}"}),
    lambda r: httpx.Response(400, text=f"plain text {SECRET}"),
    lambda r: httpx.Response(200, text=f"<{SECRET}>", headers={"Content-Type": "application/json"}),
    lambda r: json_answer(502, {"status": "error", "code": "B", "message": f"{SECRET} upstream"}),
]


@pytest.mark.parametrize("answer", SECRET_ANSWERS)
def test_no_error_holds_a_credential_or_configured_secret(make_runtime: MakeRuntime, answer: Handler) -> None:
    recorder = Recorder([answer])
    runtime = make_runtime(recorder, api_key=SECRET, secrets=["configured-secret"])
    post = OperationSpec("write", "POST", "/write", "application/json", security=(("headerKey",),))
    with pytest.raises((ServiceError, MayHaveBeenProcessedError, MalformedResponseError)) as caught:
        settle(runtime.call(post, CallInput(body={})))
    seen: list[str] = []
    error: BaseException | None = caught.value
    while error is not None:
        seen.extend([str(error), repr(error), repr(getattr(error, "body", None))])
        error = error.__cause__
    assert SECRET not in " ".join(seen)


def test_connection_error_messages_are_redacted(make_runtime: MakeRuntime) -> None:
    def fail(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError(f"cannot reach {request.url}", request=request)

    runtime = make_runtime(Recorder([fail]), token=None, api_key="query-secret-777")
    with pytest.raises(APIConnectionError) as caught:
        settle(runtime.call(op(("queryKey",))))
    assert "query-secret-777" not in str(caught.value)


def test_job_failure_message_is_redacted(make_runtime: MakeRuntime) -> None:
    body = {"job_id": "j", "job_status": "failed", "message": "token po_sk_live0123456789 rejected"}
    recorder = Recorder([lambda r: json_answer(202, body)])
    with pytest.raises(JobFailedError) as caught:
        settle(make_runtime(recorder).submit_job("ocr-basic", {}))
    assert "po_sk_live0123456789" not in str(caught.value) + repr(caught.value.body)


def test_reprs_hold_no_secret() -> None:
    runtime = SyncRuntime(make_model(), base_url=BASE, token="tok-abc", password="pw", username="u", environ={})
    assert "tok-abc" not in repr(runtime) and "pw" not in repr(BasicCredentials("u", "pw"))
    runtime.close()


def test_configured_credential_headers_do_not_go_to_another_origin(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: httpx.Response(200, content=b"file", headers={"Content-Type": "application/pdf"})])
    runtime = make_runtime(recorder, headers={"Authorization": "Bearer mine-123", "X-Api-Key": "k-1", "X-Trace": "1"})
    settle(runtime.download("https://files.example.test/signed/a.pdf"))
    settle(runtime.download("tok-1"))
    foreign, own = recorder.requests
    assert "Authorization" not in foreign.headers and "X-Api-Key" not in foreign.headers
    assert foreign.headers["X-Trace"] == "1"
    assert own.headers["Authorization"] == "Bearer po_sk_live0123456789" and own.headers["X-Api-Key"] == "k-1"
