"""Answers as an operation declares them per status (``OperationSpec.answers``), the generated client's helpers
(``answer``, ``parse_payload_as``, ``ABSENT``), lists of files in a multipart body, and the Accept header of an
operation without answer bodies; each sync and async."""

from __future__ import annotations

from typing import Union, cast

import httpx
import pytest

from paperoffice_runtime import (
    ABSENT,
    BaseModel,
    CallInput,
    Download,
    JobMayExistError,
    JobResult,
    MalformedResponseError,
    OperationSpec,
)

from .conftest import Handler, MakeRuntime, Recorder, json_answer, settle


class Pet(BaseModel):
    name: str = ABSENT
    age: int | None = None


def answer(status: int, media_type: str | None, body: bytes) -> httpx.Response:
    headers = {} if media_type is None else {"Content-Type": media_type}
    return httpx.Response(status, content=body, headers=headers)


PET = OperationSpec(
    "getPet",
    "GET",
    "/pets/1",
    response_media_types=("application/json",),
    security=((),),
    answers=((200, ("application/json",)), (204, ())),
)
NOTE = OperationSpec(
    "getNote", "GET", "/note", response_media_types=("text/plain",), security=((),), answers=((200, ("text/plain",)),)
)
PHOTO = OperationSpec(
    "getPhoto",
    "GET",
    "/photo",
    response_media_types=("image/png",),
    security=((),),
    answers=((200, ("image/png",)),),
)
FILE = OperationSpec(
    "getFile",
    "GET",
    "/file",
    response_media_types=("application/octet-stream",),
    security=((),),
    answers=((200, ("application/octet-stream",)),),
)
GONE = OperationSpec("deletePet", "DELETE", "/pets/1", response_media_types=(), security=((),), answers=((204, ()),))
ANY_PET = OperationSpec(
    "getAnyPet",
    "GET",
    "/pets/any",
    response_media_types=("*/*",),
    security=((),),
    answers=((200, ("*/*",)),),
    answer_kinds=(("*/*", "json"),),
)
ANY_FILE = OperationSpec(
    "getAnyFile", "GET", "/any", response_media_types=("*/*",), security=((),), answers=((200, ("*/*",)),)
)


def test_json_answers_are_validated_into_the_named_type(make_runtime: MakeRuntime) -> None:
    runtime = make_runtime(Recorder([lambda r: json_answer(200, {"name": "Rex", "extra": 1})]))
    pet = runtime.answer(settle(runtime.call(PET)), Union[Pet, None])
    assert isinstance(pet, Pet) and pet.name == "Rex" and pet.model_extra == {"extra": 1}


def test_a_range_the_spec_declares_json_is_decoded_and_one_it_does_not_stays_bytes(make_runtime: MakeRuntime) -> None:
    handlers: list[Handler] = [
        lambda r: answer(200, "application/json", b'{"name": "Rex"}'),
        lambda r: answer(200, "application/json", b'{"name": "Rex"}'),
    ]
    runtime = make_runtime(Recorder(handlers))
    pet = runtime.answer(settle(runtime.call(ANY_PET)), Pet)
    assert isinstance(pet, Pet) and pet.name == "Rex"
    assert settle(runtime.call(ANY_FILE)).data == b'{"name": "Rex"}'


def test_an_absent_required_field_reads_none_and_a_present_one_is_validated(make_runtime: MakeRuntime) -> None:
    answers: list[Handler] = [lambda r: json_answer(200, {"age": 3}), lambda r: json_answer(200, {"age": "x"})]
    runtime = make_runtime(Recorder(answers), strict_response_validation=True)
    pet = runtime.answer(settle(runtime.call(PET)), Pet)
    assert isinstance(pet, Pet) and pet.name is None and pet.age == 3
    with pytest.raises(MalformedResponseError, match="does not match its schema"):
        runtime.answer(settle(runtime.call(PET)), Pet)


def test_an_answer_that_breaks_its_schema_is_read_as_far_as_it_goes(make_runtime: MakeRuntime) -> None:
    broken = {"name": "Rex", "age": "three", "more": 1}
    runtime = make_runtime(
        Recorder([lambda r: json_answer(200, broken), lambda r: json_answer(200, [broken, {"name": "Ida"}])])
    )
    pet = runtime.answer(settle(runtime.call(PET)), Union[Pet, None])
    # The model is built as it came: valid fields validated, the wrong one kept as given, unknown fields kept.
    assert isinstance(pet, Pet) and pet.name == "Rex" and pet.model_extra == {"more": 1}
    assert cast(object, pet.age) == "three"
    pets = runtime.answer(settle(runtime.call(PET)), list[Pet])
    assert [type(p) for p in pets] == [Pet, Pet] and pets[1].name == "Ida" and cast(object, pets[0].age) == "three"


