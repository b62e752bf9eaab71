"""Credentials from the description's security schemes.

A bearer token (also for oauth2 and openIdConnect), HTTP basic, an API key in a header, the query or a cookie, or
any credential by its scheme's name. Each operation's security alternatives choose what is sent; an empty
alternative means nothing is needed; a credential that is needed but missing raises before any request.
"""

from __future__ import annotations

import base64
import json
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Union

from .errors import MissingCredentialsError, SdkError
from .model import Security, SecurityScheme
from .redact import Redactor

TokenProvider = Callable[[], str]
"""Returns the current token; called before every request."""


@dataclass(frozen=True)
class BasicCredentials:
    username: str
    password: str = field(repr=False)

    def __repr__(self) -> str:
        return f"BasicCredentials(username={self.username!r}, password=<redacted>)"


Credential = Union[str, TokenProvider, BasicCredentials, tuple[str, str]]


@dataclass
class AppliedCredentials:
    """What one request carries for its security."""

    headers: dict[str, str] = field(default_factory=dict[str, str])
    query: dict[str, str] = field(default_factory=dict[str, str])
    cookies: list[str] = field(default_factory=list[str])


@dataclass(frozen=True)
class _Resolved:
    scheme: str
    model: SecurityScheme | None
    credential: Credential


class Credentials:
    """The credentials of one client; secrets are remembered by the redactor as soon as they are seen."""

    def __init__(
        self,
        schemes: Mapping[str, SecurityScheme],
        redactor: Redactor,
        *,
        token: str | TokenProvider | None = None,
        api_key: str | TokenProvider | None = None,
        basic: BasicCredentials | tuple[str, str] | None = None,
        by_scheme: Mapping[str, Credential] | None = None,
    ) -> None:
        self._schemes = dict(schemes)
        self._redactor = redactor
        self._token = token
        self._api_key = api_key
        self._basic = _basic(basic) if basic is not None else None
        self._by_scheme: dict[str, Credential] = dict(by_scheme or {})
        given = (token, api_key, self._basic, *self._by_scheme.values())
        for credential in given:
            if isinstance(credential, str):
                redactor.add(credential)
            elif credential is not None and not callable(credential):
                self._encode_basic(_basic(credential))
        # Without a token provider, what a security requirement sends never changes: worked out once per requirement.
        self._fixed: dict[Security | None, AppliedCredentials] | None = (
            None if any(callable(credential) for credential in given) else {}
        )

    def __repr__(self) -> str:
        return "Credentials(<redacted>)"

    def apply(self, security: Security | None, operation: str) -> AppliedCredentials:
        """The credentials of one request: the first alternative the client has all credentials for (not to be
        changed: without token providers, the requests of one security requirement share it)."""
        fixed = self._fixed
        if fixed is None:
            return self._build(self._choose(security, operation))
        found = fixed.get(security)
        if found is None:
            found = self._build(self._choose(security, operation))
            fixed[security] = found
        return found

    def _choose(self, security: Security | None, operation: str) -> list[_Resolved]:
        if security is None:
            for loose in (False, True):
                for name in self._schemes:
                    found = self._resolve(name, loose=loose)
                    if found is not None:
                        return [found]
            return [] if self._token is None else [_Resolved("", None, self._token)]
        for loose in (False, True):
            for alternative in security:
                if not alternative:
                    continue
                resolved = [self._resolve(name, loose=loose) for name in alternative]
                complete = [r for r in resolved if r is not None]
                if len(complete) == len(resolved):
                    return complete
        if not security or any(not alternative for alternative in security):
            return []
        wanted = [" and ".join(self._describe(name) for name in alternative) for alternative in security]
        needs = wanted[0] if len(wanted) == 1 else "one of " + "; or ".join(wanted)
        raise MissingCredentialsError(f"{operation} needs credentials: {needs}")

    def _resolve(self, name: str, *, loose: bool) -> _Resolved | None:
        model = self._schemes.get(name)
        own = self._by_scheme.get(name)
        if own is not None:
            return _Resolved(name, model, own)
        credential = self._token if model is None else self._by_type(model, loose=loose)
        return None if credential is None else _Resolved(name, model, credential)

    def _by_type(self, model: SecurityScheme, *, loose: bool) -> Credential | None:
        if model.type == "http":
            if model.scheme == "basic":
                return self._basic
            return self._token if (model.scheme or "").lower() == "bearer" else None
        if model.type == "apiKey":
            return self._api_key if self._api_key is not None or not loose else self._token
        if model.type in ("oauth2", "openIdConnect"):
            return self._token
        return ""  # mutualTLS: the client certificate travels with the connection, not the request.

    def _describe(self, name: str) -> str:
        model = self._schemes.get(name)
        if model is None:
            how = "pass token"
        elif model.type == "apiKey":
            how = f"API key in {model.location} {json.dumps(model.name)}: pass api_key"
        elif model.type == "http" and model.scheme == "basic":
            how = "HTTP basic: pass username and password"
        elif model.type == "http" and (model.scheme or "").lower() != "bearer":
            how = f"HTTP {model.scheme}: pass credentials[{json.dumps(name)}] with the header value"
        elif model.type == "http":
            how = "bearer token: pass token"
        else:
            how = f"{model.type} token, sent as a bearer token: pass token"
        return f"security scheme {json.dumps(name)} ({how}, or credentials[{json.dumps(name)}])"

    def _value(self, credential: Credential) -> str | BasicCredentials:
        if isinstance(credential, str):
            return credential
        if not callable(credential):
            return _basic(credential)
        value = credential()
        if not isinstance(value, str) or not value:  # pyright: ignore[reportUnnecessaryIsInstance]
            raise SdkError("the token provider returned no token")
        self._redactor.add(value)
        return value

    def _build(self, chosen: list[_Resolved]) -> AppliedCredentials:
        out = AppliedCredentials()
        for resolved in chosen:
            model = resolved.model
            if model is not None and model.type == "mutualTLS":
                continue
            value = self._value(resolved.credential)
            if isinstance(value, BasicCredentials):
                out.headers["Authorization"] = "Basic " + self._encode_basic(value)
            elif model is not None and model.type == "apiKey" and model.name is not None:
                if model.location == "query":
                    out.query[model.name] = value
                elif model.location == "cookie":
                    out.cookies.append(f"{urllib.parse.quote(model.name)}={urllib.parse.quote(value, safe='')}")
                else:
                    out.headers[model.name] = value
            elif model is not None and model.type == "http" and (model.scheme or "").lower() != "bearer":
                out.headers["Authorization"] = value
            else:
                out.headers["Authorization"] = "Bearer " + value
        return out

    def _encode_basic(self, basic: BasicCredentials) -> str:
        encoded = base64.b64encode(f"{basic.username}:{basic.password}".encode()).decode("ascii")
        self._redactor.add(basic.password)
        self._redactor.add(encoded)
        return encoded


def _basic(value: BasicCredentials | tuple[str, str]) -> BasicCredentials:
    return value if isinstance(value, BasicCredentials) else BasicCredentials(value[0], value[1])
