"""When to send a request again, and after how long.

A request that is not resendable (a POST or PATCH not marked idempotent, a job submission) is sent again only when
the server provably did not take it: 429, 503, or a connection that was never made.
"""

from __future__ import annotations

import email.utils
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from .model import OperationSpec

Verdict = Literal["retry", "fail", "may-have-been-processed"]

IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"})
"""Methods HTTP defines as idempotent: sending one twice has the effect of sending it once."""


@dataclass(frozen=True)
class RetryPolicy:
    """Retries after the first attempt, the backoff steps (seconds, full jitter) and the cap on Retry-After."""

    max_retries: int = 3
    base_delay: float = 0.5
    max_delay: float = 20.0
    max_retry_after: float = 60.0

    def __post_init__(self) -> None:
        if self.max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        if self.base_delay < 0 or self.max_delay < 0 or self.max_retry_after < 0:
            raise ValueError("retry delays must not be negative")


def is_resendable(operation: OperationSpec) -> bool:
    """Always for an operation that takes an idempotency key (every attempt of a call carries the same key, so the
    server carries the call out once, billed or not), else as the description marks the operation, else by its
    method; never a job submission."""
    if operation.job == "submit":
        return False
    if operation.idempotency_key is not None:
        return True
    if operation.idempotent is not None:
        return operation.idempotent
    return operation.method.upper() in IDEMPOTENT_METHODS


def verdict_for_status(status: int, resendable: bool) -> Verdict:
    """429 and 503 mean the server did not take the request; other 5xx may follow its work; 4xx are final."""
    if status in (429, 503):
        return "retry"
    if status >= 500:
        return "retry" if resendable else "may-have-been-processed"
    return "fail"


def verdict_for_network(sent: bool, resendable: bool) -> Verdict:
    if not sent or resendable:
        return "retry"
    return "may-have-been-processed"


def backoff_delay(retry: int, policy: RetryPolicy, draw: Callable[[], float] = random.random) -> float:
    """Exponential backoff with full jitter: uniform in [0, min(max_delay, base_delay * 2**retry)]."""
    return draw() * min(policy.max_delay, policy.base_delay * 2.0**retry)


def parse_retry_after(header: str | None, now: float | None = None) -> float | None:
    """Seconds from a Retry-After header (seconds or an HTTP date), or None when absent or unreadable."""
    if header is None or not header.strip():
        return None
    text = header.strip()
    try:
        seconds = float(text)
    except ValueError:
        pass
    else:
        return seconds if math.isfinite(seconds) and seconds >= 0 else None
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    moment: float = when.timestamp()
    return max(0.0, moment - (time.time() if now is None else now))


def retry_delay(retry: int, retry_after: str | None, policy: RetryPolicy) -> float:
    """Retry-After when the service sent one (capped), else backoff."""
    told = parse_retry_after(retry_after)
    return backoff_delay(retry, policy) if told is None else min(told, policy.max_retry_after)
