"""The repository's behaviour scenarios (test/behaviour/scenarios.json), played by a scenario server on 127.0.0.1
and run through the runtime, sync and async, then judged by the rules of the suite's judge. The model is the one
the document automation service's description gives: the scenarios are written against it.

Skipped where the scenarios are not at hand (the package's tests run outside the repository)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import socket
import struct
import tempfile
import threading
import time
import traceback
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from paperoffice_runtime import (
    APIConnectionError,
    ApiResult,
    AsyncPager,
    AsyncRuntime,
    AuthenticationError,
    BadRequestError,
    CallInput,
    ConflictError,
    ConventionsModel,
    DeadlineExceededError,
    EnvelopeModel,
    ErrorSpec,
    InternalServerError,
    JobDownloadModel,
    JobFailedError,
    JobMayExistError,
    JobPollModel,
    JobsModel,
    JobSubmitModel,
    MalformedResponseError,
    MayHaveBeenProcessedError,
    NotFoundError,
    NoWait,
    OperationSpec,
    PaginationModel,
    PermissionDeniedError,
    PipelineModel,
    RateLimitError,
    RetryPolicy,
    SdkError,
    SecurityScheme,
    ServiceError,
    ServiceModel,
    SyncPager,
    SyncRuntime,
    UnprocessableEntityError,
    VariantModel,
)

Json = dict[str, Any]

TOKEN = "svc_sk_behaviourTOKEN4f7a"
SECRET = "configured-secret-9c2e"
PIPELINE = "workflow"
BODY = {"template": "pdf_ai_split"}
DEFAULT_CLIENT: Json = {
    "pollMs": [20, 40],
    "maxRetries": 3,
    "baseDelayMs": 20,
    "maxDelayMs": 100,
    "maxRetryAfterMs": 60_000,
    "secrets": [],
}
ARRIVAL_SLACK_MS = 300
DEADLINE_SLACK_MS = 1_500
"""As the suite's judge: a busy machine may end a call this late."""
CONCURRENCY = 4

SUBMIT = OperationSpec(
    "jobAdd", "POST", "/job/add/{pipeline}", "multipart/form-data", job="submit", security=(("bearerAuth",),)
)
POLL = OperationSpec("jobGet", "GET", "/job/get/{job_id}", job="poll", security=(("bearerAuth",),))
DOWNLOAD = OperationSpec(
    "jobDownload",
    "GET",
    "/job/download/{token}",
    response_media_types=("application/octet-stream",),
    job="download",
    security=(("bearerAuth",),),
)
WRITE = OperationSpec("webhookTest", "POST", "/webhooks/test", "application/json", security=(("bearerAuth",),))
LIST = OperationSpec(
    "getAuditCenter",
    "GET",
    "/analytics/audit-center",
    security=(("bearerAuth",),),
    pagination=PaginationModel("limit", "offset", "findings", total="total"),
)
"""A "write": a JSON POST that is neither idempotent nor a job submission."""


class NotFoundCodeError(NotFoundError):
    pass


class RateLimitExceededError(RateLimitError):
    pass


class InvalidTokenError(AuthenticationError):
    pass


class InternalError(InternalServerError):
    pass


ERROR_CLASSES: dict[str, type[ServiceError]] = {
    "NOT_FOUND": NotFoundCodeError,
    "RATE_LIMIT_EXCEEDED": RateLimitExceededError,
    "INVALID_TOKEN": InvalidTokenError,
    "INTERNAL_ERROR": InternalError,
}
"""The classes a generated client gives these codes of the description: each under the class of its status."""

# The fields of two workflow variants, as the generated model lists them: the fields group's scenarios send a
# misspelt field and one of the other variant beside template pdf_ai_split.
COMMON = {"client_wait", "async_only", "processing_lane", "priority"}
WORKFLOW = PipelineModel(
    "result",
    variants=(
        VariantModel(
            "pdf_ai_split",
            property="template",
            value="pdf_ai_split",
            fields=frozenset(COMMON | {"file", "pofid", "template", "naming_instruction", "locale", "document_types"}),
        ),
        VariantModel(
            "accounting_datev",
            property="idp_collection",
            value="accounting_datev",
            fields=frozenset(COMMON | {"file_1", "pofid", "model", "idp_collection", "idp_fields"}),
        ),
    ),
)

