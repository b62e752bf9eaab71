"""The work of one call, counted rather than timed: what stays the same from call to call is worked out once, the
deadline watchdog follows only the events it needs, the asyncio deadline runs no task of its own, and importing
the runtime leaves asyncio out until it is used."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from paperoffice_runtime import AsyncRuntime, CallInput, OperationSpec, SyncRuntime, answers, facts, sync_runtime

from .conftest import MakeRuntime, Recorder, json_answer, make_model
from .test_server import PING, Servers, runtime_for, servers

__all__ = ["servers"]  # the fixture, used by name

CALLS = 5
THING = OperationSpec(
    "thingGet", "GET", "/things/{id}", security=(("bearerAuth",),), answers=((200, ("application/json",)),)
)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Counts the calls of the functions that work out an operation's facts and a call's credentials."""
    counts: Counter[str] = Counter()

    def counting(module: Any, name: str) -> None:
        original: Callable[..., Any] = getattr(module, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            counts[name] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, wrapper)

    for name in ("accept_header", "body_kind", "declared_kind", "is_resendable", "split_path"):
        counting(facts, name)
    counting(answers, "kind_of_declared")
    yield counts


def ok(request: httpx.Request) -> httpx.Response:
    return json_answer(200, {"status": "success", "id": request.url.path.rsplit("/", 1)[-1]})


def calls(runtime: Any, operation: OperationSpec, count: int) -> None:
    """``count`` calls of ``operation``, each with another path parameter."""
    if isinstance(runtime, AsyncRuntime):

        async def run() -> None:
            for index in range(count):
                await runtime.call(operation, CallInput(path={"id": f"t{index}"}))

        asyncio.run(run())
        return
    for index in range(count):
        runtime.call(operation, CallInput(path={"id": f"t{index}"}))


def test_an_operations_facts_are_worked_out_on_its_first_call_only(
    make_runtime: MakeRuntime, counted: Counter[str]
) -> None:
    operation = OperationSpec(
        "thingGet", "GET", "/things/{id}", security=(("bearerAuth",),), answers=((200, ("application/json",)),)
    )
    recorder = Recorder([ok])
    calls(make_runtime(recorder), operation, CALLS)
    assert [request.url.path for request in recorder.requests] == [f"/v1/things/t{i}" for i in range(CALLS)]
    assert all(request.headers["accept"] == "application/json" for request in recorder.requests)
    assert counted == {
        "accept_header": 1,
        "is_resendable": 1,
        "split_path": 1,
        "body_kind": 1,
        "declared_kind": 1,
        "kind_of_declared": 1,
    }


def test_an_answer_of_another_content_type_is_worked_out_again(make_runtime: MakeRuntime) -> None:
    """The answer kind is remembered per status and Content-Type: a text answer after JSON ones is still refused
    where the operation declares JSON only, and read as JSON again after it."""
    operation = OperationSpec(
        "thingGet", "GET", "/things/{id}", security=(("bearerAuth",),), answers=((200, ("application/json",)),)
    )

    def text(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=b"plain", headers={"Content-Type": "text/plain"})

    runtime = make_runtime(Recorder([ok, text, ok]))
    calls(runtime, operation, 1)
    with pytest.raises(Exception, match="a body of type text/plain, where the description declares application/json"):
        calls(runtime, operation, 1)
    calls(runtime, operation, 1)


def test_fixed_credentials_are_chosen_once_per_security_requirement(
    make_runtime: MakeRuntime, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = make_runtime(Recorder([ok]))
    chosen: list[object] = []
    original = type(runtime.credentials)._choose  # pyright: ignore[reportPrivateUsage]

    def choose(self: Any, security: Any, operation: str) -> Any:
        chosen.append(security)
        return original(self, security, operation)

    monkeypatch.setattr(type(runtime.credentials), "_choose", choose)
    calls(runtime, THING, CALLS)
    assert chosen == [THING.security]


def test_a_token_provider_is_asked_before_every_request(make_runtime: MakeRuntime) -> None:
    asked: list[int] = []

    def token() -> str:
        asked.append(1)
        return f"po_sk_live{len(asked):010d}"

    recorder = Recorder([ok])
    calls(make_runtime(recorder, token=token), THING, CALLS)
    assert len(asked) == CALLS
    assert [r.headers["authorization"] for r in recorder.requests] == [
        f"Bearer po_sk_live{i:010d}" for i in range(1, CALLS + 1)
    ]


def test_the_watchdog_follows_a_request_only_until_it_has_its_connection(
    servers: Servers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The watchdog's trace sees the connect events and the start of sending, then leaves the request: a call on a
    connection already open reaches it twice (sending the headers started and completed), not once per event of
    the request (some ten)."""
    runtime = runtime_for("sync", servers)
    assert isinstance(runtime, SyncRuntime)
    seen: list[str] = []
    original = sync_runtime._Watchdog.watch  # pyright: ignore[reportPrivateUsage]

    def watch(self: Any, request: httpx.Request) -> None:
        original(self, request)
        trace = request.extensions["trace"]

        def counting(event: str, info: Any) -> None:
            seen.append(event)
            trace(event, info)

        request.extensions["trace"] = counting

    with runtime:
        runtime.call(PING)
        monkeypatch.setattr(sync_runtime._Watchdog, "watch", watch)  # pyright: ignore[reportPrivateUsage]
        for _ in range(CALLS):
            runtime.call(PING)
    assert seen == ["http11.send_request_headers.started", "http11.send_request_headers.complete"] * CALLS
    assert servers.main.connections == 1


@pytest.mark.skipif(sys.version_info < (3, 11), reason="asyncio.timeout is Python 3.11's")
def test_an_async_call_under_a_deadline_runs_in_the_callers_task(servers: Servers) -> None:
    """The deadline of an asyncio attempt is a timeout of the caller's task, not a task of its own per attempt
    (asyncio.wait_for's before Python 3.12): the request is sent from the task that made the call."""
    senders: list[object] = []

    async def hook(request: httpx.Request) -> None:
        senders.append(asyncio.current_task())

    async def run() -> object:
        client = httpx.AsyncClient(event_hooks={"request": [hook]})
        runtime = AsyncRuntime(make_model(), base_url=servers.base_url, token="t", environ={}, http_client=client)
        async with client, runtime:
            for _ in range(CALLS):
                await runtime.call(PING)
        return asyncio.current_task()

    caller = asyncio.run(run())
    assert senders == [caller] * CALLS


def test_importing_the_runtime_leaves_asyncio_out_until_it_is_used() -> None:
    code = (
        "import sys, paperoffice_runtime as rt; before = 'asyncio' in sys.modules; rt.AsyncRuntime;"
        " print(before, 'asyncio' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True"]
