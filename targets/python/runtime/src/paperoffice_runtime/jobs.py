"""The parts of jobs that do no I/O, shared by the sync and async runtimes: reading submission and poll answers by
the model's field names, failure statuses, poll and download targets."""

from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar, Union

from .encoding import fill_path
from .envelope import ResponseMeta
from .errors import SdkError
from .model import JobsModel, ServiceModel

T = TypeVar("T")

FAILURE_STATUS = re.compile(r"fail|error|cancel", re.IGNORECASE)


@dataclass(frozen=True)
class JobResult(Generic[T]):
    job_id: str
    data: T
    """The payload: the first of the poll operation's payload fields that holds a value."""
    meta: ResponseMeta
    polls: int
    """Polls sent; 0 when the hold returned the payload."""
    submit_meta: ResponseMeta | None = None


def require_jobs(model: ServiceModel) -> JobsModel:
    if model.jobs is None:
        raise SdkError("job helpers are unavailable: the description marks no operations that submit and poll jobs")
    return model.jobs


def is_failure_status(status: str) -> bool:
    return FAILURE_STATUS.search(status) is not None


def is_finished(envelope: dict[str, object], jobs: JobsModel) -> bool:
    status = envelope.get(jobs.poll.status)
    if status is not None:
        return status == jobs.poll.completed
    return any(envelope.get(name) is not None for name in jobs.poll.payload)


def payload_of(envelope: dict[str, object], jobs: JobsModel) -> object:
    value: object = None
    for name in jobs.poll.payload:
        value = envelope.get(name)
        if value is not None:
            return value
    return value


def job_id_of(envelope: dict[str, object], jobs: JobsModel) -> str | None:
    value = envelope.get(jobs.submit.job_id)
    if isinstance(value, str) and value:
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def failure_status(envelope: dict[str, object], jobs: JobsModel) -> str | None:
    status = envelope.get(jobs.poll.status)
    return status if isinstance(status, str) and is_failure_status(status) else None


def _matches(template: str, path: str) -> bool:
    pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
    return re.fullmatch(pattern, path) is not None


def poll_path(envelope: dict[str, object], job_id: str, jobs: JobsModel) -> str:
    """The answer's poll URL when it has the poll operation's form, else the poll path built from the job id."""
    field = jobs.submit.poll_url
    given = None if field is None else envelope.get(field)
    if isinstance(given, str) and _matches(jobs.poll.operation.path, given.split("?", 1)[0]):
        return given
    return fill_path(jobs.poll.operation.path, {jobs.poll.job_id_parameter: job_id}, jobs.poll.operation.operation_id)


@dataclass(frozen=True)
class DownloadTarget:
    kind: Literal["token", "url"]
    value: str
    """The token, or the full URL."""


def download_target(token_or_url: str, base_url: str, jobs: JobsModel | None) -> DownloadTarget:
    """A token, or a full URL: one below the base address in the form of the download path gives its token."""
    download = None if jobs is None else jobs.download
    if not re.match(r"^https?://", token_or_url, re.IGNORECASE):
        if download is None:
            raise SdkError("download by token is unavailable: the description marks no download operation")
        if not token_or_url or "/" in token_or_url:
            raise SdkError("download needs a token or a full http(s) URL")
        return DownloadTarget("token", token_or_url)
    if download is not None and token_or_url.startswith(base_url + "/"):
        path = re.split(r"[?#]", token_or_url[len(base_url) :], maxsplit=1)[0]
        names = re.findall(r"\{([^}]+)\}", download.operation.path)
        pattern = re.sub(r"\\\{[^}]+\\\}", "([^/]+)", re.escape(download.operation.path))
        match = re.fullmatch(pattern, path)
        if match is not None and download.token_parameter in names:
            token = urllib.parse.unquote(match.group(names.index(download.token_parameter) + 1))
            if token and "/" not in token:
                return DownloadTarget("token", token)
    return DownloadTarget("url", token_or_url)


def file_name_from_disposition(header: str | None) -> str | None:
    """The file name of a Content-Disposition header; ``filename*`` (RFC 5987) wins over ``filename``."""
    if header is None:
        return None
    extended = re.search(r"filename\*\s*=\s*([^']*)'[^']*'([^;]+)", header, re.IGNORECASE)
    if extended is not None:
        return urllib.parse.unquote(extended.group(2).strip(), encoding=extended.group(1) or "utf-8", errors="replace")
    plain = re.search(r'filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))', header, re.IGNORECASE)
    if plain is None:
        return None
    value = re.sub(r"\\(.)", r"\1", plain.group(1)) if plain.group(1) is not None else plain.group(2).strip()
    return value or None


@dataclass(frozen=True)
class SavedFile:
    path: str
    size: int
    content_type: str | None
    file_name: str | None
    meta: ResponseMeta


@dataclass(frozen=True)
class Download:
    content: bytes
    content_type: str | None
    file_name: str | None
    meta: ResponseMeta


JobPayload = Union[dict[str, object], list[object], str, int, float, bool, None]
