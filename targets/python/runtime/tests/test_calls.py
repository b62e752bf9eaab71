"""One call over a mock transport, sync and async: retries, errors, parsing, headers and credentials."""

from __future__ import annotations

import json
import urllib.parse

import httpx
import pytest

from paperoffice_runtime import (
    APIConnectionError,
    AuthenticationError,
    BadRequestError,
    BaseModel,
    CallInput,
    ConflictError,
    DeadlineExceededError,
    InternalServerError,
    JobMayExistError,
    MalformedResponseError,
    MayHaveBeenProcessedError,
    MissingCredentialsError,
    NotFoundError,
    OperationSpec,
    PermissionDeniedError,
    RateLimitError,
    RetryPolicy,
    ServiceError,
    SyncRuntime,
    UnprocessableEntityError,
)

from .conftest import (
    BASE,
    CREATE_THING,
    GET_THING,
    PUBLIC,
    PUT_THING,
    SUBMIT,
    MakeRuntime,
    RateLimitedError,
    Recorder,
    ThingNotFoundError,
    json_answer,
    make_model,
    settle,
)

OK = {"status": "success", "id": "t1", "processing_time": "12 ms", "billing": {"credits": 1}}


def ok(request: httpx.Request) -> httpx.Response:
    return json_answer(200, OK, {"X-Request-Id": "req-1"})


def status(code: int, body: object | None = None, **headers: str) -> httpx.Response:
    return json_answer(code, body if body is not None else {"status": "error", "code": "X", "message": "no"}, headers)


def reset(request: httpx.Request) -> httpx.Response:
    raise httpx.ReadError("connection reset by peer", request=request)