MODEL = ServiceModel(
    release="behaviour",
    title="Document Automation Service",
    pipelines={PIPELINE: WORKFLOW},
    errors={
        "NOT_FOUND": ErrorSpec(404),
        "RATE_LIMIT_EXCEEDED": ErrorSpec(429),
        "INVALID_TOKEN": ErrorSpec(401),
        "INTERNAL_ERROR": ErrorSpec(500),
    },
    security_schemes={"bearerAuth": SecurityScheme("http", scheme="bearer")},
    request_id_header="X-Request-Id",
    conventions=ConventionsModel(
        envelope=EnvelopeModel("status", "success", "error", "code", "message", processing_time="processing_time")
    ),
    jobs=JobsModel(
        submit=JobSubmitModel(
            SUBMIT,
            "job_id",
            pipeline_parameter="pipeline",
            poll_url="poll_url",
            still_running_status=202,
            no_wait=NoWait("client_wait", False),
        ),
        poll=JobPollModel(POLL, "job_id", "job_status", "completed", ("result", "job_result")),
        download=JobDownloadModel(DOWNLOAD, "token"),
    ),
)


def find_scenarios() -> Path | None:
    for folder in Path(__file__).resolve().parents:
        if (folder / "package.json").is_file():
            for candidate in [
                folder / "test" / "behaviour" / "scenarios.json",
                *folder.glob("targets/*/test/behaviour/scenarios.json"),
            ]:
                if candidate.is_file():
                    return candidate
    return None


SCENARIOS_FILE = find_scenarios()
SCENARIOS: list[Json] = [] if SCENARIOS_FILE is None else json.loads(SCENARIOS_FILE.read_text("utf-8"))
pytestmark = pytest.mark.skipif(SCENARIOS_FILE is None, reason="the behaviour scenarios are not at hand")


# -- the scenario server -------------------------------------------------------------------------------------


@dataclass
class Played:
    steps: list[Json]
    requests: list[Json] = field(default_factory=lambda: [])


class ScenarioServer:
    """Two origins on 127.0.0.1 that play each scenario's steps in request order and record what arrived."""

    def __init__(self) -> None:
        self.played: dict[str, Played] = {}
        self.lock = threading.Lock()
        self.main = self._serve("main")
        self.foreign = self._serve("foreign")
        self.main_origin = f"http://127.0.0.1:{self.main.server_address[1]}"
        self.foreign_origin = f"http://127.0.0.1:{self.foreign.server_address[1]}"

    def add(self, run: str, scenario: Json) -> tuple[str, str]:
        name = scenario["name"]
        self.played[f"main/{run}/{name}"] = Played(scenario["steps"])
        self.played[f"foreign/{run}/{name}"] = Played(scenario.get("foreignSteps", []))
        return f"{self.main_origin}/{run}/{name}/latest", f"{self.foreign_origin}/{run}/{name}"

    def close(self) -> None:
        for server in (self.main, self.foreign):
            server.shutdown()
            server.server_close()

    def _serve(self, origin: str) -> ThreadingHTTPServer:
        scenarios = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                scenarios.handle(origin, self)

            do_POST = do_GET  # noqa: N815

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return server

    def handle(self, origin: str, request: BaseHTTPRequestHandler) -> None:
        at = time.time() * 1000
        length = int(request.headers.get("Content-Length") or 0)
        body = request.rfile.read(length) if length else b""
        parts = [p for p in request.path.split("?", 1)[0].split("/") if p]
        key = f"{origin}/{parts[0]}/{parts[1]}" if len(parts) >= 2 else ""
        index = 0
        with self.lock:
            played = self.played.get(key)
            if played is not None:
                index = len(played.requests)
                played.requests.append(
                    {
                        "at": at,
                        "method": request.command,
                        "path": request.path,
                        "authorization": request.headers.get("Authorization") is not None,
                        "headers": {name.lower(): value for name, value in request.headers.items()},
                        "body": body.decode("latin-1"),
                    }
                )
        if played is None:
            self._answer(request, 404, {"content-type": "text/plain"}, b"no scenario")
            return
        step = step_at(played.steps, index)
        time.sleep(step.get("delayMs", 0) / 1000)
        self._play(step, f"/{parts[0]}/{parts[1]}", request)

    def _play(self, step: Json, prefix: str, request: BaseHTTPRequestHandler) -> None:
        request.close_connection = True
        if step.get("reset"):
            request.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            request.connection.close()
            return
        redirect = step.get("redirect")
        if redirect is not None:
            location = (
                f"{self.foreign_origin}{prefix}{redirect['path']}"
                if redirect["to"] == "foreign"
                else f"{self.main_origin}{prefix}/latest{redirect['path']}"
            )
            self._answer(request, step.get("status", 302), {"location": location}, b"")
            return
        raw = step.get("body")
        text = "" if raw is None else raw if isinstance(raw, str) else json.dumps(raw)
        body = text.replace("{token}", TOKEN).replace("{secret}", SECRET).encode()
        headers = {} if raw is None or isinstance(raw, str) else {"content-type": "application/json"}
        headers.update(step.get("headers", {}))
        trickle = step.get("trickle")
        if trickle is None:
            self._answer(request, step.get("status", 200), headers, body)
            return
        self._answer(request, step.get("status", 200), headers, b"", length=len(body))
        try:
            for offset in range(0, len(body), trickle["bytes"]):
                request.wfile.write(body[offset : offset + trickle["bytes"]])
                request.wfile.flush()
                time.sleep(trickle["everyMs"] / 1000)
        except OSError:
            pass

    @staticmethod
    def _answer(
        request: BaseHTTPRequestHandler,
        status: int,
        headers: dict[str, str],
        body: bytes,
        length: int | None = None,
    ) -> None:
        try:
            request.send_response(status)
            # The server closes after each answer, and says so: a client that was not told could send its next
            # request (a retry sent at once) on the socket before the close reaches it, and see that request dropped.
            closing = {"connection": "close", "content-length": str(len(body) if length is None else length)}
            for name, value in {**headers, **closing}.items():
                request.send_header(name, value)
            request.end_headers()
            request.wfile.write(body)
            request.wfile.flush()
        except OSError:
            pass