def test_bodiless_text_and_binary_answers(make_runtime: MakeRuntime) -> None:
    steps: list[Handler] = [
        lambda r: answer(204, None, b""),
        lambda r: answer(200, "text/plain; charset=utf-8", "café".encode()),
        lambda r: answer(200, "image/png", b"\x89PNG"),
        lambda r: answer(200, "application/pdf", b"%PDF"),
    ]
    runtime = make_runtime(Recorder(steps))
    assert runtime.answer(settle(runtime.call(PET)), Pet) is None
    assert runtime.answer(settle(runtime.call(NOTE))) == "café"
    photo = runtime.answer(settle(runtime.call(PHOTO)))
    assert isinstance(photo, Download) and photo.content == b"\x89PNG" and photo.content_type == "image/png"
    # application/octet-stream stands for any binary type.
    assert runtime.answer(settle(runtime.call(FILE))).content == b"%PDF"


@pytest.mark.parametrize(
    ("operation", "media_type", "body", "named"),
    [
        (PET, "text/html", b"<html>", "getPet: HTTP 200: a body of type text/html, where the description declares"),
        (NOTE, "application/json", b'"x"', "getNote: HTTP 200: a body of type application/json"),
        (PHOTO, "text/plain", b"no", "getPhoto: HTTP 200: a body of type text/plain, where the description declares"),
    ],
)
def test_a_body_of_an_undeclared_type_is_refused(
    make_runtime: MakeRuntime, operation: OperationSpec, media_type: str, body: bytes, named: str
) -> None:
    runtime = make_runtime(Recorder([lambda r: answer(200, media_type, body)]))
    with pytest.raises(MalformedResponseError) as caught:
        settle(runtime.call(operation))
    assert str(caught.value).startswith(named)
    assert caught.value.status == 200


def test_an_unreadable_submission_answer_means_the_job_may_exist(make_runtime: MakeRuntime) -> None:
    submit = OperationSpec(
        "submit",
        "POST",
        "/jobs",
        "application/json",
        job="submit",
        security=((),),
        answers=((200, ("application/json",)),),
    )
    runtime = make_runtime(Recorder([lambda r: answer(200, "text/html", b"<html>")]))
    with pytest.raises(JobMayExistError):
        settle(runtime.call(submit, CallInput(body={"a": 1})))


def test_no_accept_header_without_answer_bodies(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: answer(204, None, b"")])
    runtime = make_runtime(recorder)
    settle(runtime.call(GONE))
    settle(runtime.call(GONE, headers={"Accept": "text/plain"}))
    assert "accept" not in recorder.requests[0].headers
    assert recorder.requests[1].headers["accept"] == "text/plain"


def test_a_list_of_files_travels_as_parts_of_one_name(make_runtime: MakeRuntime) -> None:
    upload = OperationSpec("upload", "POST", "/upload", "multipart/form-data", security=((),))
    recorder = Recorder([lambda r: json_answer(200, {})])
    runtime = make_runtime(recorder)
    settle(runtime.call(upload, CallInput(body={"files": [("a.pdf", b"%PDF-a", "application/pdf"), b"raw"]})))
    body = recorder.requests[0].content
    assert body.count(b'; name="files"') == 2
    assert b'filename="a.pdf"' in body and b"%PDF-a" in body and b"raw" in body


def test_payloads_validate_into_any_type_expression(make_runtime: MakeRuntime) -> None:
    runtime = make_runtime(Recorder([]))
    meta = settle(make_runtime(Recorder([lambda r: json_answer(200, {})])).call(PET)).meta
    result = runtime.parse_payload_as(JobResult("job_1", [{"name": "a"}], meta, 1), list[Pet])
    assert result.job_id == "job_1" and isinstance(result.data[0], Pet)
    # By default a payload of another shape stays as it came; strict validation refuses it with the job id.
    assert runtime.parse_payload_as(JobResult("job_1", "x", meta, 1), list[Pet]).data == "x"
    strict = make_runtime(Recorder([]), strict_response_validation=True)
    with pytest.raises(MalformedResponseError, match="job job_1"):
        strict.parse_payload_as(JobResult("job_1", "x", meta, 1), list[Pet])


def test_a_download_url_of_the_own_origin_carries_the_first_credential(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda r: answer(200, "application/pdf", b"%PDF")])
    runtime = make_runtime(recorder)
    settle(runtime.download("https://api.example.test/v1/files/report.pdf"))
    settle(runtime.download("https://files.example.test/report.pdf"))
    assert recorder.requests[0].headers["Authorization"].startswith("Bearer ")
    assert "Authorization" not in recorder.requests[1].headers


def test_list_parameters_take_the_simple_style(make_runtime: MakeRuntime) -> None:
    operation = OperationSpec("tags", "GET", "/tags/{ids}", security=((),))
    recorder = Recorder([lambda r: json_answer(200, {})])
    settle(make_runtime(recorder).call(operation, CallInput(path={"ids": [1, 2]}, headers={"X-Tags": ["a", "b"]})))
    assert recorder.requests[0].url.path == "/v1/tags/1,2"
    assert recorder.requests[0].headers["X-Tags"] == "a,b"
