"""The keyword options of a runtime, typed once for both twins."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

from typing_extensions import TypedDict

from .credentials import Credential, TokenProvider
from .errors import ServiceError
from .retry import RetryPolicy


class RuntimeOptions(TypedDict, total=False):
    """See BaseRuntime for what each option does."""

    error_classes: Mapping[str, type[ServiceError]] | None
    base_url: str | None
    server_variables: Mapping[str, str] | None
    token: str | TokenProvider | None
    api_key: str | TokenProvider | None
    username: str | None
    password: str | None
    credentials: Mapping[str, Credential] | None
    secrets: Sequence[str]
    headers: Mapping[str, str] | None
    deadline: float
    job_deadline: float
    timeout: float | None
    poll_interval: tuple[float, float]
    retry: RetryPolicy | None
    max_redirects: int
    pacing: bool
    strict_response_validation: bool
    user_agent_suffix: str | None
    environ: Mapping[str, str] | None
    logger: logging.Logger | None


class RequestOptions(TypedDict, total=False):
    """The options every operation method takes besides its parameters, for that call only (the names
    openai-python uses).

    ``extra_headers``: headers added to the call's requests (credentials still win); ``extra_query``: query
    parameters added to the operation's own (one of the same name replaces it); ``extra_body``: members laid over a
    JSON body or fields over a form body, for fields the description does not show; ``timeout``: seconds of one
    socket operation (connect, one read, one write), instead of the client's; ``max_retries``: retries after the
    first attempt, instead of the client's; ``deadline``: seconds of the whole call, retries included;
    ``idempotency_key``: the key of an operation that takes one, sent on every attempt of the call (default: a new
    random UUID v4 per call; give the same key again to send a call again without it being carried out twice), refused
    by an operation that takes none.
    """

    extra_headers: Mapping[str, str] | None
    extra_query: Mapping[str, object] | None
    extra_body: Mapping[str, object] | None
    timeout: float | None
    max_retries: int | None
    deadline: float | None
    idempotency_key: str | None


class ClientOptions(TypedDict, total=False):
    """The defaults ``with_options`` may change on a copy of a client: the keywords of the client's constructor
    (``headers`` are merged into the client's, the others replace its value)."""

    base_url: str | None
    server_variables: Mapping[str, str] | None
    token: str | TokenProvider | None
    api_key: str | TokenProvider | None
    username: str | None
    password: str | None
    credentials: Mapping[str, Credential] | None
    secrets: Sequence[str]
    headers: Mapping[str, str] | None
    deadline: float
    job_deadline: float
    timeout: float | None
    poll_interval: tuple[float, float]
    max_retries: int
    base_delay: float
    max_delay: float
    max_retry_after: float
    pacing: bool
    user_agent_suffix: str | None
