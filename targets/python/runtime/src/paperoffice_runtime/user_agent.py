"""The User-Agent of a client: ``<title-slug>-sdk-python/<release>``, as HTTP token text."""

from __future__ import annotations

import re
import unicodedata

from .model import ServiceModel


def _ascii(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def user_agent_token(text: str) -> str:
    """``Café Orders API`` -> ``Cafe-Orders-API``: accents dropped, anything outside a token becomes a dash."""
    token = re.sub(r"[^A-Za-z0-9!#$%&'*+.^_`|~-]+", "-", _ascii(text))
    return re.sub(r"-{2,}", "-", token).strip("-")


def user_agent_of(model: ServiceModel, suffix: str | None = None) -> str:
    product = user_agent_token(model.title or "").lower() or "api"
    version = user_agent_token(model.release) or "0"
    extra = "" if suffix is None else "".join(c if " " <= c <= "~" else "?" for c in _ascii(suffix)).strip()
    return f"{product}-sdk-python/{version}" + (f" {extra}" if extra else "")