def refused(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection refused", request=request)


class Thing(BaseModel):
    id: str


def test_success_parses_envelope_meta_and_type(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([ok])
    runtime = make_runtime(recorder)
    result = settle(runtime.call(GET_THING, CallInput(path={"id": "a b/c"}, query={"n": [1, 2], "x": None}), Thing))
    assert isinstance(result.data, Thing)
    assert result.data.id == "t1"
    assert result.data.model_extra is not None and result.data.model_extra["processing_time"] == "12 ms"
    assert result.meta.status == 200 and result.meta.request_count == 1 and result.meta.request_id == "req-1"
    assert result.meta.processing_time == "12 ms" and result.meta.billing == {"credits": 1}
    request = recorder.requests[0]
    assert str(request.url) == "https://api.example.test/v1/things/a%20b%2Fc?n=1&n=2"
    assert request.headers["Accept"] == "application/json"
    assert request.headers["User-Agent"] == "cafe-document-automation-api-sdk-python/R20261120.0900"
    assert request.headers["Authorization"] == "Bearer po_sk_live0123456789"


@pytest.mark.parametrize("code", [500, 502, 503, 504, 429])
def test_idempotent_get_is_retried(make_runtime: MakeRuntime, code: int) -> None:
    recorder = Recorder([lambda r: status(code), ok])
    result = settle(make_runtime(recorder).call(GET_THING, CallInput(path={"id": "1"})))
    assert result.meta.request_count == 2 and len(recorder.requests) == 2


def test_put_is_retried_after_reset(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([reset, ok])
    settle(make_runtime(recorder).call(PUT_THING, CallInput(path={"id": "1"}, body={"a": 1})))
    assert len(recorder.requests) == 2


@pytest.mark.parametrize("code", [500, 502, 504])
def test_post_is_not_resent_after_5xx(make_runtime: MakeRuntime, code: int) -> None:
    recorder = Recorder([lambda r: status(code), ok])
    with pytest.raises(MayHaveBeenProcessedError) as caught:
        settle(make_runtime(recorder).call(CREATE_THING, CallInput(body={"a": 1})))
    assert not isinstance(caught.value, JobMayExistError)
    assert caught.value.status == code and isinstance(caught.value.__cause__, ServiceError)
    assert len(recorder.requests) == 1


@pytest.mark.parametrize("job", [False, True])
def test_a_5xx_answer_to_a_write_is_also_its_service_error(make_runtime: MakeRuntime, job: bool) -> None:
    body = {"status": "error", "code": "THING_NOT_FOUND", "message": "gone"}
    recorder = Recorder([lambda r: status(502, body, **{"X-Request-Id": "req-9"}), ok])
    operation = OperationSpec(
        "thingMake", "POST", "/things", "application/json", job="submit" if job else None, security=((),)
    )
    with pytest.raises(ServiceError) as caught:
        settle(make_runtime(recorder).call(operation, CallInput(body={"a": 1})))
    error = caught.value
    assert isinstance(error, InternalServerError) and isinstance(error, MayHaveBeenProcessedError)
    assert isinstance(error, JobMayExistError) is job
    assert (error.status, error.code, error.body, error.request_id) == (502, "THING_NOT_FOUND", body, "req-9")
    assert isinstance(error.__cause__, ThingNotFoundError) and not isinstance(error, ThingNotFoundError)
    assert ("may exist" if job else "may have been processed") in str(error)
    assert len(recorder.requests) == 1


def test_post_is_not_resent_after_reset(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([reset, ok])
    with pytest.raises(MayHaveBeenProcessedError) as caught:
        settle(make_runtime(recorder).call(CREATE_THING, CallInput(body={"a": 1})))
    # No answer arrived: no ServiceError.
    assert not isinstance(caught.value, ServiceError)
    assert isinstance(caught.value.__cause__, APIConnectionError) and caught.value.__cause__.sent
    assert len(recorder.requests) == 1


def test_post_marked_idempotent_is_retried(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: status(500), ok])
    operation = OperationSpec("thingUpsert", "POST", "/things", "application/json", idempotent=True, security=((),))
    settle(make_runtime(recorder).call(operation, CallInput(body={})))
    assert len(recorder.requests) == 2


def test_get_marked_not_idempotent_is_not_resent(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: status(502), ok])
    operation = OperationSpec("counterNext", "GET", "/next", idempotent=False, security=((),))
    with pytest.raises(MayHaveBeenProcessedError):
        settle(make_runtime(recorder).call(operation))
    assert len(recorder.requests) == 1


def test_job_submission_is_never_resent_even_if_marked_idempotent(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: status(500), ok])
    operation = OperationSpec(
        SUBMIT.operation_id,
        "POST",
        "/job/start/x",
        "multipart/form-data",
        idempotent=True,
        job="submit",
        security=((),),
    )
    with pytest.raises(JobMayExistError):
        settle(make_runtime(recorder).call(operation, CallInput(body={"a": "b"})))
    assert len(recorder.requests) == 1


@pytest.mark.parametrize("code", [429, 503])
def test_post_is_retried_when_the_server_did_not_take_it(make_runtime: MakeRuntime, code: int) -> None:
    recorder = Recorder([lambda r: status(code), ok])
    settle(make_runtime(recorder).call(CREATE_THING, CallInput(body={})))
    assert len(recorder.requests) == 2


def test_post_is_retried_when_the_connection_was_refused(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([refused, ok])
    settle(make_runtime(recorder).call(CREATE_THING, CallInput(body={})))
    assert len(recorder.requests) == 2


def test_retries_are_exhausted_with_the_last_error(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: status(503, {"status": "error", "code": "RATE_LIMITED", "message": "slow"})])
    with pytest.raises(RateLimitedError) as caught:
        settle(make_runtime(recorder).call(GET_THING, CallInput(path={"id": "1"})))
    assert caught.value.status == 503
    assert len(recorder.requests) == 4


def test_per_call_max_retries(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: status(503)])
    with pytest.raises(ServiceError):
        settle(make_runtime(recorder).call(GET_THING, CallInput(path={"id": "1"}), max_retries=0))
    assert len(recorder.requests) == 1


def test_refused_connection_exhausted_is_a_connection_error(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([refused])
    with pytest.raises(APIConnectionError) as caught:
        settle(make_runtime(recorder).call(GET_THING, CallInput(path={"id": "1"})))
    assert not caught.value.sent
    assert len(recorder.requests) == 4


def test_4xx_is_not_retried_and_maps_the_error_table(make_runtime: MakeRuntime) -> None:
    body = {"status": "error", "code": "THING_NOT_FOUND", "message": "no such thing", "processing_time": "1 ms"}
    recorder = Recorder([lambda r: status(404, body, **{"X-Request-Id": "req-9"}), ok])
    with pytest.raises(ThingNotFoundError) as caught:
        settle(make_runtime(recorder).call(GET_THING, CallInput(path={"id": "1"})))
    error = caught.value
    assert (error.status, error.code, error.request_id, error.processing_time) == (
        404,
        "THING_NOT_FOUND",
        "req-9",
        "1 ms",
    )
    assert str(error) == "THING_NOT_FOUND: no such thing"
    assert len(recorder.requests) == 1


def test_a_code_less_answer_gets_its_status_class_and_text_bodies_are_kept(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: httpx.Response(400, text="bad gateway config")])
    with pytest.raises(ServiceError) as caught:
        settle(make_runtime(recorder).call(GET_THING, CallInput(path={"id": "1"})))
    assert type(caught.value) is BadRequestError and caught.value.code is None
    assert str(caught.value) == "HTTP 400: bad gateway config"


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        (400, BadRequestError),
        (401, AuthenticationError),
        (402, ServiceError),
        (403, PermissionDeniedError),
        (404, NotFoundError),
        (409, ConflictError),
        (418, ServiceError),
        (422, UnprocessableEntityError),
        (429, RateLimitError),
        (500, InternalServerError),
        (505, InternalServerError),
    ],
)
def test_an_unknown_code_gets_the_class_of_its_status(
    make_runtime: MakeRuntime, code: int, kind: type[ServiceError]
) -> None:
    recorder = Recorder([lambda r: status(code, {"status": "error", "code": "NEW", "message": "new"})])
    runtime = make_runtime(recorder, retry=RetryPolicy(max_retries=0))
    with pytest.raises(ServiceError) as caught:
        settle(runtime.call(GET_THING, CallInput(path={"id": "1"})))
    assert type(caught.value) is kind and caught.value.status == code and caught.value.code == "NEW"


