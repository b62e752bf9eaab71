"""What the sync and async runtimes share: configuration, request building, credentials, the retry decisions after
each attempt, answer parsing and error mapping. The two runtimes add only the I/O: sending, reading bodies under
the deadline, and sleeping."""

from __future__ import annotations

import dataclasses
import difflib
import functools
import json
import logging
import os
import random
import re
import time
import urllib.parse
import uuid
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, NoReturn, Protocol, TypeVar, cast

import httpx
import pydantic

from .answers import declared_text
from .base_url import operation_base_url, resolve_base_url
from .credentials import AppliedCredentials, BasicCredentials, Credential, Credentials, TokenProvider
from .deadline import Deadline
from .encoding import CallInput, encode_body, fill_path_parts, parameter_text, plain, query_pairs
from .envelope import (
    ErrorMapper,
    ResponseMeta,
    as_record,
    build_meta,
    decode_json,
    is_error_body,
    next_request_seconds,
    request_id_of,
)
from .errors import (
    APIConnectionError,
    DeadlineExceededError,
    JobFailedError,
    JobMayExistError,
    MalformedResponseError,
    SdkError,
    ServiceError,
    answered_may_have_been_processed,
    may_have_been_processed,
)
from .jobs import (
    Download,
    JobResult,
    download_target,
    failure_status,
    file_name_from_disposition,
    job_id_of,
    require_jobs,
)
from .lenient import construct
from .log import logged_headers, logger_from_env
from .model import JobsModel, OperationSpec, ServiceModel
from .options import ClientOptions, RuntimeOptions
from .parsing import adapter_for, adapter_of, charset_of
from .redact import Redactor
from .retry import RetryPolicy, backoff_delay, retry_delay, verdict_for_network, verdict_for_status
from .user_agent import user_agent_of
from .variants import check_exactly_one, variant_of

T = TypeVar("T")

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
DEFAULT_DEADLINE = 600.0
"""Seconds of one call, retries included: above the longest hold of a job submission."""
DEFAULT_JOB_DEADLINE = 3600.0
DEFAULT_TIMEOUT = 330.0
"""Seconds of one socket operation (connect, one read, one write), within the call's deadline."""
CHUNK_SIZE = 64 * 1024
RETRY_KEYWORDS = frozenset({"max_retries", "base_delay", "max_delay", "max_retry_after"})
"""The keywords of ClientOptions that make up its RetryPolicy."""
LAST_POLL_BEFORE_DEADLINE = 1.0


@dataclass(frozen=True)
class ApiResult(Generic[T]):
    data: T
    meta: ResponseMeta
    response: httpx.Response | None = None
    """The HTTP answer the data came from (its body already read: ``content``), when there was one."""
    content: bytes = b""
    """The answer's body as it arrived (empty when it went to a file)."""


@dataclass(frozen=True)
class Answer:
    """One complete answer: status, headers and the body (empty when it went to a sink)."""

    response: httpx.Response
    body: bytes


class Sink(Protocol):
    """Where the body of a successful download goes, chunk by chunk; ``reset`` before a retry starts over."""

    def write(self, chunk: bytes) -> object: ...

    def reset(self) -> None: ...


@functools.lru_cache(maxsize=256)
def origin_of(url: str) -> tuple[str, str, int]:
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    return scheme, (parts.hostname or "").lower(), parts.port or (443 if scheme == "https" else 80)


def _put_header(headers: dict[str, tuple[str, str]], name: str, value: str) -> None:
    """Sets a header of a map by lower-case name, replacing any of the same name in another case (at the end)."""
    key = name.lower()
    headers.pop(key, None)
    headers[key] = (name, value)


def _set_header(headers: dict[str, str], name: str, value: str) -> None:
    """Sets a header, replacing any of the same name in another case."""
    for key in [k for k in headers if k.lower() == name.lower()]:
        del headers[key]
    headers[name] = value


def poll_sleep(deadline: Deadline, pause: float) -> tuple[float, bool]:
    """The sleep before a poll, and whether the wait ends at the deadline after it. When the regular poll would
    fall after the deadline, one last poll is sent shortly before it (unless that would follow the previous poll by
    less than half an interval): the wait never gives up a whole interval early."""
    left = deadline.remaining()
    reserve = min(LAST_POLL_BEFORE_DEADLINE, pause / 4)
    if pause < left - reserve:
        return pause, False
    if left - reserve >= pause / 2:
        return left - reserve, False
    return max(0.0, left), True


