"""The asyncio runtime, on one pooled ``httpx.AsyncClient``: the twin of sync_runtime.py."""

from __future__ import annotations

import asyncio
import math
import os
from collections.abc import Callable, Mapping
from contextlib import AbstractAsyncContextManager
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

_timeout: Callable[[float], AbstractAsyncContextManager[object]] | None = getattr(asyncio, "timeout", None)
"""``asyncio.timeout`` (Python 3.11 and later), else None (wait_for instead)."""


class AsyncRuntime(BaseRuntime):
    """An asyncio client of the service: one connection pool, kept alive between calls (``aclose()`` releases
    it). One per event loop. Deadlines use asyncio timeouts, so it runs under asyncio.

    ``http_client`` may be an ``httpx.AsyncClient`` of the caller's; it is then not closed by ``aclose()``. Without
    one the environment's proxy settings apply (``trust_env``).
    """

    asynchronous = True

    def __init__(
        self, model: ServiceModel, *, http_client: httpx.AsyncClient | None = None, **options: Unpack[RuntimeOptions]
    ) -> None:
        super().__init__(model, **options)
        self._owns_client = http_client is None
        self._client = (
            http_client if http_client is not None else httpx.AsyncClient(trust_env=True, follow_redirects=False)
        )
        self.client_headers = self._client.headers

    async def aclose(self) -> None:
        if self._owns_client:
            await self._client.aclose()

    def with_options(self, **changes: Unpack[ClientOptions]) -> AsyncRuntime:
        """A copy with other defaults (see ``copy_options``) on this runtime's connection pool, which closing the
        copy leaves open."""
        return AsyncRuntime(self.model, http_client=self._client, **self.copy_options(changes))

    async def __aenter__(self) -> AsyncRuntime:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # -- one call --------------------------------------------------------------------------------------------

    @overload
    async def call(
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
    async def call(
        self,
        operation: OperationSpec,
        call_input: CallInput | None,
        response_type: type[T],
        *,
        base_url: str | None = None,
        headers: Mapping[str, str] | None = None,
        **options: Unpack[RequestOptions],
    ) -> ApiResult[T]: ...

    async def call(
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
        return self.convert(await self._run(call), response_type, call)

    async def _run(self, call: Call, sink: Sink | None = None) -> ApiResult[object]:
        while True:
            pause = self.pacing_wait(call.deadline) if self.pacing else 0.0
            if pause > 0:
                await asyncio.sleep(pause)
            try:
                answer = await self._attempt(call, sink)
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
            await asyncio.sleep(delay)

    async def _attempt(self, call: Call, sink: Sink | None) -> Answer:
        left = call.deadline.remaining()
        if math.isinf(left):
            return await self._exchange(call, sink)
        if _timeout is None:
            try:
                return await asyncio.wait_for(self._exchange(call, sink), timeout=max(0.0, left))
            except asyncio.TimeoutError:
                call.deadline_in_flight()
        if left <= 0:
            # As wait_for with no time left: the exchange is not started.
            call.deadline_in_flight()
        try:
            # A timeout of the running task: no task of its own per attempt, as wait_for makes before Python 3.12
            # (which costs more event loop turns than the rest of the call).
            async with _timeout(left):
                return await self._exchange(call, sink)
        except asyncio.TimeoutError:
            call.deadline_in_flight()

    async def _exchange(self, call: Call, sink: Sink | None) -> Answer:
        request: httpx.Request | None = call.request()
        for _ in range(self.max_redirects + 1):
            assert request is not None
            try:
                response = await self._client.send(request, stream=True, follow_redirects=False)
                try:
                    following = call.redirect(request, response)
                    if following is not None:
                        request = following
                        continue
                    to_sink = sink is not None and 200 <= response.status_code < 300
                    body = bytearray()
                    async for chunk in response.aiter_bytes():
                        if to_sink:
                            assert sink is not None
                            sink.write(chunk)
                        else:
                            body += chunk
                    return Answer(response, bytes(body))
                finally:
                    await response.aclose()
            except httpx.HTTPError:
                if call.deadline.expired():
                    call.deadline_in_flight()
                raise
        raise httpx.TooManyRedirects(f"more than {self.max_redirects} redirects", request=request)

    # -- jobs ------------------------------------------------------------------------------------------------

    async def submit_job(
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
        submitted = await self._run(call)
        envelope = self.submission_envelope(submitted)
        if submitted.meta.status != jobs.submit.still_running_status and is_finished(envelope, jobs):
            return JobResult(
                job_id_of(envelope, jobs) or "", payload_of(envelope, jobs), submitted.meta, 0, submitted.meta
            )
        job_id = self.require_job_id(jobs, envelope, submitted.meta)
        limit.job_id = job_id
        self.raise_if_failed(jobs, envelope, job_id, submitted.meta.status)
        return await self._poll(
            job_id, poll_path(envelope, job_id, jobs), limit, poll_interval, submitted.meta, sleep_first=True
        )

    async def start_job(
        self,
        pipeline: str,
        body: dict[str, object],
        *,
        json_strings: tuple[str, ...] = (),
        deadline: float | None = None,
    ) -> AsyncJobHandle:
        """Submits a job without waiting and returns its handle (``handle.wait()`` for the payload)."""
        jobs = self.check_pipeline(pipeline)
        call_input = self.submission_input(jobs, pipeline, body, json_strings, hold=False)
        submitted = await self._run(self.new_call(jobs.submit.operation, call_input, deadline=deadline))
        envelope = self.submission_envelope(submitted)
        job_id = self.require_job_id(jobs, envelope, submitted.meta)
        self.raise_if_failed(jobs, envelope, job_id, submitted.meta.status)
        return AsyncJobHandle(self, job_id, pipeline, poll_path(envelope, job_id, jobs), submitted.meta)

    async def wait_job(
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
        return await self._poll(job_id, path, limit, poll_interval, None, sleep_first=False)

    async def _poll(
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
                await asyncio.sleep(pause)
                if last:
                    raise limit.error(" before the job completed")
            answer = await self._run(self.new_call(jobs.poll.operation, None, deadline=limit, raw_path=path))
            polls += 1
            envelope = self.poll_envelope(answer, job_id)
            self.log_poll(job_id, polls, envelope)
            if is_finished(envelope, jobs):
                return JobResult(job_id, payload_of(envelope, jobs), answer.meta, polls, submit_meta)
            self.raise_if_failed(jobs, envelope, job_id, answer.meta.status)

    # -- paged reads -----------------------------------------------------------------------------------------

    async def call_at(
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
        return await self._run(call)

    # -- downloads -------------------------------------------------------------------------------------------

    async def download(self, token_or_url: str, *, deadline: float | None = None) -> Download:
        """A result file read whole, by download token or by full URL (another origin gets no credentials)."""
        call = self.download_call(token_or_url, deadline)
        result = await self._run(call)
        content = result.data if isinstance(result.data, bytes) else b""
        return Download(content, *file_facts(result.meta, token_or_url), result.meta)

    async def download_to(
        self, token_or_url: str, path: str | os.PathLike[str], *, deadline: float | None = None
    ) -> SavedFile:
        """A result file streamed to ``path`` (through a temporary file beside it, so ``path`` is never partial)."""
        call = self.download_call(token_or_url, deadline)
        sink = FileSink(path)
        try:
            result = await self._run(call, sink)
            sink.commit()
        except BaseException:
            sink.discard()
            raise
        return SavedFile(sink.path, sink.size, *file_facts(result.meta, token_or_url), result.meta)


class AsyncJobHandle:
    """A job started without waiting: its id at once, and ``await wait()`` for its payload."""

    def __init__(self, runtime: AsyncRuntime, job_id: str, pipeline: str, poll_url: str, meta: ResponseMeta) -> None:
        self.job_id = job_id
        self.pipeline = pipeline
        self.poll_url = poll_url
        self.meta = meta
        self._runtime = runtime

    def __repr__(self) -> str:
        return f"AsyncJobHandle(job_id={self.job_id!r}, pipeline={self.pipeline!r})"

    async def wait(
        self, *, deadline: float | None = None, poll_interval: tuple[float, float] | None = None
    ) -> JobResult[object]:
        return await self._runtime.wait_job(
            self.job_id, deadline=deadline, poll_interval=poll_interval, poll_url=self.poll_url
        )