def step_at(steps: list[Json], index: int) -> Json:
    seen = 0
    for step in steps:
        seen += step.get("times", 1)
        if index < seen:
            return step
    return steps[-1]


# -- running a scenario through the runtime ------------------------------------------------------------------

KINDS: list[tuple[type[BaseException], str]] = [
    (JobMayExistError, "job-may-exist"),
    (MayHaveBeenProcessedError, "may-have-been-processed"),
    (JobFailedError, "job-failed"),
    (MalformedResponseError, "malformed"),
    (DeadlineExceededError, "deadline"),
    (APIConnectionError, "connection"),
    (ServiceError, "service"),
]


CATCHES: list[tuple[type[BaseException], str]] = [
    (ServiceError, "service"),
    (BadRequestError, "bad-request"),
    (AuthenticationError, "authentication"),
    (PermissionDeniedError, "permission-denied"),
    (NotFoundError, "not-found"),
    (ConflictError, "conflict"),
    (UnprocessableEntityError, "unprocessable-entity"),
    (RateLimitError, "rate-limit"),
    (InternalServerError, "internal-server"),
    (MayHaveBeenProcessedError, "may-have-been-processed"),
    (JobMayExistError, "job-may-exist"),
]
"""What an error is caught as (the suite's CATCHES), besides "code": the class of its code."""


def caught_as(error: BaseException) -> list[str]:
    caught = [kind for cls, kind in CATCHES if isinstance(error, cls)]
    code = getattr(error, "code", None)
    of_code = ERROR_CLASSES.get(code) if isinstance(code, str) else None
    if of_code is not None and isinstance(error, of_code):
        caught.append("code")
    return caught


def kind_of(error: BaseException) -> str:
    # The root class itself, not a subclass: the runtime's refusal of the call's own arguments.
    if type(error) is SdkError:
        return "invalid-argument"
    return next((kind for cls, kind in KINDS if isinstance(error, cls)), f"other:{type(error).__name__}")


def texts_of(error: BaseException) -> list[str]:
    texts = [str(error), repr(error), "".join(traceback.format_exception(type(error), error, error.__traceback__))]
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        texts.append(repr(vars(current)))
        current = current.__cause__ or current.__context__
    return texts


def options(scenario: Json, base_url: str) -> dict[str, Any]:
    client = {**DEFAULT_CLIENT, **scenario.get("client", {})}
    return {
        "base_url": base_url,
        "token": TOKEN,
        "environ": {},
        "poll_interval": (client["pollMs"][0] / 1000, client["pollMs"][1] / 1000),
        "retry": RetryPolicy(
            max_retries=client["maxRetries"],
            base_delay=client["baseDelayMs"] / 1000,
            max_delay=client["maxDelayMs"] / 1000,
            max_retry_after=client["maxRetryAfterMs"] / 1000,
        ),
        "secrets": client["secrets"],
        "error_classes": ERROR_CLASSES,
    }


