"""Against real HTTP servers on 127.0.0.1: connection pooling, trickled bodies and deadlines, redirects across
origins, and a download streamed to a file. Sync and async."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from httpx._transports import default as transports

from paperoffice_runtime import (
    AsyncRuntime,
    CallInput,
    DeadlineExceededError,
    JobMayExistError,
    MayHaveBeenProcessedError,
    OperationSpec,
    RetryPolicy,
    SdkError,
    SyncRuntime,
    sync_runtime,
)

from .conftest import Runtime, make_model

PING = OperationSpec("ping", "GET", "/ping", security=(("bearerAuth",),))
TRICKLE = OperationSpec("trickle", "GET", "/trickle", security=(("bearerAuth",),))
TRICKLE_POST = OperationSpec("tricklePost", "POST", "/trickle", "application/json", security=(("bearerAuth",),))
REDIRECT = OperationSpec("redirect", "GET", "/redirect", security=(("headerKey",),))
SLOW = OperationSpec("slow", "GET", "/slow", security=(("bearerAuth",),))
SLOW_SECONDS = 1.0
STALL_BODY = OperationSpec("stallBody", "GET", "/stall-body", security=(("bearerAuth",),))
TRICKLE_HEADERS = OperationSpec("trickleHeaders", "GET", "/trickle-headers", security=(("bearerAuth",),))

HEADER_TRICKLE = b"HTTP/1.1 200 OK\r\nX-Padding: " + b"p" * 10 + b"\r\n"
"""Sent one byte per 200 ms (8 s in all) before the rest of the answer: no single read waits long."""

TRICKLE_BYTES = 200
TRICKLE_GAP = 0.1
"""A trickled body takes 20 s in all: far longer than any deadline here."""


@dataclass
class Log:
    connections: int = 0
    requests: list[dict[str, Any]] = field(default_factory=lambda: [])
    lock: threading.Lock = field(default_factory=threading.Lock)


def serve(log: Log, other: list[str], port: int = 0) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def setup(self) -> None:
            super().setup()
            with log.lock:
                log.connections += 1

        def log_message(self, format: str, *args: object) -> None:
            pass

        def _answer(self, status: int, body: bytes, **headers: str) -> None:
            self.send_response(status)
            for name, value in {"Content-Length": str(len(body)), **headers}.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def _record(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            with log.lock:
                log.requests.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}})

        def do_POST(self) -> None:
            self.do_GET()

        def do_GET(self) -> None:
            self._record()
            path = self.path.split("?", 1)[0]
            if path.endswith("/trickle"):
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(TRICKLE_BYTES))
                self.end_headers()
                try:
                    for _ in range(TRICKLE_BYTES):
                        self.wfile.write(b" ")
                        self.wfile.flush()
                        time.sleep(TRICKLE_GAP)
                except OSError:
                    pass
                self.close_connection = True
            elif path.endswith("/stall-body"):
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.flush()
                time.sleep(len(HEADER_TRICKLE) * TRICKLE_GAP * 2)
                with contextlib.suppress(OSError):
                    self.wfile.write(b"{}")
            elif path.endswith("/trickle-headers") or "/job/get/" in path:
                try:
                    for byte in HEADER_TRICKLE:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(TRICKLE_GAP * 2)
                    self.wfile.write(b"Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
                except OSError:
                    pass
                self.close_connection = True
            elif path.endswith("/slow"):
                time.sleep(SLOW_SECONDS)
                self._answer(200, b'{"status": "success"}', **{"Content-Type": "application/json"})
            elif path.endswith("/redirect"):
                target = other[0] + "/landing" if "foreign" in self.path else "/v1/landing"
                self._answer(302, b"", Location=target)
            elif path.endswith("/file"):
                self._answer(200, b"0123456789" * 50000, **{"Content-Type": "application/pdf"})
            else:
                self._answer(
                    200,
                    json.dumps({"status": "success", "path": self.path}).encode(),
                    **{"Content-Type": "application/json"},
                )

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server


@dataclass
class Servers:
    main: Log
    other: Log
    base_url: str
    other_url: str


@pytest.fixture
def servers() -> Iterator[Servers]:
    other_url: list[str] = []
    main_log, other_log = Log(), Log()
    main = serve(main_log, other_url)
    foreign = serve(other_log, [])
    other_url.append(f"http://127.0.0.1:{foreign.server_address[1]}")
    # Another origin: the same host by another name.
    other_url[0] = other_url[0].replace("127.0.0.1", "localhost")
    yield Servers(main_log, other_log, f"http://127.0.0.1:{main.server_address[1]}/v1", other_url[0])
    for server in (main, foreign):
        server.shutdown()
        server.server_close()


def runtime_for(flavor: str, servers: Servers, **options: Any) -> SyncRuntime | AsyncRuntime:
    settings: dict[str, Any] = {
        "base_url": servers.base_url,
        "token": "tok-main-1",
        "api_key": "key-main-2",
        "environ": {},
        "retry": RetryPolicy(max_retries=0),
        **options,
    }
    if flavor == "sync":
        return SyncRuntime(make_model(), **settings)
    return AsyncRuntime(make_model(), **settings)


def use(flavor: str, servers: Servers, action: Callable[[Runtime], Any], **options: Any) -> Any:
    """Runs ``action`` with a runtime of the flavor (awaiting it for async, in one event loop), then closes it."""
    runtime = runtime_for(flavor, servers, **options)
    if isinstance(runtime, SyncRuntime):
        with runtime:
            return action(runtime)

    async def run(runtime: AsyncRuntime) -> Any:
        async with runtime:
            return await action(runtime)

    return asyncio.run(run(runtime))


def test_one_connection_for_a_hundred_sequential_calls_sync(servers: Servers) -> None:
    runtime = runtime_for("sync", servers)
    assert isinstance(runtime, SyncRuntime)
    with runtime:
        for _ in range(100):
            runtime.call(PING)
    assert servers.main.connections == 1 and len(servers.main.requests) == 100


def test_one_connection_for_a_hundred_sequential_calls_async(servers: Servers) -> None:
    async def run() -> None:
        runtime = runtime_for("async", servers)
        assert isinstance(runtime, AsyncRuntime)
        async with runtime:
            for _ in range(100):
                await runtime.call(PING)

    asyncio.run(run())
    assert servers.main.connections == 1 and len(servers.main.requests) == 100


def test_sequential_calls_share_one_deadline_thread(servers: Servers) -> None:
    """Each attempt's deadline watchdog is an entry in one shared thread's heap, not a thread of its own; disarmed
    entries do not pile up over many calls."""
    runtime = runtime_for("sync", servers)
    assert isinstance(runtime, SyncRuntime)
    before = {thread.ident for thread in threading.enumerate()}
    with runtime:
        for _ in range(700):
            runtime.call(PING)
    started = [thread for thread in threading.enumerate() if thread.ident not in before]
    watchers = [thread for thread in threading.enumerate() if thread.name == "paperoffice-deadlines"]
    assert len(watchers) == 1 and len(started) <= 1
    pending = len(sync_runtime._REAPER._heap)  # pyright: ignore[reportPrivateUsage]
    assert pending <= 2 * sync_runtime._Reaper.COMPACT_AT + 1  # pyright: ignore[reportPrivateUsage]


def test_a_deadline_after_its_answer_never_shuts_the_next_call_on_that_connection(
    servers: Servers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """httpx hands a connection back to the pool once the body is read, before the call returns: the call's deadline
    watchdog is disarmed first. Here the first call is held right after that hand-back until the next call waits on
    the same connection and the first call's deadline has passed; the next call still gets its answer."""
    runtime = runtime_for("sync", servers)
    assert isinstance(runtime, SyncRuntime)
    release = transports.ResponseStream.close
    outcome: list[object] = []
    threads: list[threading.Thread] = []

    def call_again() -> None:
        try:
            outcome.append(runtime.call(SLOW, deadline=30).data)
        except Exception as error:
            outcome.append(error)

    def release_then_hold(stream: Any) -> None:
        release(stream)
        if threads:
            return
        threads.append(threading.Thread(target=call_again))
        threads[0].start()
        while len(servers.main.requests) < 2:
            time.sleep(0.01)
        time.sleep(0.5)

    monkeypatch.setattr(transports.ResponseStream, "close", release_then_hold)
    with runtime:
        # Held past its deadline, the first call ends with it; the point is the next call.
        with pytest.raises(DeadlineExceededError):
            runtime.call(PING, deadline=0.3)
        threads[0].join(30)
    assert outcome == [{"status": "success"}]
    assert servers.main.connections == 1


