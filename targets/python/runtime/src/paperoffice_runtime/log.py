"""Logging through the standard ``logging`` module: one named logger per generated package (the runtime's own,
``paperoffice_runtime``, when none is given). Nothing is configured globally; when the environment variable the model
names holds a level (``debug``, ``info``, ``warn``, ``error``), that logger gets the level and a handler writing to
stderr, once; ``off`` logs nothing. Without the variable the application's logging configuration decides.

What is logged: each request (debug, with its headers), each answer (info: status, request id, duration), retries
with their reason and delay (warning) and job polls (info). Credential headers and every secret the runtime redacts
are shown as ``[redacted]``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping
from typing import Callable

from .redact import MARK

__all__ = ["LEVELS", "logged_headers", "logger_from_env"]

LEVELS: Mapping[str, int] = {
    # logging's own names, in lower case ("debug", "info", "error"), and "warn" for WARNING.
    **{logging.getLevelName(level).lower(): level for level in (logging.DEBUG, logging.INFO, logging.ERROR)},
    "warn": logging.WARNING,
}
"""The levels the environment variable takes besides ``off``."""

_ENV_HANDLER = "_paperoffice_env_handler"
_SECRET_HEADER = re.compile(
    r"^(authorization|proxy-authorization|cookie|set-cookie)$|token|key|secret|signature|password", re.IGNORECASE
)


def logger_from_env(logger: logging.Logger, variable: str | None, environ: Mapping[str, str]) -> logging.Logger | None:
    """The logger a runtime logs to, or None when the variable says ``off``; a level the variable names is set on
    the logger, with a stderr handler added the first time. Any other value raises ValueError naming the variable."""
    raw = None if variable is None else environ.get(variable)
    if raw is None or raw.strip() == "":
        return logger
    value = raw.strip().lower()
    if value == "off":
        return None
    level = LEVELS.get(value)
    if level is None:
        raise ValueError(f"the environment variable {variable} is {raw!r}: use one of debug, info, warn, error, off")
    logger.setLevel(level)
    if not any(getattr(handler, _ENV_HANDLER, False) for handler in logger.handlers):
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        setattr(handler, _ENV_HANDLER, True)
        logger.addHandler(handler)
    return logger


def logged_headers(
    headers: Iterable[tuple[str, str]], redact: Callable[[str], str], secret_names: set[str]
) -> dict[str, str]:
    """Headers for a debug entry: credential headers and the runtime's secrets shown as ``[redacted]``."""
    return {
        name: MARK if _SECRET_HEADER.search(name) or name.lower() in secret_names else redact(value)
        for name, value in headers
    }
