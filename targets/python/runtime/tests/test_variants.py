"""The body rules a description states: the variant a body is, and "exactly one of" groups refused before sending."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from paperoffice_runtime import (
    CallInput,
    JobHandle,
    PipelineModel,
    SdkError,
    VariantModel,
    check_exactly_one,
    variant_of,
)

from .conftest import CREATE_THING, MakeRuntime, Recorder, json_answer, make_model, settle

PIPELINE = PipelineModel(
    "result",
    variants=(
        VariantModel("split", property="template", value="split", server_default=True, exactly_one=(("file", "ref"),)),
        VariantModel("invoice", property="collection", value="invoice"),
    ),
)


def test_a_body_is_the_variant_its_property_names() -> None:
    assert variant_of(PIPELINE, {"collection": "invoice"}) == PIPELINE.variants[1]
    assert variant_of(PIPELINE, {"template": "split"}) == PIPELINE.variants[0]


def test_a_body_without_the_property_is_the_server_default() -> None:
    assert variant_of(PIPELINE, {"ref": "R"}) == PIPELINE.variants[0]
    assert variant_of(PIPELINE, {"template": "other"}) is None


def test_exactly_one_refuses_both_and_none_naming_the_fields() -> None:
    with pytest.raises(SdkError, match=r"here: exactly one of file, ref must be set, 2 are \(file, ref\); nothing"):
        check_exactly_one((("file", "ref"),), {"file": b"x", "ref": "R"}, "here")
    with pytest.raises(SdkError, match=r"exactly one of file, ref must be set, none is"):
        check_exactly_one((("file", "ref"),), {"ref": None}, "here")
    check_exactly_one((("file", "ref"),), {"ref": "R"}, "here")
    check_exactly_one((), {"file": b"x", "ref": "R"}, "here")


def test_an_operation_body_breaking_exactly_one_is_not_sent(make_runtime: MakeRuntime) -> None:
    recorder = Recorder([lambda request: json_answer(200, {"status": "success"})])
    runtime = make_runtime(recorder)
    operation = dataclasses.replace(CREATE_THING, exactly_one=(("file", "ref"),))
    with pytest.raises(SdkError, match=r"thingCreate: the body: exactly one of file, ref must be set, 2 are"):
        settle(runtime.call(operation, CallInput(body={"file": "f", "ref": "R"})))
    assert recorder.requests == []
    settle(runtime.call(operation, CallInput(body={"ref": "R"})))
    assert [r.url.path for r in recorder.requests] == ["/v1/things"]


def test_the_generic_submit_and_start_refuse_a_body_breaking_exactly_one(make_runtime: MakeRuntime) -> None:
    """``submit_job`` and ``start_job`` take any mapping, and check its variant's rules as the typed methods do."""
    recorder = Recorder([lambda request: json_answer(200, {"status": "success", "job_id": "J1", "result": {}})])
    runtime = make_runtime(recorder, make_model(pipelines={"split": PIPELINE}))
    both = r"pipeline 'split', variant 'split': exactly one of file, ref must be set, 2 are \(file, ref\); nothing"
    with pytest.raises(SdkError, match=both):
        settle(runtime.submit_job("split", {"template": "split", "file": b"%PDF", "ref": "R"}))
    with pytest.raises(SdkError, match=r"variant 'split': exactly one of file, ref must be set, none is"):
        started = runtime.start_job("split", {})
        if not isinstance(started, JobHandle):
            asyncio.run(started)
    assert recorder.requests == []
    # A body of the variant without the rule, and one keeping it, are sent.
    settle(runtime.submit_job("split", {"collection": "invoice", "file": b"%PDF", "ref": "R"}))
    settle(runtime.submit_job("split", {"ref": "R"}))
    assert len(recorder.requests) == 2
