"""The price of a job from the description's price list: base credits x lane multiplier, at least the minimum."""

from __future__ import annotations

from .errors import SdkError
from .model import ServiceModel


def price_job(model: ServiceModel, pipeline: str, lane: str | None = None) -> float:
    """Credits a job of ``pipeline`` costs in ``lane`` (default: the price list's default lane). Not rounded."""
    pricing = model.pricing
    if pricing is None:
        raise SdkError(f"release {model.release} has no price list")
    spec = model.pipelines.get(pipeline)
    if spec is None or spec.base_credits is None:
        raise SdkError(f"no base price for pipeline {pipeline!r} in release {model.release}")
    chosen = pricing.default_lane if lane is None else lane
    multiplier = pricing.lane_multipliers.get(chosen)
    if multiplier is None:
        raise SdkError(f"unknown processing lane {chosen!r}; known: {', '.join(pricing.lane_multipliers)}")
    return max(spec.base_credits * multiplier, pricing.minimum_charge or 0)