def test_error_envelope_in_a_200_is_an_error(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: status(200, {"status": "error", "code": "THING_NOT_FOUND", "message": "gone"})])
    with pytest.raises(ThingNotFoundError):
        settle(make_runtime(recorder).call(GET_THING, CallInput(path={"id": "1"})))


def test_retry_after_is_honoured_and_kept_on_the_error(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: status(429, None, **{"Retry-After": "0.02"})])
    runtime = make_runtime(recorder, retry=RetryPolicy(max_retries=1, max_retry_after=1.0))
    with pytest.raises(ServiceError) as caught:
        settle(runtime.call(GET_THING, CallInput(path={"id": "1"})))
    assert caught.value.retry_after == pytest.approx(0.02)
    assert len(recorder.requests) == 2


def test_retry_after_past_the_deadline_gives_the_error_at_once(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: status(503, None, **{"Retry-After": "30"}), ok])
    runtime = make_runtime(recorder, retry=RetryPolicy(max_retries=3, max_retry_after=60))
    with pytest.raises(ServiceError):
        settle(runtime.call(GET_THING, CallInput(path={"id": "1"}), deadline=2.0))
    assert len(recorder.requests) == 1


def test_malformed_success_body(make_runtime: MakeRuntime) -> None:
    recorder = Recorder(
        [
            lambda r: httpx.Response(
                200, text="<html>oops po_sk_live0123456789</html>", headers={"Content-Type": "application/json"}
            )
        ]
    )
    with pytest.raises(MalformedResponseError) as caught:
        settle(make_runtime(recorder).call(GET_THING, CallInput(path={"id": "1"})))
    assert "po_sk_live0123456789" not in repr(caught.value.body)


def test_body_that_does_not_match_the_type_is_malformed_when_strict(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: json_answer(200, {"status": "success", "idx": 1})])
    with pytest.raises(MalformedResponseError):
        settle(
            make_runtime(recorder, strict_response_validation=True).call(GET_THING, CallInput(path={"id": "1"}), Thing)
        )


def test_bodiless_text_and_binary_answers(make_runtime: MakeRuntime) -> None:
    text_op = OperationSpec("readme", "GET", "/readme", response_media_types=("text/plain",), security=((),))
    bin_op = OperationSpec("pdf", "GET", "/pdf", response_media_types=("application/pdf",), security=((),))
    none_op = OperationSpec("drop", "DELETE", "/things/1", response_media_types=(), security=((),))
    recorder = Recorder(
        [
            lambda r: httpx.Response(
                200, content="grüße".encode("latin-1"), headers={"Content-Type": "text/plain; charset=latin-1"}
            ),
            lambda r: httpx.Response(200, content=b"%PDF-1.7", headers={"Content-Type": "application/pdf"}),
            lambda r: httpx.Response(204),
        ]
    )
    runtime = make_runtime(recorder)
    assert settle(runtime.call(text_op)).data == "grüße"
    assert settle(runtime.call(bin_op)).data == b"%PDF-1.7"
    assert settle(runtime.call(none_op)).data is None
    assert recorder.requests[0].headers["Accept"] == "text/plain"
    assert recorder.requests[1].headers["Accept"] == "application/pdf"
    assert "Accept" not in recorder.requests[2].headers or recorder.requests[2].headers["Accept"] == "*/*"


def test_json_is_parsed_only_where_declared(make_runtime: MakeRuntime) -> None:
    operation = OperationSpec("raw", "GET", "/raw", response_media_types=("application/octet-stream",), security=((),))
    recorder = Recorder([lambda r: json_answer(200, {"status": "error", "code": "X", "message": "no"})])
    data = settle(make_runtime(recorder).call(operation)).data
    assert isinstance(data, bytes) and json.loads(data)["code"] == "X"


