"""Answers that do not match their schema, read as far as they go.

A server may answer with more, less or other than its description says (an example that breaks its own schema, a
field a later release retyped). Like the SDKs users hold beside this one, the runtime does not fail such a call by
default: what validates is validated, a model whose fields do not is built as it came (pydantic's
``model_construct``, unknown fields kept), and any other value stays the decoded JSON. ``strict_response_validation``
turns this off and raises :class:`MalformedResponseError` instead.
"""

from __future__ import annotations

import types
from typing import Annotated, Any, Union, cast, get_args, get_origin

import pydantic

from .parsing import adapter_of

# `X | Y` unions (Python 3.10+); on 3.9 only typing.Union exists.
_UNION_TYPE: object = getattr(types, "UnionType", Union)


def _validated(kind: object, data: object) -> tuple[bool, Any]:
    try:
        return True, adapter_of(kind).validate_python(data)
    except (pydantic.ValidationError, pydantic.PydanticUserError):
        # A field's annotation may be a reference pydantic resolved only within its model: not usable alone.
        return False, None


def construct(kind: object, data: object) -> Any:
    """``data`` as ``kind`` where it validates, else built as far as its shape allows; never raises."""
    ok, value = _validated(kind, data)
    if ok:
        return value
    origin = get_origin(kind)
    args = get_args(kind)
    if origin is Annotated:
        return construct(args[0], data)
    if origin is Union or origin is _UNION_TYPE:
        for member in args:
            ok, value = _validated(member, data)
            if ok:
                return value
        for member in args:
            if isinstance(member, type) and issubclass(member, pydantic.BaseModel) and isinstance(data, dict):
                return _model(member, cast("dict[object, object]", data))
        return data
    if origin in (list, tuple) and isinstance(data, list):
        item: object = args[0] if args else object
        return [construct(item, x) for x in cast("list[object]", data)]
    if origin is dict and isinstance(data, dict) and len(args) == 2:
        return {k: construct(args[1], v) for k, v in cast("dict[object, object]", data).items()}
    if isinstance(kind, type) and issubclass(kind, pydantic.BaseModel) and isinstance(data, dict):
        return _model(kind, cast("dict[object, object]", data))
    return cast(Any, data)


def _model(kind: type[pydantic.BaseModel], data: dict[object, object]) -> pydantic.BaseModel:
    values: dict[str, Any] = {}
    known: set[str] = set()
    for name, field in kind.model_fields.items():
        key = field.alias or name
        known.add(key)
        if key in data:
            values[name] = construct(field.annotation, data[key])
    extra: dict[str, Any] = {str(k): v for k, v in data.items() if k not in known}
    return kind.model_construct(None, **values, **extra)