class Call:
    """One call with its retries: the request of each attempt and the decision after it. No I/O."""

    def __init__(
        self,
        runtime: BaseRuntime,
        operation: OperationSpec,
        call_input: CallInput,
        deadline: Deadline,
        *,
        max_retries: int | None = None,
        headers: Mapping[str, str] | None = None,
        raw_path: str | None = None,
        url: str | None = None,
        base_url: str | None = None,
        extra_query: Mapping[str, object] | None = None,
        extra_body: Mapping[str, object] | None = None,
        timeout: float | None = None,
        idempotency_key: str | None = None,
    ) -> None:
        self.runtime = runtime
        self.operation = operation
        self.input = call_input
        self.deadline = deadline
        self.label = operation.operation_id
        facts = operation.facts
        self.resendable = facts.resendable
        self.job_submission = operation.job == "submit"
        self.max_retries = runtime.retry.max_retries if max_retries is None else max_retries
        if self.max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        self.extra_headers = dict(headers or {})
        self.idempotency = idempotency_header(operation, idempotency_key, self.extra_headers)
        self.extra_query = query_pairs(extra_query or {})
        self.timeout = runtime.timeout if timeout is None else timeout
        if self.timeout is not None and not self.timeout > 0:
            raise ValueError(f"{operation.operation_id}: timeout must be a positive number of seconds")
        self.attempts = 0
        self.retries = 0
        self.rotated = False
        self.sent_at = 0.0
        # Credentials belong to the origin of the call's base address: the operation's own server's, when it has one.
        self.base_url = (
            runtime.base_url
            if url is not None
            else operation_base_url(operation, runtime.base_url, runtime.base_url_given, base_url)
        )
        self.url = (
            url
            if url is not None
            else self.base_url
            + (
                raw_path
                if raw_path is not None
                else fill_path_parts(facts.path_parts, call_input.path, operation.operation_id)
            )
        )
        self.own_origin = origin_of(self.url) == origin_of(self.base_url)
        json_strings = list(call_input.json_strings)
        body = call_input.body if extra_body is None else with_extra_body(operation, call_input.body, extra_body)
        self.body = encode_body(operation.request_media_type, body, json_strings)

    @property
    def job_id(self) -> str | None:
        return self.deadline.job_id

    def request(self) -> httpx.Request:
        """The request of the next attempt; raises when the deadline passed or a credential is missing."""
        self.deadline.check()
        credentials = (
            self.runtime.credentials.apply(self.operation.security, self.label)
            if self.own_origin
            else AppliedCredentials()
        )
        self.deadline.check()
        self.attempts += 1
        request = self._build(self.url, credentials)
        self.sent_at = time.monotonic()
        log = self.runtime.log
        if log is not None and log.isEnabledFor(logging.DEBUG):
            headers = self.runtime.logged_headers(request.headers.items())
            log.debug("request %s %s %s attempt %d, headers %s", *self._where(), headers)
        return request

    def _where(self) -> tuple[str, str, str, int]:
        """What a log entry names the attempt by: the operation, method, path template (never the URL) and attempt."""
        return (self.label, self.operation.method, self.operation.path, self.attempts)

    def _build(self, url: str, credentials: AppliedCredentials, method: str | None = None) -> httpx.Request:
        """The request to ``url``; the call's query parameters go only to its own URL, not to a redirect's."""
        runtime = self.runtime
        # By lower-case name: (name, value); a header set again replaces one of the same name in any case.
        headers: dict[str, tuple[str, str]] = {}
        facts = self.operation.facts
        accept = facts.accept
        if accept is not None:
            headers["accept"] = ("Accept", accept)
        headers["user-agent"] = ("User-Agent", runtime.user_agent)
        for name, value in runtime.headers.items():
            _put_header(headers, name, value)
        for name, raw in self.input.headers.items():
            if raw is not None:
                _put_header(headers, name, parameter_text(raw))
        for name, value in self.extra_headers.items():
            _put_header(headers, name, value)
        if self.idempotency is not None:
            _put_header(headers, *self.idempotency)
        cookies = [
            f"{urllib.parse.quote(name)}={urllib.parse.quote(parameter_text(value), safe='')}"
            for name, value in self.input.cookies.items()
            if value is not None
        ]
        cookies.extend(credentials.cookies)
        if cookies:
            _put_header(headers, "Cookie", "; ".join(cookies))
        if self.body.content_type is not None:
            _put_header(headers, "Content-Type", self.body.content_type)
        for name, value in credentials.headers.items():
            _put_header(headers, name, value)
        pairs = query_pairs(self.input.query) if method is None else []
        if self.extra_query and method is None:
            replaced = {name for name, _ in self.extra_query}
            pairs = [pair for pair in pairs if pair[0] not in replaced] + self.extra_query
        pairs.extend(credentials.query.items())
        if pairs:
            url += ("&" if urllib.parse.urlsplit(url).query else "?") + urllib.parse.urlencode(pairs)
        content: bytes | Iterator[bytes] | AsyncIterator[bytes] | None = self.body.content if method is None else None
        if method is None and self.body.streamed:
            if self.attempts > 1 and not self.body.replayable:
                raise SdkError(
                    f"{self.label}: the upload's iterator was consumed by the first attempt, so the call is not tried"
                    " again; pass bytes, a path or a seekable file object to let it be retried"
                )
            content = self.body.astream() if runtime.asynchronous else self.body.stream()
            # A length known before sending goes as Content-Length (servers and stores may refuse a chunked upload).
            size = self.body.size()
            if size is not None:
                _put_header(headers, "Content-Length", str(size))
        # The call's own URL (a query added) is of its own origin or not; a redirect's is worked out.
        foreign = not self.own_origin if method is None else origin_of(url) != origin_of(self.base_url)
        return runtime.request_of(
            method or self.operation.method,
            url,
            headers,
            content,
            self.deadline,
            foreign=foreign,
            drop=facts.drop,
            timeout=self.timeout,
        )

    def redirect(self, request: httpx.Request, response: httpx.Response) -> httpx.Request | None:
        """The request a redirect asks for (GET and HEAD only), without credentials once it leaves the origin."""
        if response.status_code not in REDIRECT_STATUSES:
            return None
        location = response.headers.get("location")
        if location is None:
            return None
        if request.method not in ("GET", "HEAD"):
            return None
        target = urllib.parse.urljoin(str(request.url), location)
        if origin_of(target) == origin_of(self.base_url) and self.own_origin:
            credentials = self.runtime.credentials.apply(self.operation.security, self.label)
            return self._build(target, credentials, request.method)
        return self._build(target, AppliedCredentials(), request.method)

    # -- decisions after an attempt --------------------------------------------------------------------------

    def deadline_in_flight(self) -> NoReturn:
        """Raises the error of a deadline that passed while a request was in flight: DeadlineExceededError, or
        for a write that may have been carried out MayHaveBeenProcessedError caused by it."""
        expired = self.deadline.error(" while the request was in flight")
        if self.resendable:
            raise expired from None
        what = "the submission" if self.job_submission else "the request"
        raise may_have_been_processed(
            self.job_submission, f"the deadline passed while {what} was in flight", job_id=self.job_id
        ) from expired

    def after_transport_error(self, error: httpx.HTTPError) -> float:
        """The delay before the next attempt after a network failure, or raises."""
        if isinstance(error, httpx.TimeoutException) and self.deadline.expired():
            self.deadline_in_flight()
        if not isinstance(error, httpx.TransportError) or isinstance(
            error, (httpx.UnsupportedProtocol, httpx.LocalProtocolError)
        ):
            raise SdkError(self.runtime.redactor.text(f"{self.label}: the request could not be sent ({error})"))
        sent = not isinstance(error, (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout))
        kind = type(error).__name__
        detail = self.runtime.redactor.text(str(error)) or kind
        failure = APIConnectionError(
            f"{self.label}: the request could not be completed ({kind}: {detail})", sent=sent, job_id=self.job_id
        )
        if verdict_for_network(sent, self.resendable) == "may-have-been-processed":
            what = "the submission" if self.job_submission else "the request"
            raise may_have_been_processed(
                self.job_submission, f"the connection failed after {what} was sent ({kind})", job_id=self.job_id
            ) from failure
        return self._next_delay(failure, backoff_delay(self.retries, self.runtime.retry), kind)

    def after_answer(self, answer: Answer) -> ApiResult[object] | float:
        """The result of a successful answer, or the delay before the next attempt, or raises."""
        runtime = self.runtime
        response = answer.response
        status = response.status_code
        if runtime.pacing:
            runtime.note_pacing(answer.body)
        log = runtime.log
        if log is not None and log.isEnabledFor(logging.INFO):
            request_id = request_id_of(runtime.model, response.headers)
            took = (time.monotonic() - self.sent_at) * 1000
            log.info(
                "answer %s %s %s attempt %d: HTTP %d, request id %s, %.0f ms", *self._where(), status, request_id, took
            )
            if log.isEnabledFor(logging.DEBUG):
                headers = runtime.logged_headers(response.headers.items())
                log.debug("answer headers %s %s %s attempt %d: HTTP %d, %s", *self._where(), status, headers)
        if 200 <= status < 300:
            data = self.parse(answer)
            jobs = runtime.model.jobs
            still_running = self.job_submission and jobs is not None and status == jobs.submit.still_running_status
            if not still_running and is_error_body(data, runtime.model.envelope):
                raise runtime.errors.from_body(
                    status, runtime.redactor.value(data), response.headers, job_id=self.job_id
                )
            meta = build_meta(runtime.model, response, data, self.attempts)
            return ApiResult(data, meta, response, answer.body)
        error = runtime.errors.from_answer(status, answer.body, response.headers, job_id=self.job_id)
        if status == 401 and runtime.rotates and not self.rotated and self._renews(error.code):
            self.rotated = True
            return 0.0
        verdict = verdict_for_status(status, self.resendable)
        if verdict == "fail":
            raise error
        if verdict == "may-have-been-processed":
            detail = f"HTTP {status}" + ("" if error.code is None else f" {error.code}")
            # The server answered: the error is its InternalServerError (a ServiceError) as well.
            raise answered_may_have_been_processed(self.job_submission, detail, error) from error
        reason = f"HTTP {status}" + ("" if error.code is None else f" {error.code}")
        return self._next_delay(
            error, retry_delay(self.retries, response.headers.get("retry-after"), runtime.retry), reason
        )

    def _renews(self, code: str | None) -> bool:
        conventions = self.runtime.model.conventions
        tokens = None if conventions is None else conventions.tokens
        return tokens is None or not tokens.renew_on or code in tokens.renew_on

    def _next_delay(self, failure: SdkError, delay: float, reason: str) -> float:
        if self.retries >= self.max_retries or not self.deadline.fits(delay):
            raise failure
        self.retries += 1
        if self.runtime.log is not None:
            self.runtime.log.warning(
                "retrying %s %s %s after attempt %d (%s) in %.0f ms", *self._where(), reason, delay * 1000
            )
        if self.job_id is not None and failure.job_id is None:
            failure.job_id = self.job_id
        return delay

    def parse(self, answer: Answer) -> object:
        """The body as the operation declares it: JSON, text, bytes, or None without a body."""
        response = answer.response
        content_type = response.headers.get("content-type")
        kind = self.operation.facts.answer_kind(response.status_code, content_type) if answer.body else "none"
        if kind is None:
            refused = MalformedResponseError(
                f"{self.label}: HTTP {response.status_code}: a body of type {content_type}, where the description "
                f"declares {declared_text(self.operation, response.status_code)}",
                status=response.status_code,
                body=self.runtime.redactor.text(answer.body[:2000].decode("utf-8", "replace")),
                job_id=self.job_id,
            )
            if self.job_submission:
                raise JobMayExistError("the success answer was not readable", status=response.status_code) from refused
            raise refused
        if kind == "none":
            return None
        if kind == "text":
            return answer.body.decode(charset_of(content_type), "replace")
        if kind == "bytes":
            return answer.body
        ok, decoded = decode_json(answer.body)
        if ok:
            return decoded
        malformed = MalformedResponseError(
            f"{self.label}: HTTP {response.status_code} with a body that is not JSON",
            status=response.status_code,
            body=self.runtime.redactor.text(answer.body[:2000].decode("utf-8", "replace")),
            job_id=self.job_id,
        )
        if self.job_submission:
            raise JobMayExistError("the success answer was not readable", status=response.status_code) from malformed
        raise malformed


