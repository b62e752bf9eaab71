"""Redaction of secrets from texts the runtime raises. A secret is replaced where it stands as a token of its own,
never inside a word: with the token ``t``, the server's ``no pet`` stays ``no pet``. Secrets long enough not to
occur by chance are replaced anywhere, so that a key glued to other text does not leak."""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Iterable
from typing import cast

from .model import TokenKindsModel

MARK = "[redacted]"
ANYWHERE_FROM_LENGTH = 12
"""From this length a secret is redacted even inside a longer word."""

_BEARER = re.compile(r"\b(Bearer\s+)(?=[A-Za-z0-9._~+/=-]*[0-9._~+/=-])[A-Za-z0-9._~+/-]{8,}=*", re.IGNORECASE)


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


def _replace_bounded(text: str, secret: str) -> str:
    first = _is_word(secret[0])
    last = _is_word(secret[-1])
    out: list[str] = []
    start = 0
    at = text.find(secret)
    while at != -1:
        end = at + len(secret)
        if (
            at >= start
            and not (first and at > 0 and _is_word(text[at - 1]))
            and not (last and end < len(text) and _is_word(text[end]))
        ):
            out.append(text[start:at])
            out.append(MARK)
            start = end
        at = text.find(secret, at + 1)
    out.append(text[start:])
    return "".join(out)


def redact_secrets(text: str, secrets: Iterable[str], brand_pattern: str | None = None) -> str:
    """Replaces each secret where it is not part of a longer word, then bearer credentials and branded tokens."""
    for secret in sorted((s for s in secrets if s), key=len, reverse=True):
        text = text.replace(secret, MARK) if len(secret) >= ANYWHERE_FROM_LENGTH else _replace_bounded(text, secret)
    text = _BEARER.sub(lambda match: match.group(1) + MARK, text)
    return text if brand_pattern is None else re.sub(brand_pattern, MARK, text)


def brand_pattern(tokens: TokenKindsModel | None) -> str | None:
    """The pattern of the description's branded tokens (``<brand><prefix>...``), or None without token kinds."""
    if tokens is None or not tokens.kinds:
        return None
    prefixes = "|".join(re.escape(kind.prefix) for kind in tokens.kinds)
    return f"{re.escape(tokens.brand)}(?:{prefixes})[A-Za-z0-9._~-]+"


class Redactor:
    """Every secret seen (credentials, their encodings, configured secrets) and the rule that removes them."""

    def __init__(self, secrets: Iterable[str] = (), tokens: TokenKindsModel | None = None) -> None:
        self._secrets: set[str] = set()
        self._brand = brand_pattern(tokens)
        for secret in secrets:
            self.add(secret)

    def add(self, secret: str) -> None:
        """Remembers a secret, with the forms a URL query gives it."""
        if not secret:
            return
        self._secrets.add(secret)
        for encoded in (urllib.parse.quote(secret, safe=""), urllib.parse.quote_plus(secret)):
            if encoded != secret:
                self._secrets.add(encoded)

    def text(self, text: str) -> str:
        return redact_secrets(text, self._secrets, self._brand)

    def value(self, value: object) -> object:
        """A deep copy of a JSON value with every string redacted."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.value(item) for item in cast("list[object]", value)]
        if isinstance(value, dict):
            return {key: self.value(item) for key, item in cast("dict[object, object]", value).items()}
        return value
