"""A description's model as a generated SDK would hand it over, and runtimes over a mock transport, sync or async."""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar, Union, cast

import httpx
import pytest

from paperoffice_runtime import (
    AsyncRuntime,
    ConventionsModel,
    EnvelopeModel,
    EnvModel,
    ErrorSpec,
    JobDownloadModel,
    JobPollModel,
    JobsModel,
    JobSubmitModel,
    NoWait,
    OperationSpec,
    PipelineModel,
    PricingModel,
    RetryPolicy,
    SecurityScheme,
    ServerModel,
    ServerVariable,
    ServiceError,
    ServiceModel,
    SyncRuntime,
    TokenKind,
    TokenKindsModel,
    WebhooksModel,
)
from paperoffice_runtime.options import RuntimeOptions

T = TypeVar("T")

SUBMIT = OperationSpec(
    "jobStart",
    "POST",
    "/job/start/{pipeline}",
    request_media_type="multipart/form-data",
    job="submit",
    security=(("bearerAuth",),),
)
POLL = OperationSpec("jobGet", "GET", "/job/get/{job_id}", job="poll", security=(("bearerAuth",),))
DOWNLOAD = OperationSpec(
    "fileDownload",
    "GET",
    "/file/download/{token}",
    response_media_types=("application/octet-stream",),
    job="download",
    security=(("bearerAuth",),),
)
GET_THING = OperationSpec("thingGet", "GET", "/things/{id}", security=(("bearerAuth",),))
CREATE_THING = OperationSpec(
    "thingCreate", "POST", "/things", request_media_type="application/json", security=(("bearerAuth",),)
)
PUT_THING = OperationSpec(
    "thingPut", "PUT", "/things/{id}", request_media_type="application/json", security=(("bearerAuth",),)
)
PUBLIC = OperationSpec("health", "GET", "/health", security=((),))


class ThingNotFoundError(ServiceError):
    pass


class RateLimitedError(ServiceError):
    pass


ERROR_CLASSES: dict[str, type[ServiceError]] = {"THING_NOT_FOUND": ThingNotFoundError, "RATE_LIMITED": RateLimitedError}


def make_model(**changes: Any) -> ServiceModel:
    base: dict[str, Any] = dict(
        release="R20261120.0900",
        description_hash="ab" * 32,
        title="Café Document Automation API",
        errors={
            "THING_NOT_FOUND": ErrorSpec(404, "No thing has this id."),
            "RATE_LIMITED": ErrorSpec(429),
            "PIPELINE_UNKNOWN": ErrorSpec(400, "The pipeline is not known."),
        },
        pipelines={"ocr-basic": PipelineModel("result", base_credits=2, json_strings=("options",))},
        pricing=PricingModel({"standard": 1.0, "express": 2.5}, "standard", minimum_charge=1),
        servers=(ServerModel("https://{host}/v1", {"host": ServerVariable("api.example.test")}),),
        security_schemes={
            "bearerAuth": SecurityScheme("http", scheme="bearer"),
            "basicAuth": SecurityScheme("http", scheme="basic"),
            "headerKey": SecurityScheme("apiKey", location="header", name="X-Api-Key"),
            "queryKey": SecurityScheme("apiKey", location="query", name="api_key"),
            "cookieKey": SecurityScheme("apiKey", location="cookie", name="session"),
            "oauth": SecurityScheme("oauth2"),
        },
        env=EnvModel(token="DOCS_TOKEN", base_url="DOCS_BASE_URL"),
        conventions=ConventionsModel(
            envelope=EnvelopeModel(
                status="status",
                success="success",
                error="error",
                code="code",
                message="message",
                processing_time="processing_time",
                billing="billing",
            ),
            tokens=TokenKindsModel("bearerAuth", "po_", (TokenKind("sk_", "secret", True), TokenKind("pk_", "public"))),
        ),
        jobs=JobsModel(
            submit=JobSubmitModel(
                SUBMIT,
                "job_id",
                pipeline_parameter="pipeline",
                poll_url="poll_url",
                still_running_status=202,
                no_wait=NoWait("hold", False),
                selector_pattern=r"^[a-z0-9-]+$",
                selector_refusal="PIPELINE_UNKNOWN",
            ),
            poll=JobPollModel(POLL, "job_id", "job_status", "completed", ("result", "job_result")),
            download=JobDownloadModel(DOWNLOAD, "token"),
        ),
        webhooks=WebhooksModel(
            signature_header="X-Docs-Signature",
            signature_prefix="sha256=",
            event_id_header="X-Docs-Event-ID",
            event_id_field="event_id",
            event_type_field="event_type",
            event_type_header="X-Docs-Event",
            event_types=("job.completed",),
            subscription_id_header="X-Docs-Subscription-ID",
            subscription_id_field="subscription_id",
            timestamp_field="timestamp",
        ),
        request_id_header="X-Request-Id",
    )
    base.update(changes)
    return ServiceModel(**base)


BASE = "https://api.example.test/v1"
FAST = RetryPolicy(max_retries=3, base_delay=0.001, max_delay=0.01, max_retry_after=0.05)

Handler = Callable[[httpx.Request], httpx.Response]


def json_answer(status: int, body: object, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(
        status, content=json.dumps(body).encode(), headers={"Content-Type": "application/json", **(headers or {})}
    )


@dataclass
class Recorder:
    """Answers requests from a list of handlers in turn (the last repeats) and keeps the requests."""

    steps: list[Handler]
    requests: list[httpx.Request] = field(default_factory=lambda: [])

    def __call__(self, request: httpx.Request) -> httpx.Response:
        request.read()
        self.requests.append(request)
        step = self.steps[min(len(self.requests) - 1, len(self.steps) - 1)]
        return step(request)


def settle(value: T | Coroutine[Any, Any, T]) -> T:
    """The value of a sync call, or of an async one run to completion."""
    if inspect.iscoroutine(value):
        return cast("T", asyncio.run(value))
    return cast("T", value)


Runtime = Union[SyncRuntime, AsyncRuntime]
MakeRuntime = Callable[..., Runtime]


@pytest.fixture(params=["sync", "async"])
def flavor(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make_runtime(flavor: str) -> Iterator[MakeRuntime]:
    """A runtime of the test's flavor over a mock transport that answers with ``steps``."""
    made: list[Runtime] = []

    def make(recorder: Recorder, model: ServiceModel | None = None, **options: Any) -> Runtime:
        settings: RuntimeOptions = {
            "base_url": BASE,
            "token": "po_sk_live0123456789",
            "retry": FAST,
            "error_classes": ERROR_CLASSES,
            "poll_interval": (0.0, 0.01),
            "environ": {},
        }
        settings.update(options)  # type: ignore[typeddict-item]
        transport = httpx.MockTransport(recorder)
        runtime: Runtime
        if flavor == "sync":
            runtime = SyncRuntime(model or make_model(), http_client=httpx.Client(transport=transport), **settings)
        else:
            runtime = AsyncRuntime(
                model or make_model(), http_client=httpx.AsyncClient(transport=transport), **settings
            )
        made.append(runtime)
        return runtime

    yield make