def target(scenario: Json, base_url: str, foreign_url: str) -> str:
    action = scenario["action"]
    path = str(action["path"])
    if action["target"] == "token":
        return path
    return (foreign_url if action["target"] == "foreign-url" else base_url) + path


def call_options(scenario: Json) -> Json:
    """The scenario's options of the call itself, as the runtime's RequestOptions."""
    names = {"headers": "extra_headers", "query": "extra_query", "body": "extra_body", "maxRetries": "max_retries"}
    return {names[key]: value for key, value in scenario.get("call", {}).items()}


def copy_options(scenario: Json) -> Json:
    """The defaults of the copy a scenario of client copies calls through (none: the runtime itself)."""
    copy = scenario.get("copy")
    return {} if copy is None else {"headers": copy["headers"]}


def meta_of(result: ApiResult[object]) -> Json:
    return {"status": result.meta.status, "requestId": result.meta.request_id}


def body_of(scenario: Json) -> dict[str, object]:
    """The body a submission of the scenario sends: its own, else BODY."""
    return dict(scenario.get("body", BODY))


def act_sync(scenario: Json, base_url: str, foreign_url: str, clock: list[float], progress: Json) -> Json:
    action = scenario["action"]
    deadline = action["deadlineMs"] / 1000
    with SyncRuntime(MODEL, **options(scenario, base_url)) as made:
        runtime = made.with_options(**copy_options(scenario))
        # The call's deadline starts with the call, after the client is built (as the TypeScript driver measures).
        clock[:] = [time.time(), time.monotonic()]
        kind = action["kind"]
        if kind == "list":
            items: list[Any] = []
            progress["items"] = items
            first = CallInput(query={"limit": action["pageSize"]})
            pager = SyncPager[Any, Any](runtime, LIST, first, deadline=deadline)
            if action["by"] == "items":
                items.extend(item for item in pager)
                return {}
            progress["pages"] = 0
            for page in pager.pages():
                progress["pages"] += 1
                items.extend(page.items)
            return {}
        if kind == "submit":
            return {"jobId": runtime.submit_job(PIPELINE, body_of(scenario), deadline=deadline).job_id}
        if kind == "start":
            return {"jobId": runtime.start_job(PIPELINE, body_of(scenario), deadline=deadline).job_id}
        if kind == "wait":
            return {"jobId": runtime.wait_job(action["jobId"], deadline=deadline).job_id}
        extra = call_options(scenario)
        if kind == "read":
            path = {"job_id": action["jobId"]}
            return meta_of(runtime.call(POLL, CallInput(path=path), deadline=deadline, **extra))
        if kind == "write":
            body = {"subscription_id": "sub_1"}
            return meta_of(runtime.call(WRITE, CallInput(body=body), deadline=deadline, **extra))
        where = target(scenario, base_url, foreign_url)
        if action.get("toFile"):
            with tempfile.TemporaryDirectory() as folder:
                saved = runtime.download_to(where, os.path.join(folder, "file"), deadline=deadline)
                return {"bytes": os.path.getsize(saved.path)}
        return {"bytes": len(runtime.download(where, deadline=deadline).content)}


async def act_async(scenario: Json, base_url: str, foreign_url: str, clock: list[float], progress: Json) -> Json:
    action = scenario["action"]
    deadline = action["deadlineMs"] / 1000
    async with AsyncRuntime(MODEL, **options(scenario, base_url)) as made:
        runtime = made.with_options(**copy_options(scenario))
        clock[:] = [time.time(), time.monotonic()]
        kind = action["kind"]
        if kind == "list":
            items: list[Any] = []
            progress["items"] = items
            first = CallInput(query={"limit": action["pageSize"]})
            pager = AsyncPager[Any, Any](runtime, LIST, first, deadline=deadline)
            if action["by"] == "items":
                async for item in pager:
                    items.append(item)
                return {}
            progress["pages"] = 0
            async for page in pager.pages():
                progress["pages"] += 1
                items.extend(page.items)
            return {}
        if kind == "submit":
            return {"jobId": (await runtime.submit_job(PIPELINE, body_of(scenario), deadline=deadline)).job_id}
        if kind == "start":
            return {"jobId": (await runtime.start_job(PIPELINE, body_of(scenario), deadline=deadline)).job_id}
        if kind == "wait":
            return {"jobId": (await runtime.wait_job(action["jobId"], deadline=deadline)).job_id}
        extra = call_options(scenario)
        if kind == "read":
            path = {"job_id": action["jobId"]}
            return meta_of(await runtime.call(POLL, CallInput(path=path), deadline=deadline, **extra))
        if kind == "write":
            body = {"subscription_id": "sub_1"}
            return meta_of(await runtime.call(WRITE, CallInput(body=body), deadline=deadline, **extra))
        where = target(scenario, base_url, foreign_url)
        if action.get("toFile"):
            with tempfile.TemporaryDirectory() as folder:
                saved = await runtime.download_to(where, os.path.join(folder, "file"), deadline=deadline)
                return {"bytes": saved.size}
        return {"bytes": len((await runtime.download(where, deadline=deadline)).content)}


