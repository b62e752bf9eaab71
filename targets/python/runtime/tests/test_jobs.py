"""Jobs over a mock transport, sync and async: hold, still-running status then polling, failures, downloads."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from paperoffice_runtime import (
    AsyncJobHandle,
    BaseModel,
    DeadlineExceededError,
    JobFailedError,
    JobHandle,
    JobMayExistError,
    MalformedResponseError,
    PipelineModel,
    SdkError,
    ServiceError,
    ServiceModel,
    VariantModel,
    price_job,
)

from .conftest import MakeRuntime, Recorder, json_answer, make_model, settle


def answer(status: int, body: object) -> httpx.Response:
    return json_answer(status, body)


def test_held_answer_returns_the_payload_in_one_request(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: answer(200, {"job_id": "job_1", "job_status": "completed", "result": {"pages": 2}})])
    result = settle(make_runtime(recorder).submit_job("ocr-basic", {"file": b"%PDF", "options": {"lang": "de"}}))
    assert (result.job_id, result.data, result.polls) == ("job_1", {"pages": 2}, 0)
    request = recorder.requests[0]
    assert request.method == "POST" and request.url.path == "/v1/job/start/ocr-basic"
    assert b'name="options"\r\n\r\n{"lang": "de"}' in request.content
    assert b'name="hold"' not in request.content


def test_still_running_status_switches_to_polling(make_runtime: MakeRuntime) -> None:
    recorder = Recorder(
        [
            lambda r: answer(202, {"job_id": "job_2", "job_status": "processing", "poll_url": "/job/get/job_2"}),
            lambda r: answer(200, {"job_id": "job_2", "job_status": "processing"}),
            lambda r: answer(200, {"job_id": "job_2", "job_status": "completed", "job_result": [1]}),
        ]
    )
    result = settle(make_runtime(recorder).submit_job("ocr-basic", {}))
    assert (result.job_id, result.data, result.polls) == ("job_2", [1], 2)
    assert result.submit_meta is not None and result.submit_meta.status == 202
    assert [str(r.url) for r in recorder.requests[1:]] == ["https://api.example.test/v1/job/get/job_2"] * 2


def test_short_deadline_asks_not_to_hold(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: answer(200, {"job_id": "j", "job_status": "completed", "result": 1})])
    settle(make_runtime(recorder).submit_job("ocr-basic", {}, deadline=5))
    assert b'name="hold"\r\n\r\nfalse' in recorder.requests[0].content


@pytest.mark.parametrize("code", [500, 502, 504])
def test_submission_is_never_resent(make_runtime: MakeRuntime, code: int) -> None:
    recorder = Recorder([lambda r: answer(code, {"status": "error", "code": "X", "message": "m"})])
    with pytest.raises(JobMayExistError) as caught:
        settle(make_runtime(recorder).submit_job("ocr-basic", {}))
    assert caught.value.status == code and len(recorder.requests) == 1


def test_submission_answer_without_job_id_means_the_job_may_exist(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: answer(202, {"job_status": "processing"})])
    with pytest.raises(JobMayExistError, match="job_id"):
        settle(make_runtime(recorder).submit_job("ocr-basic", {}))


def test_unreadable_submission_answer_means_the_job_may_exist(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: httpx.Response(200, text="{not json", headers={"Content-Type": "application/json"})])
    with pytest.raises(JobMayExistError) as caught:
        settle(make_runtime(recorder).submit_job("ocr-basic", {}))
    assert isinstance(caught.value.__cause__, MalformedResponseError)


def test_rejected_pipeline_is_refused_before_sending(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: answer(200, {})])
    with pytest.raises(ServiceError) as caught:
        settle(make_runtime(recorder).submit_job("Bad Pipeline!", {}))
    assert caught.value.code == "PIPELINE_UNKNOWN" and caught.value.status == 400
    assert recorder.requests == []


def test_failed_job_carries_its_id_and_status(make_runtime: MakeRuntime) -> None:
    recorder = Recorder(
        [
            lambda r: answer(202, {"job_id": "job_3", "job_status": "processing"}),
            lambda r: answer(200, {"job_id": "job_3", "job_status": "failed", "code": "OCR_FAILED", "message": "bad"}),
        ]
    )
    with pytest.raises(JobFailedError) as caught:
        settle(make_runtime(recorder).submit_job("ocr-basic", {}))
    error = caught.value
    assert (error.job_id, error.job_status, error.code) == ("job_3", "failed", "OCR_FAILED")
    assert "bad" in str(error)


def test_poll_errors_carry_the_job_id(make_runtime: MakeRuntime) -> None:
    recorder = Recorder(
        [
            lambda r: answer(202, {"job_id": "job_4", "job_status": "processing"}),
            lambda r: answer(404, {"status": "error", "code": "THING_NOT_FOUND", "message": "gone"}),
        ]
    )
    with pytest.raises(ServiceError) as caught:
        settle(make_runtime(recorder).submit_job("ocr-basic", {}))
    assert caught.value.job_id == "job_4"


def test_poll_500_is_retried(make_runtime: MakeRuntime) -> None:
    recorder = Recorder(
        [
            lambda r: answer(202, {"job_id": "job_5", "job_status": "processing"}),
            lambda r: answer(500, {"status": "error", "code": "X", "message": "m"}),
            lambda r: answer(200, {"job_id": "job_5", "job_status": "completed", "result": "ok"}),
        ]
    )
    assert settle(make_runtime(recorder).submit_job("ocr-basic", {})).data == "ok"


def test_job_that_never_completes_ends_at_the_deadline(make_runtime: MakeRuntime) -> None:
    recorder = Recorder(
        [
            lambda r: answer(202, {"job_id": "job_6", "job_status": "processing"}),
            lambda r: answer(200, {"job_id": "job_6", "job_status": "processing"}),
        ]
    )
    runtime = make_runtime(recorder, poll_interval=(0.05, 0.05))
    started = time.monotonic()
    with pytest.raises(DeadlineExceededError) as caught:
        settle(runtime.submit_job("ocr-basic", {}, deadline=0.5))
    took = time.monotonic() - started
    assert caught.value.job_id == "job_6"
    # One submission, then a poll every 50 ms for 500 ms (fewer on a busy machine), none after the deadline.
    assert 3 <= len(recorder.requests) <= 13
    assert 0.45 <= took < 0.5 + 4.0


def test_start_and_wait(make_runtime: MakeRuntime) -> None:
    recorder = Recorder(
        [
            lambda r: answer(202, {"job_id": "job_7", "job_status": "queued", "poll_url": "/job/get/job_7"}),
            lambda r: answer(200, {"job_id": "job_7", "job_status": "completed", "result": {"n": 1}}),
        ]
    )
    started = make_runtime(recorder).start_job("ocr-basic", {})
    handle = started if isinstance(started, JobHandle) else asyncio.run(started)
    assert isinstance(handle, (JobHandle, AsyncJobHandle)) and handle.job_id == "job_7"
    assert b'name="hold"\r\n\r\nfalse' in recorder.requests[0].content
    result = settle(handle.wait())
    assert (result.data, result.polls) == ({"n": 1}, 1)


def test_wait_job_by_id(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: answer(200, {"job_id": "job 8", "job_status": "completed", "result": 5})])
    result = settle(make_runtime(recorder).wait_job("job 8"))
    assert result.data == 5 and recorder.requests[0].url.path == "/v1/job/get/job 8"
    assert recorder.requests[0].url.raw_path == b"/v1/job/get/job%208"


def download_answer(request: httpx.Request) -> httpx.Response:
    return httpx.Response(
        200,
        content=b"%PDF-1.7 " * 10000,
        headers={
            "Content-Type": "application/pdf",
            "Content-Disposition": "attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf",
        },
    )


def test_download_by_token_and_by_url(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([download_answer])
    runtime = make_runtime(recorder)
    by_token = settle(runtime.download("tok-1"))
    by_url = settle(runtime.download("https://api.example.test/v1/file/download/tok-2"))
    foreign = settle(runtime.download("https://files.example.test/signed/report.pdf?sig=abc"))
    assert by_token.content.startswith(b"%PDF") and by_token.file_name == "résumé.pdf"
    assert [r.url.path for r in recorder.requests] == [
        "/v1/file/download/tok-1",
        "/v1/file/download/tok-2",
        "/signed/report.pdf",
    ]
    assert recorder.requests[0].headers["Authorization"].startswith("Bearer ")
    assert recorder.requests[1].headers["Authorization"].startswith("Bearer ")
    assert "Authorization" not in recorder.requests[2].headers
    assert by_url.content == by_token.content
    assert foreign.content_type == "application/pdf"


def test_download_to_file_streams_and_leaves_no_partial_file(make_runtime: MakeRuntime, tmp_path: Path) -> None:
    target = tmp_path / "out.pdf"
    saved = settle(make_runtime(Recorder([download_answer])).download_to("tok-1", target))
    assert target.read_bytes() == b"%PDF-1.7 " * 10000 and saved.size == 90000
    failing = Recorder([lambda r: answer(404, {"status": "error", "code": "THING_NOT_FOUND", "message": "no"})])
    with pytest.raises(ServiceError):
        settle(make_runtime(failing).download_to("tok-2", tmp_path / "missing.pdf"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.pdf"]


def test_download_retry_after_a_broken_body_starts_the_file_over(make_runtime: MakeRuntime, tmp_path: Path) -> None:
    class Broken(httpx.SyncByteStream, httpx.AsyncByteStream):
        def __iter__(self) -> Iterator[bytes]:
            yield b"partial"
            raise httpx.ReadError("reset")

        async def __aiter__(self) -> AsyncIterator[bytes]:
            yield b"partial"
            raise httpx.ReadError("reset")

    recorder = Recorder([lambda r: httpx.Response(200, stream=Broken()), download_answer])
    saved = settle(make_runtime(recorder).download_to("tok-1", tmp_path / "f.pdf"))
    assert (tmp_path / "f.pdf").read_bytes() == b"%PDF-1.7 " * 10000 and saved.size == 90000


class Pages(BaseModel):
    pages: int


def test_payload_is_validated_into_the_pipelines_type(make_runtime: MakeRuntime) -> None:
    recorder = Recorder(
        [
            lambda r: answer(200, {"job_id": "j1", "job_status": "completed", "result": {"pages": 3, "lang": "de"}}),
            lambda r: answer(200, {"job_id": "j2", "job_status": "completed", "result": {"pages": "many"}}),
        ]
    )
    runtime = make_runtime(recorder)
    typed = runtime.parse_payload(settle(runtime.submit_job("ocr-basic", {})), Pages)
    assert typed.data.pages == 3 and typed.data.model_extra == {"lang": "de"}
    with pytest.raises(MalformedResponseError) as caught:
        runtime.parse_payload(settle(runtime.submit_job("ocr-basic", {})), Pages)
    assert caught.value.job_id == "j2"


def test_price_job() -> None:
    model = make_model()
    assert price_job(model, "ocr-basic") == 2
    assert price_job(model, "ocr-basic", "express") == 5
    with pytest.raises(Exception, match="unknown processing lane"):
        price_job(model, "ocr-basic", "slow")


def test_payload_is_left_as_json(make_runtime: MakeRuntime) -> None:
    body = {"job_id": "j", "job_status": "completed", "result": {"nested": [1, {"a": None}]}}
    recorder = Recorder([lambda r: answer(200, body)])
    assert json.dumps(settle(make_runtime(recorder).submit_job("ocr-basic", {})).data) == json.dumps(body["result"])


VARIANTS = (
    VariantModel("split", property="template", value="split", fields=frozenset({"template", "file", "naming"})),
    VariantModel("merge", property="template", value="merge", fields=frozenset({"template", "files", "order"})),
)


def variant_model(*variants: VariantModel) -> ServiceModel:
    return make_model(pipelines={"ocr-basic": PipelineModel("result", json_strings=("options",), variants=variants)})


def test_misspelt_body_field_is_refused_before_sending(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: answer(200, {"job_id": "j", "job_status": "completed", "result": 1})])
    runtime = make_runtime(recorder, variant_model(*VARIANTS))
    with pytest.raises(SdkError) as caught:
        settle(runtime.submit_job("ocr-basic", {"template": "split", "file": b"%PDF", "namign": "x"}))
    assert type(caught.value) is SdkError
    assert str(caught.value) == (
        'jobStart: unknown field "namign" in the body for pipeline "ocr-basic" (template "split"); nothing was sent.'
        ' Did you mean "naming" for "namign"?'
    )
    with pytest.raises(SdkError, match=r'unknown fields "order", "zzz" .*"ocr-basic" \(template "split"\)'):
        started = runtime.start_job("ocr-basic", {"template": "split", "order": "1", "zzz": 1})
        if not isinstance(started, JobHandle):
            asyncio.run(started)
    assert recorder.requests == []


def test_declared_fields_and_open_variants_are_sent(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: answer(200, {"job_id": "j", "job_status": "completed", "result": 1})] * 4)
    runtime = make_runtime(recorder, variant_model(*VARIANTS))
    settle(runtime.submit_job("ocr-basic", {"template": "merge", "files": [b"%PDF"], "order": "1", "hold": False}))
    # No discriminator: any variant's field goes.
    settle(runtime.submit_job("ocr-basic", {"naming": "x", "order": "2", "gone": None}))
    open_runtime = make_runtime(recorder, variant_model(VARIANTS[0], VariantModel("other")))
    settle(open_runtime.submit_job("ocr-basic", {"anything": "x"}))
    started = open_runtime.start_job("ocr-basic", {"template": "none of them", "anything": "y"})
    if not isinstance(started, JobHandle):
        asyncio.run(started)
    assert len(recorder.requests) == 4
