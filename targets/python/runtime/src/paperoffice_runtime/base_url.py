"""The base address of a runtime: given, else from the environment variable the model names, else the
description's first server with its variables filled; checked against the description's base-path rule."""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Mapping

from .errors import SdkError
from .model import OperationSpec, ServerModel, ServiceModel


def fill_server(server: ServerModel, values: Mapping[str, str] | None) -> str:
    """The server's URL template with each ``{name}`` replaced by the given value or the variable's default."""
    given = dict(values or {})
    for name, value in given.items():
        variable = server.variables.get(name)
        if variable is None:
            known = ", ".join(server.variables) or "no variables"
            raise SdkError(f"server_variables[{name!r}]: the server {server.url!r} has {known}")
        if variable.enum and value not in variable.enum:
            raise SdkError(f"server_variables[{name!r}] must be one of {', '.join(variable.enum)}, got {value!r}")

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in given:
            return given[name]
        variable = server.variables.get(name)
        return match.group(0) if variable is None else variable.default

    return re.sub(r"\{([^{}]+)\}", replace, server.url)


def resolve_base_url(
    model: ServiceModel,
    base_url: str | None,
    server_variables: Mapping[str, str] | None,
    environ: Mapping[str, str],
) -> str:
    server = model.servers[0] if model.servers else None
    if server_variables is not None and server is None:
        raise SdkError("server_variables: the description declares no servers")
    from_env = None if model.env.base_url is None else environ.get(model.env.base_url) or None
    if base_url is not None:
        given, source = base_url, "base_url"
    elif from_env is not None:
        given, source = from_env, f"the environment variable {model.env.base_url}"
    elif server is not None:
        given, source = fill_server(server, server_variables), f"the description's server {server.url!r}"
    else:
        raise SdkError("base_url is required: the description declares no servers")
    return check_base_url(given, source, None if model.conventions is None else model.conventions.base_path_suffix)


def operation_base_url(operation: OperationSpec, base_url: str, given: bool, override: str | None) -> str:
    """Where one call goes: ``override`` (a call's ``base_url``) when given; else the runtime's base address when it
    was given (option or environment variable), which then applies to every operation so that a mock or proxy sees
    them all; else the operation's first own server, variables at their defaults, a relative one resolved below the
    runtime's base address; else the runtime's base address."""
    if override is not None:
        return check_base_url(override, "base_url", None)
    if given or not operation.servers:
        return base_url
    server = operation.servers[0]
    # Below the base address as a folder: "uploads" is under its path, "/uploads" at its origin.
    filled = urllib.parse.urljoin(base_url + "/", fill_server(server, None))
    return check_base_url(filled, f"the server {server.url!r} of operation {operation.operation_id}", None)


def check_base_url(given: str, source: str, suffix: str | None) -> str:
    rule = "" if suffix is None else f" ending in {suffix}"
    wanted = f"an absolute http(s) address{rule}, without query or fragment"
    hint = "" if source == "base_url" else "; pass base_url"
    text = given.strip()
    parts = urllib.parse.urlsplit(text)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise SdkError(f"base_url must be {wanted}: {source} gives {given!r}{hint}")
    if re.search(r"\{[^{}]*\}", urllib.parse.unquote(parts.netloc + parts.path)):
        raise SdkError(f"base_url has an unfilled server variable: {source} gives {given!r}{hint}")
    base = text.rstrip("/")
    if suffix is not None and not base.endswith(suffix):
        raise SdkError(f"base_url must be {wanted} (the description's base-path rule): {source} gives {given!r}{hint}")
    return base