def test_json_body_and_form_bodies(make_runtime: MakeRuntime) -> None:
    form = OperationSpec("form", "POST", "/form", "application/x-www-form-urlencoded", security=((),))
    multipart = OperationSpec("upload", "POST", "/upload", "multipart/form-data", security=((),))
    recorder = Recorder([ok])
    runtime = make_runtime(recorder)
    settle(runtime.call(CREATE_THING, CallInput(body=Thing(id="x"))))
    settle(runtime.call(form, CallInput(body={"a": "1 2", "b": True, "skip": None})))
    settle(
        runtime.call(
            multipart,
            CallInput(body={"opts": {"k": 1}, "file": ("a.pdf", b"%PDF", "application/pdf")}, json_strings=("opts",)),
        )
    )
    first, second, third = recorder.requests
    assert first.headers["Content-Type"] == "application/json" and json.loads(first.content) == {"id": "x"}
    assert second.headers["Content-Type"] == "application/x-www-form-urlencoded" and second.content == b"a=1+2&b=true"
    assert third.headers["Content-Type"].startswith("multipart/form-data; boundary=")
    assert b'name="opts"\r\n\r\n{"k": 1}\r\n' in third.content
    assert b'filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF\r\n' in third.content


def test_urlencoded_lists_repeat_their_name_and_objects_go_as_brackets(make_runtime: MakeRuntime) -> None:
    form = OperationSpec("form", "POST", "/form", "application/x-www-form-urlencoded", security=((),))
    recorder = Recorder([ok])
    body = {"expand": ["x", "y"], "metadata": {"order": "7"}, "items": [{"price": "p 1", "n": 2}]}
    settle(make_runtime(recorder).call(form, CallInput(body=body)))
    content = recorder.requests[0].content.decode("ascii")
    assert urllib.parse.parse_qsl(content) == [
        ("expand", "x"),
        ("expand", "y"),
        ("metadata[order]", "7"),
        ("items[0][price]", "p 1"),
        ("items[0][n]", "2"),
    ]


def test_multipart_without_a_file_is_still_multipart(make_runtime: MakeRuntime) -> None:
    multipart = OperationSpec("upload", "POST", "/upload", "multipart/form-data", security=((),))
    recorder = Recorder([ok])
    settle(make_runtime(recorder).call(multipart, CallInput(body={"a": "b"})))
    assert recorder.requests[0].headers["Content-Type"].startswith("multipart/form-data")


def test_header_and_cookie_parameters(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([ok])
    runtime = make_runtime(recorder, headers={"X-Client": "demo"})
    settle(runtime.call(PUBLIC, CallInput(headers={"X-Trace": 7}, cookies={"lang": "de fr"}), headers={"X-Extra": "1"}))
    request = recorder.requests[0]
    assert request.headers["X-Trace"] == "7" and request.headers["X-Client"] == "demo"
    assert request.headers["X-Extra"] == "1" and request.headers["Cookie"] == "lang=de%20fr"
    assert "Authorization" not in request.headers


def test_missing_path_parameter_raises_before_sending(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([ok])
    with pytest.raises(Exception, match="path parameter 'id'"):
        settle(make_runtime(recorder).call(GET_THING))
    assert recorder.requests == []


def test_deadline_stops_retrying(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: status(503)])
    runtime = make_runtime(recorder, retry=RetryPolicy(max_retries=100, base_delay=0.05, max_delay=0.05))
    with pytest.raises((ServiceError, DeadlineExceededError)):
        settle(runtime.call(GET_THING, CallInput(path={"id": "1"}), deadline=0.3))
    assert 2 <= len(recorder.requests) < 100


def test_missing_credentials_raise_before_any_request(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([ok])
    runtime = make_runtime(recorder, token=None)
    with pytest.raises(MissingCredentialsError, match="bearerAuth"):
        settle(runtime.call(GET_THING, CallInput(path={"id": "1"})))
    assert recorder.requests == []


def test_a_callers_client_keeps_its_headers_and_the_runtime_wins() -> None:
    recorder = Recorder([ok])
    client = httpx.Client(
        transport=httpx.MockTransport(recorder), headers={"X-Tenant": "t-1", "User-Agent": "theirs/1", "Accept": "*/*"}
    )
    runtime = SyncRuntime(make_model(), http_client=client, base_url=BASE, token="tok-123", environ={})
    runtime.call(GET_THING, CallInput(path={"id": "1"}))
    runtime.close()
    request = recorder.requests[0]
    assert request.headers["X-Tenant"] == "t-1" and request.headers["Accept"] == "application/json"
    assert request.headers["User-Agent"].startswith("cafe-document-automation-api-sdk-python/")
    assert not client.is_closed, "a caller's client is the caller's to close"
    client.close()