def failure(error: BaseException, started_at: float, began: float) -> Json:
    status = getattr(error, "status", None)
    code = getattr(error, "code", None)
    job_id = getattr(error, "job_id", None)
    retry_after = getattr(error, "retry_after", None)
    request_id = getattr(error, "request_id", None)
    return {
        "ok": False,
        "kind": kind_of(error),
        "status": status if isinstance(status, int) else None,
        "code": code if isinstance(code, str) else None,
        "jobId": job_id if isinstance(job_id, str) else None,
        "retryAfterMs": round(retry_after * 1000) if isinstance(retry_after, (int, float)) else None,
        "requestId": request_id if isinstance(request_id, str) else None,
        "caughtAs": caught_as(error),
        "texts": texts_of(error),
        "startedAt": started_at * 1000,
        "elapsedMs": (time.monotonic() - began) * 1000,
    }


def success(outcome: Json, started_at: float, began: float) -> Json:
    return {
        "ok": True,
        **outcome,
        "texts": [],
        "startedAt": started_at * 1000,
        "elapsedMs": (time.monotonic() - began) * 1000,
    }


def run_sync(scenario: Json, base_url: str, foreign_url: str) -> Json:
    clock = [time.time(), time.monotonic()]
    progress: Json = {}
    try:
        outcome = act_sync(scenario, base_url, foreign_url, clock, progress)
        return {**success(outcome, clock[0], clock[1]), **progress}
    except Exception as error:
        return {**failure(error, clock[0], clock[1]), **progress}


async def run_async(scenario: Json, base_url: str, foreign_url: str, gate: asyncio.Semaphore) -> Json:
    async with gate:
        clock = [time.time(), time.monotonic()]
        progress: Json = {}
        try:
            outcome = await act_async(scenario, base_url, foreign_url, clock, progress)
            return {**success(outcome, clock[0], clock[1]), **progress}
        except Exception as error:
            return {**failure(error, clock[0], clock[1]), **progress}