class BaseRuntime:
    """Configuration and the logic without I/O of a runtime; SyncRuntime and AsyncRuntime add the I/O.

    Options (all keyword):

    - ``error_classes``: the generated ServiceError subclass of each code of the error table.
    - ``base_url``: the service address; default: the environment variable the model names, else the description's
      first server with its variables (``server_variables`` gives their values instead of the defaults). Given
      (here or by that variable), it applies to every operation; otherwise an operation with servers of its own
      goes to its first server.
    - ``token`` (default: the environment variable the model names), ``api_key``, ``username`` and ``password``,
      ``credentials`` (by security scheme name): each is needed only by the operations whose security asks for it.
      A token or API key may be a callable returning it, asked before each request (and once more after a 401 the
      description's token kinds name).
    - ``secrets``: further strings kept out of every error (the credentials always are).
    - ``headers``: extra headers of every request.
    - ``deadline``: seconds of one call, retries included (600); ``job_deadline``: of submit-and-wait (3600);
      ``timeout``: of one socket operation, within the deadline (330); ``poll_interval``: (min, max) seconds.
    - ``retry``: a RetryPolicy; ``max_redirects``: redirects followed by one attempt (GET and HEAD only).
    - ``pacing``: wait as long as the envelope's pacing field asks before the next request (off by default).
    - ``strict_response_validation``: an answer that does not match its schema raises MalformedResponseError (off by
      default: it is read as far as it goes, see lenient.py).
    - ``user_agent_suffix``: text added to the User-Agent; ``environ``: the environment to read (os.environ).
    - ``logger``: the ``logging.Logger`` of the generated package (default ``paperoffice_runtime``'s); the
      environment variable the model names sets its level (see log.py).
    """

    asynchronous: bool = False
    """Whether requests go through an asyncio client (a streamed upload is then an async iterator)."""

    def __init__(
        self,
        model: ServiceModel,
        *,
        error_classes: Mapping[str, type[ServiceError]] | None = None,
        base_url: str | None = None,
        server_variables: Mapping[str, str] | None = None,
        token: str | TokenProvider | None = None,
        api_key: str | TokenProvider | None = None,
        username: str | None = None,
        password: str | None = None,
        credentials: Mapping[str, Credential] | None = None,
        secrets: Sequence[str] = (),
        headers: Mapping[str, str] | None = None,
        deadline: float = DEFAULT_DEADLINE,
        job_deadline: float = DEFAULT_JOB_DEADLINE,
        timeout: float | None = DEFAULT_TIMEOUT,
        poll_interval: tuple[float, float] = (5.0, 10.0),
        retry: RetryPolicy | None = None,
        max_redirects: int = 5,
        pacing: bool = False,
        strict_response_validation: bool = False,
        user_agent_suffix: str | None = None,
        environ: Mapping[str, str] | None = None,
        logger: logging.Logger | None = None,
    ) -> None:
        if (username is None) != (password is None):
            raise ValueError("username and password go together: pass both for HTTP basic authentication")
        if not (0 <= poll_interval[0] <= poll_interval[1]):
            raise ValueError("poll_interval needs 0 <= min <= max")
        if not (deadline > 0 and job_deadline > 0):
            raise ValueError("deadlines must be positive numbers of seconds")
        self._given: RuntimeOptions = {
            "error_classes": error_classes,
            "base_url": base_url,
            "server_variables": server_variables,
            "token": token,
            "api_key": api_key,
            "username": username,
            "password": password,
            "credentials": credentials,
            "secrets": secrets,
            "headers": headers,
            "deadline": deadline,
            "job_deadline": job_deadline,
            "timeout": timeout,
            "poll_interval": poll_interval,
            "retry": retry,
            "max_redirects": max_redirects,
            "pacing": pacing,
            "strict_response_validation": strict_response_validation,
            "user_agent_suffix": user_agent_suffix,
            "environ": environ,
        }
        """The options as given, for the copies ``with_options`` makes."""
        env = os.environ if environ is None else environ
        self.model = model
        self.log = logger_from_env(
            logger or logging.getLogger(__package__ or "paperoffice_runtime"), model.env.log, env
        )
        if token is None and model.env.token is not None:
            token = env.get(model.env.token) or None
        self.base_url = resolve_base_url(model, base_url, server_variables, env)
        # A given base address applies to every operation, those with servers of their own too.
        from_env = None if model.env.base_url is None else env.get(model.env.base_url)
        self.base_url_given = base_url is not None or bool(from_env)
        conventions = model.conventions
        self.redactor = Redactor(secrets, None if conventions is None else conventions.tokens)
        basic = None if username is None or password is None else BasicCredentials(username, password)
        self.credentials = Credentials(
            model.security_schemes, self.redactor, token=token, api_key=api_key, basic=basic, by_scheme=credentials
        )
        self.rotates = any(callable(c) for c in (token, api_key, *(credentials or {}).values()))
        self.errors = ErrorMapper(model, error_classes or {}, self.redactor)
        self.headers = dict(headers or {})
        self.deadline = deadline
        self.job_deadline = job_deadline
        self.timeout = timeout
        self.poll_interval = poll_interval
        self.retry = retry or RetryPolicy()
        self.max_redirects = max_redirects
        self.pacing = pacing
        self.strict_response_validation = strict_response_validation
        self._next_allowed = 0.0
        self.user_agent = user_agent_of(model, user_agent_suffix)
        self.credential_headers = {"authorization", "proxy-authorization", "cookie"} | {
            scheme.name.lower()
            for scheme in model.security_schemes.values()
            if scheme.type == "apiKey" and scheme.location == "header" and scheme.name is not None
        }
        self.secret_headers = {name.lower() for name in self.credential_headers}
        self.client_headers = httpx.Headers()
        """Default headers of the HTTP client (a caller's client may bring some); the runtime's own win."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self.base_url!r}, credentials=<redacted>)"

    def copy_options(self, changes: ClientOptions) -> RuntimeOptions:
        """The options of a copy of this runtime with ``changes`` laid over the ones it was given: ``headers``
        merged into its headers, the retry keywords into its RetryPolicy, any other replacing its value."""
        options: dict[str, object] = dict(self._given)
        retry = self.retry
        for key, value in changes.items():
            if key in RETRY_KEYWORDS:
                retry = dataclasses.replace(retry, **cast("dict[str, Any]", {key: value}))
            elif key == "headers":
                headers = dict(self.headers)
                for name, text in cast("Mapping[str, str]", value or {}).items():
                    _set_header(headers, name, text)
                options["headers"] = headers
            else:
                options[key] = value
        options["retry"] = retry
        return cast("RuntimeOptions", options)

    def logged_headers(self, headers: Iterable[tuple[str, str]]) -> dict[str, str]:
        """Headers as a debug entry shows them: credentials and secrets redacted."""
        return logged_headers(headers, self.redactor.text, self.secret_headers)

    def log_poll(self, job_id: str, polls: int, envelope: Mapping[str, object]) -> None:
        """An info entry for a job poll: the job, how many polls, the status field's value."""
        jobs = self.model.jobs
        if self.log is not None and jobs is not None:
            status = self.redactor.text(str(envelope.get(jobs.poll.status)))
            self.log.info("job poll %s: poll %d, status %s", job_id, polls, status)

    def note_pacing(self, body: bytes) -> None:
        """With pacing on, remembers when the service allows the next request (the envelope's pacing field)."""
        if not self.pacing or not body:
            return
        ok, decoded = decode_json(body)
        seconds = next_request_seconds(decoded, self.model.envelope) if ok else None
        if seconds is not None:
            self._next_allowed = max(self._next_allowed, time.monotonic() + seconds)

    def pacing_wait(self, deadline: Deadline) -> float:
        """Seconds to wait before the next request; raises when the deadline would pass first."""
        wait = self._next_allowed - time.monotonic() if self.pacing else 0.0
        if wait > 0 and not deadline.fits(wait):
            raise deadline.error(" (the service asked to wait longer before the next request)")
        return max(0.0, wait)

    def build_request(
        self,
        method: str,
        url: str,
        headers: Mapping[str, str],
        content: bytes | Iterator[bytes] | AsyncIterator[bytes] | None,
        deadline: Deadline,
        *,
        foreign: bool = False,
        drop: Sequence[str] = (),
        timeout: float | None = None,
    ) -> httpx.Request:
        """The request of one attempt. To another origin, no header that may carry a credential goes along, even
        one the caller configured: Authorization, Proxy-Authorization, Cookie and the API key headers of the model."""
        skip = {key.lower() for key in headers}
        skip.update(name.lower() for name in drop)
        return self._request_with(
            method, url, skip, headers.items(), content=content, deadline=deadline, foreign=foreign, timeout=timeout
        )

    def request_of(
        self,
        method: str,
        url: str,
        headers: Mapping[str, tuple[str, str]],
        content: bytes | Iterator[bytes] | AsyncIterator[bytes] | None,
        deadline: Deadline,
        *,
        foreign: bool = False,
        drop: Sequence[str] = (),
        timeout: float | None = None,
    ) -> httpx.Request:
        """``build_request`` of headers by lower-case name: (name, value), as ``Call`` collects them."""
        skip = set(headers)
        skip.update(drop)
        return self._request_with(
            method, url, skip, headers.values(), content=content, deadline=deadline, foreign=foreign, timeout=timeout
        )

    def _request_with(
        self,
        method: str,
        url: str,
        skip: set[str],
        headers: Iterable[tuple[str, str]],
        *,
        content: bytes | Iterator[bytes] | AsyncIterator[bytes] | None,
        deadline: Deadline,
        foreign: bool,
        timeout: float | None,
    ) -> httpx.Request:
        # The client's headers first (those ``headers`` replace or ``skip`` names left out), then ``headers`` in
        # their order, as httpx.Headers.update lays them; one list, normalised once by the request.
        if foreign:
            skip.update(self.credential_headers)
        merged = [(key, value) for key, value in self.client_headers.raw if key.decode("latin-1").lower() not in skip]
        # Encoded as httpx encodes text headers (ASCII).
        merged.extend(
            (name.encode("ascii"), value.encode("ascii"))
            for name, value in headers
            if not (foreign and name.lower() in self.credential_headers)
        )
        return httpx.Request(
            method,
            url,
            headers=merged,
            content=content,
            extensions={"timeout": deadline.timeout_extension(self.timeout if timeout is None else timeout)},
        )

    def new_call(
        self,
        operation: OperationSpec,
        call_input: CallInput | None,
        *,
        deadline: Deadline | float | None = None,
        max_retries: int | None = None,
        headers: Mapping[str, str] | None = None,
        raw_path: str | None = None,
        url: str | None = None,
        base_url: str | None = None,
        extra_headers: Mapping[str, str] | None = None,
        extra_query: Mapping[str, object] | None = None,
        extra_body: Mapping[str, object] | None = None,
        timeout: float | None = None,
        idempotency_key: str | None = None,
    ) -> Call:
        if call_input is not None:
            check_exactly_one(operation.exactly_one, call_input.body, f"{operation.operation_id}: the body")
        if not isinstance(deadline, Deadline):
            if deadline is not None and not deadline > 0:
                raise ValueError(f"{operation.operation_id}: deadline must be a positive number of seconds")
            deadline = Deadline(self.deadline if deadline is None else deadline)
        return Call(
            self,
            operation,
            call_input or CallInput(),
            deadline,
            max_retries=max_retries,
            headers=headers if extra_headers is None else {**(headers or {}), **extra_headers},
            raw_path=raw_path,
            url=url,
            base_url=base_url,
            extra_query=extra_query,
            extra_body=extra_body,
            timeout=timeout,
            idempotency_key=idempotency_key,
        )

    def convert(self, result: ApiResult[object], response_type: type[T] | None, call: Call) -> ApiResult[T]:
        """Validates JSON into the pydantic type the generated code names (bytes, text and None as they are)."""
        data: object = result.data
        if response_type is None or data is None or isinstance(data, bytes):
            return cast("ApiResult[T]", result)
        try:
            parsed = adapter_for(response_type).validate_python(data)
            return ApiResult(parsed, result.meta, result.response, result.content)
        except pydantic.ValidationError as error:
            if not self.strict_response_validation:
                return ApiResult(construct(response_type, data), result.meta, result.response, result.content)
            raise MalformedResponseError(
                self.redactor.text(f"{call.label}: the answer does not match its schema: {error}"),
                status=result.meta.status,
                body=self.redactor.value(data),
                job_id=call.job_id,
            ) from None

    def answer(
        self, result: ApiResult[object], kind: object = None, by_status: Mapping[int, object] | None = None
    ) -> Any:
        """The data of a result as the generated method returns it: None without a body, text as ``str``, other
        media types as a :class:`Download`, JSON validated into ``kind`` (a type expression: a model class, a union,
        a list...; None keeps the decoded JSON), or into ``by_status``'s type of the answer's status where it has
        one (0: any other success status). Generated code casts it to the type it declares."""
        if by_status is not None:
            kind = by_status.get(result.meta.status, by_status.get(0, kind))
        data = result.data
        if data is None or isinstance(data, str):
            return data
        if isinstance(data, bytes):
            return Download(data, *file_facts(result.meta, ""), result.meta)
        if kind is None:
            return data
        try:
            return adapter_of(kind).validate_python(data)
        except pydantic.ValidationError as error:
            if not self.strict_response_validation:
                return construct(kind, data)
            raise MalformedResponseError(
                self.redactor.text(f"HTTP {result.meta.status}: the answer does not match its schema: {error}"),
                status=result.meta.status,
                body=self.redactor.value(data),
            ) from None

    # -- jobs ------------------------------------------------------------------------------------------------

    def parse_payload_as(self, result: JobResult[object], kind: object) -> JobResult[Any]:
        """A job's payload validated into ``kind``, any type expression (a union of the pipeline's payloads)."""
        try:
            data = adapter_of(kind).validate_python(result.data)
        except pydantic.ValidationError as error:
            if not self.strict_response_validation:
                return JobResult(
                    result.job_id, construct(kind, result.data), result.meta, result.polls, result.submit_meta
                )
            raise MalformedResponseError(
                self.redactor.text(f"job {result.job_id}: the payload does not match its schema: {error}"),
                status=result.meta.status,
                body=self.redactor.value(result.data),
                job_id=result.job_id or None,
            ) from None
        return JobResult(result.job_id, data, result.meta, result.polls, result.submit_meta)

    def check_variant_body(self, pipeline: str, body: Mapping[str, object]) -> None:
        """Refuses (SdkError) a body that breaks an "exactly one of" group of its variant, before anything is sent;
        every submission checks it (``submit_job`` and ``start_job`` too, whatever the body's type)."""
        declared = self.model.pipelines.get(pipeline)
        variant = None if declared is None else variant_of(declared, body)
        if variant is not None:
            check_exactly_one(variant.exactly_one, body, f"pipeline {pipeline!r}, variant {variant.name!r}")

    def parse_variant_payload(
        self,
        result: JobResult[object],
        pipeline: str,
        body: Mapping[str, object],
        kinds: Mapping[str, object],
        fallback: object,
    ) -> JobResult[Any]:
        """A job's payload validated into the payload type of the body's variant (``kinds``: variant name -> type
        expression), so that a union of payloads never picks another variant's type; a body of no listed variant,
        into ``fallback`` (the union of them all)."""
        declared = self.model.pipelines.get(pipeline)
        variant = None if declared is None else variant_of(declared, body)
        kind = kinds.get(variant.name, fallback) if variant is not None else fallback
        return self.parse_payload_as(result, kind)

    def parse_payload(self, result: JobResult[object], payload_type: type[T]) -> JobResult[T]:
        """A job's payload validated into the pydantic type the generated code names for its pipeline."""
        try:
            data = adapter_for(payload_type).validate_python(result.data)
        except pydantic.ValidationError as error:
            raise MalformedResponseError(
                self.redactor.text(f"job {result.job_id}: the payload does not match its schema: {error}"),
                status=result.meta.status,
                body=self.redactor.value(result.data),
                job_id=result.job_id or None,
            ) from None
        return JobResult(result.job_id, data, result.meta, result.polls, result.submit_meta)

    def check_pipeline(self, pipeline: str) -> JobsModel:
        jobs = require_jobs(self.model)
        pattern = jobs.submit.selector_pattern
        if (pattern is None and pipeline) or (pattern is not None and re.search(pattern, pipeline)):
            return jobs
        message = f"pipeline {pipeline!r} does not match {pattern or 'a non-empty value'}; nothing was sent"
        if jobs.submit.selector_refusal is None:
            raise SdkError(message)
        raise self.errors.refusal(jobs.submit.selector_refusal, message)

    def check_body_fields(self, jobs: JobsModel, pipeline: str, body: Mapping[str, object]) -> None:
        """Raises, before anything is sent, when the body has a field that no variant it may be of takes (a misspelt
        field), naming the field, the operation and the pipeline. A pipeline the model does not describe, or a variant
        whose parameters are not shown, takes any field."""
        declared = self.model.pipelines.get(pipeline)
        if declared is None or not declared.variants:
            return
        chosen = [v for v in declared.variants if v.property is not None and body.get(v.property) == v.value]
        possible = chosen or list(declared.variants)
        taken: set[str] = set()
        for variant in possible:
            if variant.fields is None:
                return
            taken.update(variant.fields)
        # The field the job functions set themselves to ask for no hold is the description's, whatever the variant.
        if jobs.submit.no_wait is not None:
            taken.add(jobs.submit.no_wait.field)
        unknown = sorted(name for name, value in body.items() if value is not None and name not in taken)
        if not unknown:
            return
        only = (possible[0].property, possible[0].value) if len(possible) == 1 and possible[0].property else None
        which = "" if only is None else f" ({only[0]} {json.dumps(only[1])})"
        names = ", ".join(json.dumps(name) for name in unknown)
        meant = [
            f"{json.dumps(near[0])} for {json.dumps(name)}"
            for name in unknown
            if (near := difflib.get_close_matches(name, sorted(taken), n=1, cutoff=0.8))
        ]
        hint = f" Did you mean {', '.join(meant)}?" if meant else ""
        noun = "field" if len(unknown) == 1 else "fields"
        raise SdkError(
            f"{jobs.submit.operation.operation_id}: unknown {noun} {names} in the body for pipeline"
            f" {json.dumps(pipeline)}{which}; nothing was sent.{hint}"
        )

    def submission_input(
        self, jobs: JobsModel, pipeline: str, body: Mapping[str, object], json_strings: Sequence[str], hold: bool
    ) -> CallInput:
        self.check_body_fields(jobs, pipeline, body)
        self.check_variant_body(pipeline, body)
        fields = dict(body)
        no_wait = jobs.submit.no_wait
        if not hold and no_wait is not None and no_wait.field not in fields:
            fields[no_wait.field] = no_wait.value
        declared = self.model.pipelines.get(pipeline)
        strings = [*(() if declared is None else declared.json_strings), *json_strings]
        path = {} if jobs.submit.pipeline_parameter is None else {jobs.submit.pipeline_parameter: pipeline}
        return CallInput(path=path, body=fields, json_strings=strings)

    def submission_envelope(self, result: ApiResult[object]) -> dict[str, object]:
        envelope = as_record(result.data)
        if envelope is None:
            raise JobMayExistError(
                "the success answer of the submission is not a JSON object", status=result.meta.status
            )
        return envelope

    def require_job_id(self, jobs: JobsModel, envelope: dict[str, object], meta: ResponseMeta) -> str:
        job_id = job_id_of(envelope, jobs)
        if job_id is None:
            raise JobMayExistError(
                f"the service accepted the submission but sent no {jobs.submit.job_id}", status=meta.status
            )
        return job_id

    def raise_if_failed(self, jobs: JobsModel, envelope: dict[str, object], job_id: str, status: int) -> None:
        job_status = failure_status(envelope, jobs)
        if job_status is None:
            return
        code, text, time_text = self.errors.fields(envelope)
        message = f"job {job_id} ended with {jobs.poll.status} {job_status!r}"
        if text is not None:
            message += ": " + self.redactor.text(text)
        raise JobFailedError(
            message,
            job_status=job_status,
            status=status,
            job_id=job_id,
            code=code,
            processing_time=time_text,
            body=self.redactor.value(envelope),
        )

    def poll_envelope(self, result: ApiResult[object], job_id: str) -> dict[str, object]:
        envelope = as_record(result.data)
        if envelope is None:
            raise MalformedResponseError(
                f"job {job_id}: the poll answer is not a JSON object",
                status=result.meta.status,
                body=self.redactor.value(result.data),
                job_id=job_id,
            )
        return envelope

    def pause(self, poll_interval: tuple[float, float] | None) -> float:
        low, high = poll_interval or self.poll_interval
        return low + random.random() * (high - low)

    def deadline_error(self, deadline: Deadline) -> DeadlineExceededError:
        return deadline.error()

    def download_call(self, token_or_url: str, deadline: float | None) -> Call:
        target = download_target(token_or_url, self.base_url, self.model.jobs)
        if target.kind == "token":
            assert self.model.jobs is not None and self.model.jobs.download is not None
            download = self.model.jobs.download
            call_input = CallInput(path={download.token_parameter: target.value})
            return self.new_call(download.operation, call_input, deadline=deadline)
        # A URL of the client's own origin gets the first credential the client has, as a raw request does (the
        # TypeScript runtime's rule); another origin gets none.
        operation = OperationSpec("download", "GET", "", response_media_types=("*/*",), security=None)
        return self.new_call(operation, None, deadline=deadline, url=target.value)


