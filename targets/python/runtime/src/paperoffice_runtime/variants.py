"""The body rules the description states and the runtime checks before sending: which variant of a pipeline a body
is, and its "exactly one of" groups of fields."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .errors import SdkError
from .model import PipelineModel, VariantModel


def variant_of(pipeline: PipelineModel, body: Mapping[str, object]) -> VariantModel | None:
    """The variant a body is: the one whose property has the body's value, else (the property absent) the server's
    default, else a pipeline's only variant without a property. None when the body names no variant the
    description lists."""
    for variant in pipeline.variants:
        if variant.property is not None and body.get(variant.property) == variant.value:
            return variant
    for variant in pipeline.variants:
        if variant.property is None or (variant.server_default and variant.property not in body):
            return variant
    return None


def check_exactly_one(groups: Sequence[Sequence[str]], body: object, where: str) -> None:
    """Refuses (SdkError) a body with none or several fields of an "exactly one of" group set (present and not
    None), naming the group and the fields that are set; nothing is sent."""
    if not groups or not isinstance(body, Mapping):
        return
    fields: Mapping[object, object] = body  # pyright: ignore[reportUnknownVariableType]
    for group in groups:
        present = [name for name in group if fields.get(name) is not None]
        if len(present) == 1:
            continue
        found = "none is" if not present else f"{len(present)} are ({', '.join(present)})"
        raise SdkError(f"{where}: exactly one of {', '.join(group)} must be set, {found}; nothing was sent")