DEADLINE = 1.0
MARGIN = 4.0
"""Generous: a busy 2-core machine may be late by seconds, but a trickled body takes 20 s."""


def timed(flavor: str, servers: Servers, operation: OperationSpec, **call: Any) -> tuple[BaseException, float]:
    started = time.monotonic()
    with pytest.raises(Exception) as caught:
        use(flavor, servers, lambda runtime: runtime.call(operation, **call))
    return caught.value, time.monotonic() - started


def test_trickled_body_ends_at_the_deadline(servers: Servers, flavor: str) -> None:
    error, took = timed(flavor, servers, TRICKLE, deadline=DEADLINE)
    assert isinstance(error, DeadlineExceededError), repr(error)
    assert DEADLINE * 0.9 <= took < DEADLINE + MARGIN


def test_trickled_answer_to_a_write_may_have_been_processed(servers: Servers, flavor: str) -> None:
    error, took = timed(flavor, servers, TRICKLE_POST, call_input=CallInput(body={"a": 1}), deadline=DEADLINE)
    assert isinstance(error, MayHaveBeenProcessedError) and not isinstance(error, JobMayExistError), repr(error)
    assert isinstance(error.__cause__, DeadlineExceededError)
    assert DEADLINE * 0.9 <= took < DEADLINE + MARGIN


