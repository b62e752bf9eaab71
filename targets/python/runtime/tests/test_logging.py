"""Logging through the standard logging module: the model's variable sets the level of the package's logger (and adds
a stderr handler once), ``off`` silences it; requests, answers, retries and polls are logged, secrets redacted."""

from __future__ import annotations

import itertools
import logging
from collections.abc import Iterator

import pytest

from paperoffice_runtime import CallInput, EnvModel, ServiceModel

from .conftest import GET_THING, MakeRuntime, Recorder, json_answer, make_model, settle

VARIABLE = "DOCS_LOG"
TOKEN = "po_sk_live0123456789"
CONFIGURED = "configured-secret-77aa"
names = itertools.count()


class Lines(logging.Handler):
    """Keeps every record the logger lets through, formatted."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.levelname} {record.getMessage()}")


@pytest.fixture
def logger() -> Iterator[logging.Logger]:
    """A fresh logger of its own per test, as a generated package's is."""
    made = logging.getLogger(f"logging_test_{next(names)}")
    made.propagate = False
    yield made
    for handler in list(made.handlers):
        made.removeHandler(handler)


def model_with_log() -> ServiceModel:
    return make_model(
        env=EnvModel(token="DOCS_TOKEN", base_url="DOCS_BASE_URL", log=VARIABLE), request_id_header="X-Request-Id"
    )


def retried() -> Recorder:
    echo = {"X-Request-Id": "req-77", "X-Echo": f"Bearer {TOKEN} and {CONFIGURED}"}
    return Recorder(
        [
            lambda _r: json_answer(500, {"status": "error", "code": "INTERNAL_ERROR", "message": "hiccup"}),
            lambda _r: json_answer(200, {"status": "success", "id": "t1"}, echo),
        ]
    )


def call(make_runtime: MakeRuntime, logger: logging.Logger, value: str | None) -> list[str]:
    lines = Lines()
    logger.addHandler(lines)
    environ = {} if value is None else {VARIABLE: value}
    runtime = make_runtime(retried(), model_with_log(), environ=environ, logger=logger, secrets=[CONFIGURED])
    try:
        settle(runtime.call(GET_THING, CallInput(path={"id": "a"})))
    finally:
        logger.removeHandler(lines)
    return lines.lines


def test_debug_logs_requests_retry_and_answer_with_secrets_redacted(
    make_runtime: MakeRuntime, logger: logging.Logger
) -> None:
    lines = call(make_runtime, logger, "debug")
    text = "\n".join(lines)
    assert [line.split(" ")[0:2] for line in lines if line.startswith("DEBUG request")] == [["DEBUG", "request"]] * 2
    assert "DEBUG request thingGet GET /things/{id} attempt 2, headers" in text
    assert "WARNING retrying thingGet GET /things/{id} after attempt 1 (HTTP 500 INTERNAL_ERROR) in " in text
    assert "INFO answer thingGet GET /things/{id} attempt 2: HTTP 200, request id req-77, " in text
    assert "'authorization': '[redacted]'" in text
    assert "'x-echo': 'Bearer [redacted] and [redacted]'" in text
    assert TOKEN not in text and CONFIGURED not in text
    assert logger.level == logging.DEBUG
    assert sum(type(h) is logging.StreamHandler for h in logger.handlers) == 1


def test_the_stderr_handler_is_added_once(make_runtime: MakeRuntime, logger: logging.Logger) -> None:
    call(make_runtime, logger, "info")
    call(make_runtime, logger, "warn")
    assert logger.level == logging.WARNING
    assert sum(type(h) is logging.StreamHandler for h in logger.handlers) == 1


@pytest.mark.parametrize(
    ("value", "kept"), [("info", ["INFO answer", "WARNING retrying"]), ("warn", ["WARNING retrying"]), ("error", [])]
)
def test_a_level_keeps_its_entries_and_above(
    make_runtime: MakeRuntime, logger: logging.Logger, value: str, kept: list[str]
) -> None:
    lines = call(make_runtime, logger, value)
    assert sorted({" ".join(line.split(" ")[:2]) for line in lines}) == kept


def test_off_logs_nothing_and_unset_leaves_the_level_to_the_application(
    make_runtime: MakeRuntime, logger: logging.Logger
) -> None:
    logger.setLevel(logging.DEBUG)
    assert call(make_runtime, logger, "off") == []
    assert all(type(h) is not logging.StreamHandler for h in logger.handlers)
    lines = call(make_runtime, logger, None)
    assert any(line.startswith("DEBUG request") for line in lines)
    assert all(type(h) is not logging.StreamHandler for h in logger.handlers)


def test_an_unknown_level_is_refused_naming_the_variable(make_runtime: MakeRuntime, logger: logging.Logger) -> None:
    with pytest.raises(
        ValueError, match=r"the environment variable DOCS_LOG is 'loud': use one of debug, info, warn, error, off"
    ):
        make_runtime(retried(), model_with_log(), environ={VARIABLE: "loud"}, logger=logger)


def test_the_package_logger_has_a_null_handler() -> None:
    # Without one, Python's last-resort handler would print the runtime's warnings to stderr.
    assert any(isinstance(h, logging.NullHandler) for h in logging.getLogger("paperoffice_runtime").handlers)