def idempotency_header(
    operation: OperationSpec, given: str | None, headers: Mapping[str, str]
) -> tuple[str, str] | None:
    """The idempotency key header of one call, made once so that every retry of the call sends the same key and the
    server carries the call out once: a header of that name among the call's ``extra_headers``, else the
    ``idempotency_key`` option, else a new random UUID v4. It replaces a client-wide header of that name (one key
    shared by every call would let only the first be carried out). An operation that takes no key refuses the
    option rather than sending a header its server ignores."""
    name = operation.idempotency_key
    if name is None:
        if given is not None:
            raise SdkError(f"{operation.operation_id}: the operation takes no idempotency key; nothing was sent")
        return None
    if given == "":
        raise SdkError(f"{operation.operation_id}: idempotency_key is empty; nothing was sent")
    own = next((value for key, value in headers.items() if key.lower() == name.lower() and value), None)
    return name, own or given or str(uuid.uuid4())


def with_extra_body(operation: OperationSpec, body: object, extra: Mapping[str, object]) -> dict[str, object]:
    """The body with the members of ``extra_body`` laid over its own; a body that is not a mapping refuses them."""
    value = plain(body)
    if value is None:
        return dict(extra)
    if not isinstance(value, Mapping):
        raise SdkError(
            f"{operation.operation_id}: extra_body needs a body that is a mapping of fields, not"
            f" {type(value).__name__}; nothing was sent"
        )
    own = cast("Mapping[str, object]", value)
    return {**own, **extra}


def file_facts(meta: ResponseMeta, token_or_url: str) -> tuple[str | None, str | None]:
    name = file_name_from_disposition(meta.headers.get("content-disposition"))
    if name is None and "/" in token_or_url:
        last = token_or_url.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
        name = last or None
    return meta.headers.get("content-type"), name