HEADER_DEADLINE = 1.5
HEADER_MARGIN = 1.5
"""The trickled headers take 8 s: a call that outlasts its deadline by more than this did not end at it."""


def test_trickled_headers_end_at_the_deadline(servers: Servers, flavor: str) -> None:
    """Each header byte comes long before any read timeout, so only a bound on the whole call ends it."""
    error, took = timed(flavor, servers, TRICKLE_HEADERS, deadline=HEADER_DEADLINE)
    assert isinstance(error, DeadlineExceededError), repr(error)
    assert HEADER_DEADLINE * 0.9 <= took < HEADER_DEADLINE + HEADER_MARGIN


def test_a_stall_after_the_headers_ends_at_the_deadline(servers: Servers, flavor: str) -> None:
    error, took = timed(flavor, servers, STALL_BODY, deadline=HEADER_DEADLINE)
    assert isinstance(error, DeadlineExceededError), repr(error)
    assert HEADER_DEADLINE * 0.9 <= took < HEADER_DEADLINE + HEADER_MARGIN


def test_a_job_wait_whose_poll_trickles_its_headers_ends_at_the_deadline(servers: Servers, flavor: str) -> None:
    started = time.monotonic()
    with pytest.raises(DeadlineExceededError) as caught:
        use(flavor, servers, lambda runtime: runtime.wait_job("job_h1", deadline=HEADER_DEADLINE))
    took = time.monotonic() - started
    assert caught.value.job_id == "job_h1"
    assert HEADER_DEADLINE * 0.9 <= took < HEADER_DEADLINE + HEADER_MARGIN
    assert [r["path"] for r in servers.main.requests] == ["/v1/job/get/job_h1"]


def test_trickled_headers_on_a_kept_alive_connection_end_at_the_deadline(servers: Servers, flavor: str) -> None:
    """The same on a connection the pool already holds; the next call then gets its answer on a sound one."""
    runtime = runtime_for(flavor, servers)
    outcome: list[object] = []

    def deadline_call(call: Callable[[], object]) -> None:
        started = time.monotonic()
        try:
            call()
        except Exception as error:
            outcome.append(error)
        outcome.append(time.monotonic() - started)

    if isinstance(runtime, SyncRuntime):
        with runtime:
            runtime.call(PING)
            deadline_call(lambda: runtime.call(TRICKLE_HEADERS, deadline=HEADER_DEADLINE))
            outcome.append(runtime.call(PING).data)
    else:
        assert isinstance(runtime, AsyncRuntime)

        async def run(runtime: AsyncRuntime) -> None:
            async with runtime:
                await runtime.call(PING)
                started = time.monotonic()
                try:
                    await runtime.call(TRICKLE_HEADERS, deadline=HEADER_DEADLINE)
                except Exception as error:
                    outcome.append(error)
                outcome.append(time.monotonic() - started)
                outcome.append((await runtime.call(PING)).data)

        asyncio.run(run(runtime))
    assert servers.main.connections == 2, "the trickled call reused the first call's connection, then was dropped"
    error, took, data = outcome
    assert isinstance(error, DeadlineExceededError), repr(error)
    assert isinstance(took, float) and HEADER_DEADLINE * 0.9 <= took < HEADER_DEADLINE + HEADER_MARGIN
    assert isinstance(data, dict) and data["status"] == "success"


def test_a_reused_connection_is_taken_for_known_only_when_it_is_the_one_open(servers: Servers) -> None:
    """With two connections open, a request on one of them arms no watchdog before its headers: it might shut the
    socket another call is reading."""
    runtime = runtime_for("sync", servers)
    assert isinstance(runtime, SyncRuntime)
    open_sockets = runtime._open_sockets  # pyright: ignore[reportPrivateUsage]
    assert open_sockets is not None
    with runtime:
        runtime.call(PING)
        first = open_sockets.only()
        assert first is not None and first.fileno() != -1
        calls = [threading.Thread(target=lambda: runtime.call(SLOW, deadline=30)) for _ in range(2)]
        for call in calls:
            call.start()
        for call in calls:
            call.join(30)
        assert servers.main.connections == 2
        assert open_sockets.only() is None
    assert open_sockets.only() is None
    with httpx.Client() as client:
        custom = SyncRuntime(make_model(), http_client=client, base_url=servers.base_url, environ={})
        assert custom._open_sockets is None  # pyright: ignore[reportPrivateUsage]


