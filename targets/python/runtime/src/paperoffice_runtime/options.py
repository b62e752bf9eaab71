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
