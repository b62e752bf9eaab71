"""The retry rule, Retry-After, the User-Agent, body kinds; and the runtime's source holds no fact of the service."""

from __future__ import annotations

import ast
import email.utils
import time
from pathlib import Path

import pytest

from paperoffice_runtime import OperationSpec, RetryPolicy, is_resendable, user_agent_of
from paperoffice_runtime.parsing import accept_header, body_kind
from paperoffice_runtime.retry import backoff_delay, parse_retry_after, retry_delay, verdict_for_status

from .conftest import make_model


@pytest.mark.parametrize(
    ("method", "resendable"),
    [
        ("GET", True),
        ("HEAD", True),
        ("PUT", True),
        ("DELETE", True),
        ("OPTIONS", True),
        ("TRACE", True),
        ("POST", False),
        ("PATCH", False),
    ],
)
def test_idempotent_by_method(method: str, resendable: bool) -> None:
    assert is_resendable(OperationSpec("op", method, "/x")) is resendable  # type: ignore[arg-type]


def test_idempotent_flag_wins_except_for_a_job_submission() -> None:
    assert is_resendable(OperationSpec("op", "POST", "/x", idempotent=True))
    assert not is_resendable(OperationSpec("op", "GET", "/x", idempotent=False))
    assert not is_resendable(OperationSpec("op", "PUT", "/x", idempotent=True, job="submit"))


def test_verdicts() -> None:
    assert verdict_for_status(429, False) == verdict_for_status(503, False) == "retry"
    assert verdict_for_status(500, True) == "retry"
    assert verdict_for_status(502, False) == "may-have-been-processed"
    assert verdict_for_status(404, True) == "fail"


def test_retry_after_seconds_date_and_cap() -> None:
    assert parse_retry_after("2") == 2.0
    assert parse_retry_after(" 1.5 ") == 1.5
    assert parse_retry_after("soon") is None and parse_retry_after(None) is None and parse_retry_after("-1") is None
    now = time.time()
    date = email.utils.formatdate(now + 30, usegmt=True)
    told = parse_retry_after(date, now)
    assert told is not None and 28 <= told <= 31
    assert retry_delay(0, "120", RetryPolicy(max_retry_after=60)) == 60


def test_backoff_has_full_jitter_and_a_ceiling() -> None:
    policy = RetryPolicy(base_delay=0.5, max_delay=4)
    assert backoff_delay(0, policy, lambda: 0.999) < 0.5
    assert backoff_delay(10, policy, lambda: 1.0) == 4
    assert backoff_delay(3, policy, lambda: 0.0) == 0


def test_user_agent_from_title_and_release() -> None:
    assert user_agent_of(make_model()) == "cafe-document-automation-api-sdk-python/R20261120.0900"
    assert user_agent_of(make_model(title=None), "app/1.0 ü") == "api-sdk-python/R20261120.0900 app/1.0 u"


def test_body_kinds_and_accept() -> None:
    json_op = OperationSpec("a", "GET", "/a")
    both = OperationSpec("b", "GET", "/b", response_media_types=("application/json", "text/csv"))
    assert body_kind(json_op, 200, None, b"{}") == "json"
    assert body_kind(json_op, 204, "application/json", b"") == "none"
    assert body_kind(both, 200, "text/csv", b"a,b") == "text"
    assert body_kind(both, 200, "application/problem+json", b"{}") == "json"
    assert body_kind(OperationSpec("c", "GET", "/c", response_media_types=("image/png",)), 200, None, b"x") == "bytes"
    assert accept_header(both) == "application/json, text/csv"
    assert accept_header(OperationSpec("d", "DELETE", "/d", response_media_types=())) is None


SOURCE = Path(__file__).resolve().parent.parent / "src" / "paperoffice_runtime"


def string_literals(source: str) -> list[str]:
    """The string constants of a module's code, docstrings and attribute docstrings left out."""
    tree = ast.parse(source)
    documentation = {
        id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in documentation
    ]


# "token" is left out: the runtime names its own kind of download target so.
FIELD_NAMES = {
    "job_id",
    "job_status",
    "poll_url",
    "job_result",
    "result",
    "processing_time",
    "billing",
    "status",
    "code",
    "message",
    "event_id",
    "event_type",
    "subscription_id",
    "hold",
    "completed",
    "processing",
    "success",
    "error",
    "pipeline",
    "TOKEN_INVALID",
    "RATE_LIMITED",
    "PIPELINE_UNKNOWN",
}
IN_TEXT = ["/job/", "/file/", "x-request-id", "x-service", "x-docs", "x-api-key", "sha256"]


def test_the_runtime_holds_no_fact_of_the_service() -> None:
    """No string of the runtime's code is a field name, path, header or code of the service: each comes from the
    model (here, the ones the test model states)."""
    literals = [text for path in sorted(SOURCE.glob("*.py")) for text in string_literals(path.read_text("utf-8"))]
    assert len(literals) > 50
    found = sorted({text for text in literals if text in FIELD_NAMES or any(f in text.lower() for f in IN_TEXT)})
    assert found == []