def test_an_answer_on_a_socket_never_seen_stops_taking_reused_connections_for_known() -> None:
    """A connect the runtime was not told of would leave the pool's sockets a superset of the known ones."""
    known = sync_runtime._OpenSockets()  # pyright: ignore[reportPrivateUsage]
    with socket.socket() as first, socket.socket() as stranger:
        known.add(first)
        known.answered_on(first)
        assert known.only() is first
        known.answered_on(stranger)
        assert known.only() is None


def test_a_refused_connection_is_retried_even_for_a_write(flavor: str) -> None:
    """Nothing reached a server that was not listening yet, so a POST is sent again once it listens: once."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port: int = probe.getsockname()[1]
    probe.close()
    log = Log()
    started: list[ThreadingHTTPServer] = []

    def listen_later() -> None:
        time.sleep(1.0)
        started.append(serve(log, [], port))

    # Started once the runtime is built, right before the call: on a busy machine building it can take longer than
    # the delay, and the first attempt would then find the server listening.
    listener = threading.Thread(target=listen_later)
    create = OperationSpec("thingCreate", "POST", "/things", "application/json", security=(("bearerAuth",),))
    settings: dict[str, Any] = {
        "base_url": f"http://127.0.0.1:{port}/v1",
        "token": "tok-main-1",
        "environ": {},
        "retry": RetryPolicy(max_retries=10, base_delay=0.1, max_delay=0.5),
    }
    try:
        if flavor == "sync":
            with SyncRuntime(make_model(), **settings) as runtime:
                listener.start()
                result = runtime.call(create, CallInput(body={"a": 1}))
        else:

            async def run() -> Any:
                async with AsyncRuntime(make_model(), **settings) as runtime:
                    listener.start()
                    return await runtime.call(create, CallInput(body={"a": 1}))

            result = asyncio.run(run())
    finally:
        if listener.is_alive() or listener.ident is not None:
            listener.join()
        for server in started:
            server.shutdown()
            server.server_close()
    assert result.data == {"status": "success", "path": "/v1/things"}
    assert result.meta.request_count >= 2 and [r["path"] for r in log.requests] == ["/v1/things"]


def test_redirect_to_another_origin_gets_no_credentials(servers: Servers, flavor: str) -> None:
    result = use(flavor, servers, lambda runtime: runtime.call(REDIRECT, CallInput(query={"to": "foreign"})))
    assert isinstance(result.data, dict)
    assert [r["path"] for r in servers.main.requests] == ["/v1/redirect?to=foreign"]
    landed = servers.other.requests[0]
    assert landed["path"] == "/landing"
    assert "x-api-key" not in landed["headers"] and "authorization" not in landed["headers"]
    assert "key-main-2" not in json.dumps(landed) and "tok-main-1" not in json.dumps(landed)


def test_redirect_within_the_origin_keeps_credentials(servers: Servers, flavor: str) -> None:
    use(flavor, servers, lambda runtime: runtime.call(REDIRECT, CallInput(query={"to": "same"})))
    assert [r["path"] for r in servers.main.requests] == ["/v1/redirect?to=same", "/v1/landing"]
    assert servers.main.requests[1]["headers"]["x-api-key"] == "key-main-2"
    assert servers.other.requests == []


def test_download_to_file_from_a_real_server(servers: Servers, flavor: str, tmp_path: Path) -> None:
    saved = use(flavor, servers, lambda runtime: runtime.download_to(servers.other_url + "/file", tmp_path / "f.pdf"))
    assert saved.size == 500000 and (tmp_path / "f.pdf").read_bytes() == b"0123456789" * 50000
    assert "authorization" not in servers.other.requests[0]["headers"]


@pytest.mark.parametrize("value", ["", ".", ".."])
def test_an_empty_or_dot_path_parameter_reaches_no_server(servers: Servers, flavor: str, value: str) -> None:
    thing = OperationSpec("thingGet", "GET", "/things/{id}", security=(("bearerAuth",),))
    with pytest.raises(SdkError, match=r'^thingGet: path parameter id must not be empty, "\." or "\.\."$'):
        use(flavor, servers, lambda runtime: runtime.call(thing, CallInput(path={"id": value})))
    assert servers.main.requests == [] and servers.main.connections == 0


def test_a_percent_encoded_dot_path_parameter_is_sent_as_a_plain_segment(servers: Servers, flavor: str) -> None:
    thing = OperationSpec("thingGet", "GET", "/things/{id}", security=(("bearerAuth",),))
    use(flavor, servers, lambda runtime: runtime.call(thing, CallInput(path={"id": "%2e%2e"})))
    assert [request["path"] for request in servers.main.requests] == ["/v1/things/%252e%252e"]
