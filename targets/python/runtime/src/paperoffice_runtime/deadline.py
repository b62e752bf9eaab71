"""One overall deadline per call, on the monotonic clock, carried through every request, read and sleep."""

from __future__ import annotations

import math
import time

import httpx

from .errors import DeadlineExceededError


class Deadline:
    """A call's deadline: ``seconds`` from now. ``math.inf`` never passes."""

    def __init__(self, seconds: float, *, job_id: str | None = None) -> None:
        if not seconds > 0:
            raise ValueError("a deadline must be a positive number of seconds")
        self.seconds = seconds
        self.at = time.monotonic() + seconds
        self.job_id = job_id

    def remaining(self) -> float:
        return self.at - time.monotonic()

    def expired(self) -> bool:
        return self.remaining() <= 0

    def error(self, detail: str = "") -> DeadlineExceededError:
        return DeadlineExceededError(self.seconds, job_id=self.job_id, detail=detail)

    def check(self) -> None:
        """Raises DeadlineExceededError once the deadline has passed; called before anything is sent."""
        if self.expired():
            raise self.error()

    def fits(self, delay: float) -> bool:
        """Whether a sleep of ``delay`` ends before the deadline (a request after it could still be sent)."""
        return time.monotonic() + delay < self.at

    def timeout(self, per_operation: float | None) -> httpx.Timeout:
        """Each connect, write, read and pool wait of one attempt, bounded by what is left of the deadline."""
        left = self.remaining()
        if math.isinf(left):
            return httpx.Timeout(per_operation)
        bounded = max(0.001, left if per_operation is None else min(left, per_operation))
        return httpx.Timeout(bounded)

    def timeout_extension(self, per_operation: float | None) -> dict[str, float | None]:
        """``timeout(per_operation).as_dict()``, the request extension httpx reads, made without a Timeout object
        (one per attempt)."""
        left = self.remaining()
        bounded = (
            per_operation
            if math.isinf(left)
            else max(0.001, left if per_operation is None else min(left, per_operation))
        )
        return {"connect": bounded, "read": bounded, "write": bounded, "pool": bounded}
