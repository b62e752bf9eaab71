"""The blocking runtime, on one pooled ``httpx.Client``."""

from __future__ import annotations

import contextlib
import heapq
import math
import os
import socket
import threading
import time
import weakref
from collections.abc import Iterator, Mapping
from typing import TypeVar, overload

import httpx
from typing_extensions import Unpack

from .base import Answer, ApiResult, BaseRuntime, Call, Sink, file_facts, poll_sleep
from .deadline import Deadline
from .encoding import CallInput
from .envelope import ResponseMeta
from .files import FileSink
from .jobs import (
    Download,
    JobResult,
    SavedFile,
    is_finished,
    job_id_of,
    payload_of,
    poll_path,
    require_jobs,
)
from .model import OperationSpec, ServiceModel
from .options import ClientOptions, RequestOptions, RuntimeOptions
from .raw import note_result

T = TypeVar("T")


class _Watch:
    """One armed deadline: the socket to shut when it passes, unless the call ends first."""

    __slots__ = ("at", "cancelled", "fired", "sock")

    def __init__(self, at: float, sock: socket.socket) -> None:
        self.at = at
        self.sock = sock
        self.fired = False
        self.cancelled = False

    def __lt__(self, other: _Watch) -> bool:
        return self.at < other.at


class _Reaper:
    """One daemon thread for all the watchdogs of the process: it sleeps until the earliest armed deadline and shuts
    that call's socket. Arming and disarming take a lock and a heap operation, not a thread per request."""

    COMPACT_AT = 256
    """Cancelled watches left in the heap before it is rebuilt without them."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._heap: list[_Watch] = []
        self._cancelled = 0
        self._thread: threading.Thread | None = None
        self._wakes_at = math.inf

    def arm(self, at: float, sock: socket.socket) -> _Watch:
        watch = _Watch(at, sock)
        with self._cond:
            heap = self._heap
            if self._cancelled >= self.COMPACT_AT and self._cancelled * 2 >= len(heap):
                heap[:] = [w for w in heap if not w.cancelled]
                heapq.heapify(heap)
                self._cancelled = 0
            heapq.heappush(heap, watch)
            if self._thread is None or not self._thread.is_alive():
                self._wakes_at = math.inf
                self._thread = threading.Thread(target=self._run, name="paperoffice-deadlines", daemon=True)
                self._thread.start()
            elif at < self._wakes_at:
                # The thread sleeps until a later deadline: wake it to sleep until this one.
                self._cond.notify()
        return watch

    def disarm(self, watch: _Watch) -> None:
        with self._cond:
            if not watch.cancelled and not watch.fired:
                watch.cancelled = True
                self._cancelled += 1

    def _run(self) -> None:
        with self._cond:
            heap = self._heap
            while True:
                while heap and heap[0].cancelled:
                    heapq.heappop(heap)
                    self._cancelled -= 1
                if not heap:
                    self._wakes_at = math.inf
                    self._cond.wait()
                    continue
                first = heap[0]
                left = first.at - time.monotonic()
                if left > 0:
                    self._wakes_at = first.at
                    self._cond.wait(left)
                    continue
                heapq.heappop(heap)
                first.fired = True
                with contextlib.suppress(OSError):
                    first.sock.shutdown(socket.SHUT_RDWR)

    def reset(self) -> None:
        """In a child process after fork: the thread did not come along, and the lock may have been held."""
        self._cond = threading.Condition(threading.Lock())
        self._heap = []
        self._cancelled = 0
        self._thread = None
        self._wakes_at = math.inf


_REAPER = _Reaper()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_REAPER.reset)


_CONNECTED = (".connect_tcp.complete", ".connect_unix_socket.complete", ".start_tls.complete")
"""How httpcore's trace events that hand over a new connection's stream end (direct, through a proxy or SOCKS):
armed there, the watchdog bounds the TLS handshake, the request and the response headers too, which a server may
trickle a byte at a time."""

_SENDING = "http11.send_request_headers.started"
"""The pool has given the request its connection: one already open, unless a connect event came first."""


def _socket_of(stream: object) -> socket.socket | None:
    get_extra_info = getattr(stream, "get_extra_info", None)
    sock: object = get_extra_info("socket") if callable(get_extra_info) else None
    return sock if isinstance(sock, socket.socket) else None


class _OpenSockets:
    """The sockets of the connections one runtime's own client opened. A request sent on a connection already open
    is on one of them; when just one is still open, on that one. (HTTP/1.1 carries one request at a time, so an
    open connection that is busy would have made the pool open another.) With more than one open, which one is not
    known, and that request's headers are bounded by the read timeout only, never by shutting a stranger's socket."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # Weak references by id (a WeakSet's iteration guard costs more than the rest of this, once per request):
        # a socket the pool dropped is not kept open by this set.
        self._sockets: dict[int, weakref.ReferenceType[socket.socket]] = {}
        self._complete = True

    def add(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets[id(sock)] = weakref.ref(sock)

    def answered_on(self, sock: socket.socket) -> None:
        """An answer came on ``sock``: one this set never saw (a connect it was not told of) means it is not the
        whole pool, and from then on no request's socket is taken for known."""
        if not self._complete:
            return
        ref = self._sockets.get(id(sock))
        if ref is None or ref() is not sock:
            with self._lock:
                self._complete = False

    def only(self) -> socket.socket | None:
        with self._lock:
            if not self._complete:
                return None
            open_socket: socket.socket | None = None
            for key, ref in list(self._sockets.items()):
                sock = ref()
                if sock is None or sock.fileno() == -1:
                    del self._sockets[key]
                elif open_socket is not None:
                    return None
                else:
                    open_socket = sock
            return open_socket


class _Watchdog:
    """Shuts the connection's socket at the deadline, so that headers or a body trickled byte by byte cannot
    outlast it: every read of a trickle ends well within httpx's read timeout."""

    __slots__ = ("_connected", "_disarmed", "_open", "_watch", "deadline")

    def __init__(self, deadline: Deadline, open_sockets: _OpenSockets | None) -> None:
        self.deadline = deadline
        self._open = open_sockets
        self._connected = False
        self._disarmed = False
        self._watch: _Watch | None = None

    @property
    def fired(self) -> bool:
        return self._watch is not None and self._watch.fired

    def watch(self, request: httpx.Request) -> None:
        """Arms on the request's connection as soon as httpx has one (keeping a trace of the caller's)."""
        extensions = request.extensions
        previous = extensions.get("trace")

        def trace(event: str, info: Mapping[str, object]) -> None:
            if event == _SENDING:
                if not self._connected and self._open is not None:
                    self._arm_on(self._open.only())
                # The connection is known from here on: the request's further events (some ten per request) go
                # to the caller's trace alone, or to none.
                if previous is None:
                    extensions.pop("trace", None)
                else:
                    extensions["trace"] = previous
            elif event.endswith(_CONNECTED):
                self._connected = True
                sock = _socket_of(info.get("return_value"))
                if sock is not None and self._open is not None:
                    self._open.add(sock)
                self._arm_on(sock)
            if callable(previous):
                previous(event, info)

        extensions["trace"] = trace

    def arm(self, response: httpx.Response) -> None:
        sock = _socket_of(response.extensions.get("network_stream"))
        if sock is not None and self._open is not None:
            self._open.answered_on(sock)
        self._arm_on(sock)
        if self._watch is not None and isinstance(response.stream, httpx.SyncByteStream):
            response.stream = _DisarmOnClose(response.stream, self)

    def _arm_on(self, sock: socket.socket | None) -> None:
        if sock is None or math.isinf(self.deadline.at):
            return
        if self._watch is not None:
            if self._watch.sock is sock:
                return
            # TLS wraps the TCP socket in a new one (the old one is detached): watch the one that reads.
            _REAPER.disarm(self._watch)
        self._watch = _REAPER.arm(self.deadline.at, sock)
        self._disarmed = False

    def disarm(self) -> None:
        """Idempotent: the answer's stream disarms when it closes, the attempt once more when it ends."""
        if self._watch is not None and not self._disarmed:
            self._disarmed = True
            _REAPER.disarm(self._watch)


class _DisarmOnClose(httpx.SyncByteStream):
    """An answer's stream that disarms its watchdog before it hands the connection back to the pool. httpx hands it
    back as soon as the body has been read, before the call returns: a deadline passing after that must not shut a
    socket that another call may be sending on by then."""

    def __init__(self, inner: httpx.SyncByteStream, watchdog: _Watchdog) -> None:
        self._inner = inner
        self._watchdog = watchdog

    def __iter__(self) -> Iterator[bytes]:
        yield from self._inner

    def close(self) -> None:
        self._watchdog.disarm()
        self._inner.close()


class SyncRuntime(BaseRuntime):
    """A blocking client of the service: one connection pool, kept alive between calls (``close()`` releases it).

    ``http_client`` may be an ``httpx.Client`` of the caller's (proxies, certificates, event hooks); it is then not
    closed by ``close()``. Without one the environment's proxy settings apply (``trust_env``).
    """

    def __init__(
        self, model: ServiceModel, *, http_client: httpx.Client | None = None, **options: Unpack[RuntimeOptions]
    ) -> None:
        super().__init__(model, **options)
        self._owns_client = http_client is None
        self._client = http_client if http_client is not None else httpx.Client(trust_env=True, follow_redirects=False)
        self.client_headers = self._client.headers
        # A caller's client may hold connections opened outside this runtime: which one a request reuses is then
        # never taken for known.
        self._open_sockets = _OpenSockets() if self._owns_client else None

    def close(self) -> None:
        if self._owns_client:
            self._client.close()

    def with_options(self, **changes: Unpack[ClientOptions]) -> SyncRuntime:
        """A copy with other defaults (see ``copy_options``) on this runtime's connection pool, which closing the
        copy leaves open."""
        copy = SyncRuntime(self.model, http_client=self._client, **self.copy_options(changes))
        copy._open_sockets = self._open_sockets
        return copy

    def __enter__(self) -> SyncRuntime:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- one call --------------------------------------------------------------------------------------------

    @overload
    def call(
        self,
        operation: OperationSpec,
        call_input: CallInput | None = None,
        response_type: None = None,
        *,
        base_url: str | None = None,
        headers: Mapping[str, str] | None = None,
        **options: Unpack[RequestOptions],
    ) -> ApiResult[object]: ...

    @overload
    def call(
        self,
        operation: OperationSpec,
        call_input: CallInput | None,
        response_type: type[T],
        *,
        base_url: str | None = None,
        headers: Mapping[str, str] | None = None,
        **options: Unpack[RequestOptions],
    ) -> ApiResult[T]: ...

    def call(
        self,
        operation: OperationSpec,
        call_input: CallInput | None = None,
        response_type: type[T] | None = None,
        *,
        base_url: str | None = None,
        headers: Mapping[str, str] | None = None,
        **options: Unpack[RequestOptions],
    ) -> ApiResult[T] | ApiResult[object]:
        """One operation with its retries, all within ``deadline`` seconds (default: the runtime's); ``base_url``
        sends this call there instead of the operation's server or the runtime's base address; ``headers`` and
        the RequestOptions (``extra_headers``, ``extra_query``, ``extra_body``, ``timeout``, ``max_retries``,
        ``deadline``) apply to this call only."""
        call = self.new_call(operation, call_input, headers=headers, base_url=base_url, **options)
        return self.convert(self._run(call), response_type, call)

    def _run(self, call: Call, sink: Sink | None = None) -> ApiResult[object]:
        while True:
            pause = self.pacing_wait(call.deadline) if self.pacing else 0.0
            if pause > 0:
                time.sleep(pause)
            try:
                answer = self._attempt(call, sink)
            except httpx.HTTPError as error:
                delay = call.after_transport_error(error)
            else:
                outcome = call.after_answer(answer)
                if isinstance(outcome, ApiResult):
                    note_result(outcome)
                    return outcome
                delay = outcome
            if sink is not None:
                sink.reset()
            time.sleep(delay)

    def _attempt(self, call: Call, sink: Sink | None) -> Answer:
        request: httpx.Request | None = call.request()
        for _ in range(self.max_redirects + 1):
            assert request is not None
            watchdog = _Watchdog(call.deadline, self._open_sockets)
            watchdog.watch(request)
            try:
                response = self._client.send(request, stream=True, follow_redirects=False)
                try:
                    watchdog.arm(response)
                    following = call.redirect(request, response)
                    if following is not None:
                        request = following
                        continue
                    to_sink = sink is not None and 200 <= response.status_code < 300
                    body = bytearray()
                    for chunk in response.iter_bytes():
                        if to_sink:
                            assert sink is not None
                            sink.write(chunk)
                        else:
                            body += chunk
                        if call.deadline.expired():
                            call.deadline_in_flight()
                    # The end of the body may come after the deadline (the last read, the connection handed back).
                    if call.deadline.expired():
                        call.deadline_in_flight()
                    return Answer(response, bytes(body))
                finally:
                    response.close()
            except httpx.HTTPError:
                if watchdog.fired or call.deadline.expired():
                    call.deadline_in_flight()
                raise
            finally:
                watchdog.disarm()
        raise httpx.TooManyRedirects(f"more than {self.max_redirects} redirects", request=request)

    # -- jobs ------------------------------------------------------------------------------------------------

    def submit_job(
        self,
        pipeline: str,
        body: dict[str, object],
        *,
        json_strings: tuple[str, ...] = (),
        deadline: float | None = None,
        poll_interval: tuple[float, float] | None = None,
    ) -> JobResult[object]:
        """Submits a job and waits for its payload: the hold's answer at once, else polling until it completes,
        all within ``deadline`` (default: the runtime's ``job_deadline``)."""
        jobs = self.check_pipeline(pipeline)
        limit = Deadline(self.job_deadline if deadline is None else deadline)
        hold = limit.seconds >= self.deadline
        submit = jobs.submit.operation
        call = self.new_call(submit, self.submission_input(jobs, pipeline, body, json_strings, hold), deadline=limit)
        submitted = self._run(call)
        envelope = self.submission_envelope(submitted)
        if submitted.meta.status != jobs.submit.still_running_status and is_finished(envelope, jobs):
            return JobResult(
                job_id_of(envelope, jobs) or "", payload_of(envelope, jobs), submitted.meta, 0, submitted.meta
            )
        job_id = self.require_job_id(jobs, envelope, submitted.meta)
        limit.job_id = job_id
        self.raise_if_failed(jobs, envelope, job_id, submitted.meta.status)
        return self._poll(
            job_id, poll_path(envelope, job_id, jobs), limit, poll_interval, submitted.meta, sleep_first=True
        )

    def start_job(
        self,
        pipeline: str,
        body: dict[str, object],
        *,
        json_strings: tuple[str, ...] = (),
        deadline: float | None = None,
    ) -> JobHandle:
        """Submits a job without waiting and returns its handle (``handle.wait()`` for the payload)."""
        jobs = self.check_pipeline(pipeline)
        call_input = self.submission_input(jobs, pipeline, body, json_strings, hold=False)
        submitted = self._run(self.new_call(jobs.submit.operation, call_input, deadline=deadline))
        envelope = self.submission_envelope(submitted)
        job_id = self.require_job_id(jobs, envelope, submitted.meta)
        self.raise_if_failed(jobs, envelope, job_id, submitted.meta.status)
        return JobHandle(self, job_id, pipeline, poll_path(envelope, job_id, jobs), submitted.meta)

    def wait_job(
        self,
        job_id: str,
        *,
        deadline: float | None = None,
        poll_interval: tuple[float, float] | None = None,
        poll_url: str | None = None,
    ) -> JobResult[object]:
        """Waits for a job by id (for example one started elsewhere); the first poll is sent at once."""
        jobs = require_jobs(self.model)
        limit = Deadline(self.job_deadline if deadline is None else deadline, job_id=job_id)
        path = poll_url or poll_path({}, job_id, jobs)
        return self._poll(job_id, path, limit, poll_interval, None, sleep_first=False)

    def _poll(
        self,
        job_id: str,
        path: str,
        limit: Deadline,
        poll_interval: tuple[float, float] | None,
        submit_meta: ResponseMeta | None,
        *,
        sleep_first: bool,
    ) -> JobResult[object]:
        jobs = require_jobs(self.model)
        polls = 0
        while True:
            if sleep_first or polls > 0:
                pause, last = poll_sleep(limit, self.pause(poll_interval))
                time.sleep(pause)
                if last:
                    raise limit.error(" before the job completed")
            answer = self._run(self.new_call(jobs.poll.operation, None, deadline=limit, raw_path=path))
            polls += 1
            envelope = self.poll_envelope(answer, job_id)
            self.log_poll(job_id, polls, envelope)
            if is_finished(envelope, jobs):
                return JobResult(job_id, payload_of(envelope, jobs), answer.meta, polls, submit_meta)
            self.raise_if_failed(jobs, envelope, job_id, answer.meta.status)

    # -- paged reads -----------------------------------------------------------------------------------------

    def call_at(
        self,
        operation: OperationSpec,
        call_input: CallInput,
        url: str | None,
        headers: Mapping[str, str],
        deadline: Deadline | None,
    ) -> ApiResult[object]:
        """One page of a paged read: the operation's call, or a GET of ``url``, a next link the pager checked is at
        the operation's origin; ``deadline`` is the whole iteration's, else the runtime's per call."""
        call = self.new_call(operation, call_input, headers=headers, url=url, deadline=deadline)
        return self._run(call)

    # -- downloads -------------------------------------------------------------------------------------------

    def download(self, token_or_url: str, *, deadline: float | None = None) -> Download:
        """A result file read whole, by download token or by full URL (another origin gets no credentials)."""
        call = self.download_call(token_or_url, deadline)
        result = self._run(call)
        content = result.data if isinstance(result.data, bytes) else b""
        return Download(content, *file_facts(result.meta, token_or_url), result.meta)

    def download_to(
        self, token_or_url: str, path: str | os.PathLike[str], *, deadline: float | None = None
    ) -> SavedFile:
        """A result file streamed to ``path`` (through a temporary file beside it, so ``path`` is never partial)."""
        call = self.download_call(token_or_url, deadline)
        sink = FileSink(path)
        try:
            result = self._run(call, sink)
            sink.commit()
        except BaseException:
            sink.discard()
            raise
        return SavedFile(sink.path, sink.size, *file_facts(result.meta, token_or_url), result.meta)


class JobHandle:
    """A job started without waiting: its id at once, and ``wait()`` for its payload."""

    def __init__(self, runtime: SyncRuntime, job_id: str, pipeline: str, poll_url: str, meta: ResponseMeta) -> None:
        self.job_id = job_id
        self.pipeline = pipeline
        self.poll_url = poll_url
        self.meta = meta
        self._runtime = runtime

    def __repr__(self) -> str:
        return f"JobHandle(job_id={self.job_id!r}, pipeline={self.pipeline!r})"

    def wait(
        self, *, deadline: float | None = None, poll_interval: tuple[float, float] | None = None
    ) -> JobResult[object]:
        return self._runtime.wait_job(
            self.job_id, deadline=deadline, poll_interval=poll_interval, poll_url=self.poll_url
        )