def judge(scenario: Json, result: Json, main: list[Json], foreign: list[Json]) -> list[str]:
    """The broken promises of a scenario, by the rules of the suite's judge."""
    e = scenario["expect"]
    problems: list[str] = []
    outcome = "ok" if result["ok"] else result.get("kind")
    if outcome != e["outcome"]:
        first = (result["texts"] or [""])[0][:200]
        problems.append(f"outcome {outcome}, want {e['outcome']} ({first})")
    for name in ("status", "code", "retryAfterMs", "bytes", "requestId"):
        if name in e and result.get(name) != e[name]:
            problems.append(f"{name} {result.get(name)}, want {e[name]}")
    if "jobId" in e and result.get("jobId") != e["jobId"]:
        problems.append(f"job id {result.get('jobId')}, want {e['jobId']}")
    if "requests" in e and len(main) != e["requests"]:
        problems.append(f"{len(main)} requests, want {e['requests']}")
    if "foreignRequests" in e and len(foreign) != e["foreignRequests"]:
        problems.append(f"{len(foreign)} requests to the other origin, want {e['foreignRequests']}")
    if "minMs" in e and result["elapsedMs"] < e["minMs"]:
        problems.append(f"took {result['elapsedMs']:.0f} ms, want at least {e['minMs']}")
    max_ms = e.get("maxMs", scenario["action"]["deadlineMs"] + DEADLINE_SLACK_MS)
    if result["elapsedMs"] > max_ms:
        problems.append(f"took {result['elapsedMs']:.0f} ms, want at most {max_ms}")
    last_allowed = result["startedAt"] + scenario["action"]["deadlineMs"] + ARRIVAL_SLACK_MS
    problems.extend(
        f"{r['method']} {r['path']} sent past the deadline" for r in [*main, *foreign] if r["at"] > last_allowed
    )
    if "foreignAuthorization" in e and any(r["authorization"] for r in foreign) != e["foreignAuthorization"]:
        problems.append("the other origin's Authorization is not as expected")
    if "authorization" in e and any(r["authorization"] != e["authorization"] for r in main):
        problems.append("a request to the service's Authorization is not as expected")
    if "caughtAs" in e and sorted(result.get("caughtAs", [])) != sorted(e["caughtAs"]):
        problems.append(f"caught as {sorted(result.get('caughtAs', []))}, want {sorted(e['caughtAs'])}")
    if "items" in e and result.get("items") != e["items"]:
        problems.append(f"items {result.get('items')}, want {e['items']}")
    if "pages" in e and result.get("pages") != e["pages"]:
        problems.append(f"{result.get('pages')} pages, want {e['pages']}")
    for i, want in enumerate(e.get("queries", [])):
        path: str = main[i]["path"] if i < len(main) else ""
        sent: dict[str, str] = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(path).query))
        problems.extend(
            f"request {i + 1} sent {name}={sent.get(name)}, want {name}={value}"
            for name, value in want.items()
            if sent.get(name) != value
        )
    for name, value in e.get("sentFields", {}).items():
        if f'name="{name}"\r\n\r\n{value}\r\n' not in (main[0]["body"] if main else ""):
            problems.append(f"the first request did not send {name}={value}")
    for name, value in e.get("receivedHeaders", {}).items():
        if any(r["headers"].get(name) != value for r in main):
            problems.append(f"a request to the service did not carry {name}: {value}")
    for name, value in e.get("receivedQuery", {}).items():
        if any(urllib.parse.parse_qs(urllib.parse.urlsplit(str(r["path"])).query).get(name) != [value] for r in main):
            problems.append(f"a request to the service did not carry the query {name}={value}")
    if "sentJson" in e:
        sent_json: Json = json.loads(main[0]["body"]) if main and main[0]["body"] else {}
        problems.extend(
            f"the first request's JSON body has {name}: {sent_json.get(name)!r}, want {value!r}"
            for name, value in e["sentJson"].items()
            if sent_json.get(name) != value
        )
    for secret in (TOKEN, SECRET):
        if any(secret in text for text in result["texts"]):
            problems.append("an error text shows " + ("the token" if secret == TOKEN else "a configured secret"))
    return problems


def run_all_sync(urls: dict[str, tuple[str, str]]) -> list[Json]:
    def one(scenario: Json) -> Json:
        return run_sync(scenario, *urls[scenario["name"]])

    with concurrent.futures.ThreadPoolExecutor(max_workers=CONCURRENCY) as pool:
        return list(pool.map(one, SCENARIOS))


async def run_all_async(urls: dict[str, tuple[str, str]]) -> list[Json]:
    gate = asyncio.Semaphore(CONCURRENCY)
    return list(await asyncio.gather(*(run_async(s, *urls[s["name"]], gate) for s in SCENARIOS)))


@pytest.fixture(scope="module")
def verdicts() -> Iterator[dict[tuple[str, str], list[str]]]:
    """Every scenario run once sync (threads) and once async (one event loop), side by side, then judged."""
    server = ScenarioServer()
    found: dict[tuple[str, str], list[str]] = {}
    try:
        for flavor in ("sync", "async"):
            urls = {s["name"]: server.add(flavor, s) for s in SCENARIOS}
            results = run_all_sync(urls) if flavor == "sync" else asyncio.run(run_all_async(urls))
            time.sleep(0.3)  # a request sent just before a deadline is recorded too
            for scenario, result in zip(SCENARIOS, results):
                name = scenario["name"]
                main = server.played[f"main/{flavor}/{name}"].requests
                foreign = server.played[f"foreign/{flavor}/{name}"].requests
                found[(flavor, name)] = judge(scenario, result, main, foreign)
        yield found
    finally:
        server.close()


@pytest.mark.parametrize("flavor", ["sync", "async"])
@pytest.mark.parametrize("name", [s["name"] for s in SCENARIOS])
def test_scenario(verdicts: dict[tuple[str, str], list[str]], flavor: str, name: str) -> None:
    assert verdicts[(flavor, name)] == []
