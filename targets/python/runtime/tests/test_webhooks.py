"""Webhook verification with the model's header and field names."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Literal

import pytest

from paperoffice_runtime import (
    BaseModel,
    UnknownEvent,
    UnknownWebhookDelivery,
    WebhookDelivery,
    WebhookPayloadError,
    WebhookSignatureError,
    WebhookStaleError,
    WebhookVerificationError,
    sign,
    typed_delivery,
    verify,
)

from .conftest import make_model

MODEL = make_model().webhooks
assert MODEL is not None


def stamp(at: float) -> str:
    return datetime.fromtimestamp(at, timezone.utc).isoformat().replace("+00:00", "Z")


def event_body(**fields: object) -> bytes:
    base: dict[str, object] = {"event_id": "ev_1", "event_type": "job.completed", "subscription_id": 7}
    base["timestamp"] = stamp(time.time())
    base.update(fields)
    return json.dumps({k: v for k, v in base.items() if v is not None}).encode()


BODY = event_body()


def headers(body: bytes = BODY, secret: str = "whsec-1", **extra: str) -> dict[str, str]:
    assert MODEL is not None
    return {"x-docs-signature": sign(body, secret, MODEL), "X-Docs-Event-ID": "ev_1", **extra}


def test_valid_delivery() -> None:
    assert MODEL is not None
    event = verify(BODY, headers(), ["old-secret", "whsec-1"], MODEL)
    assert (event.event_id, event.event_type, event.known, event.secret_index) == ("ev_1", "job.completed", True, 1)


def test_unknown_event_type_is_kept() -> None:
    assert MODEL is not None
    body = event_body(event_type="job.later", subscription_id=None)
    assert not verify(body, headers(body), "whsec-1", MODEL).known


def without_signature(h: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in h.items() if k != "x-docs-signature"}


def uppercase_signature(h: dict[str, str]) -> dict[str, str]:
    return {**h, "x-docs-signature": h["x-docs-signature"].upper()}


def wrong_signature(h: dict[str, str]) -> dict[str, str]:
    return {**h, "x-docs-signature": "sha256=" + "0" * 64}


def other_event_id(h: dict[str, str]) -> dict[str, str]:
    return {**h, "X-Docs-Event-ID": "ev_2"}


def other_event_type(h: dict[str, str]) -> dict[str, str]:
    return {**h, "X-Docs-Event": "job.failed"}


def other_subscription(h: dict[str, str]) -> dict[str, str]:
    return {**h, "X-Docs-Subscription-ID": "8"}


def duplicated_signature(h: dict[str, str]) -> dict[str, str]:
    return {**h, "X-Docs-Signature": h["x-docs-signature"]}


REFUSALS: list[tuple[Callable[[dict[str, str]], dict[str, str]], type[WebhookVerificationError]]] = [
    (without_signature, WebhookSignatureError),
    (uppercase_signature, WebhookSignatureError),
    (wrong_signature, WebhookSignatureError),
    (duplicated_signature, WebhookSignatureError),
    (other_event_id, WebhookPayloadError),
    (other_event_type, WebhookPayloadError),
    (other_subscription, WebhookPayloadError),
]


@pytest.mark.parametrize(("mutate", "error"), REFUSALS)
def test_refused_deliveries(
    mutate: Callable[[dict[str, str]], dict[str, str]], error: type[WebhookVerificationError]
) -> None:
    assert MODEL is not None
    with pytest.raises(error):
        verify(BODY, mutate(headers()), "whsec-1", MODEL)


def test_body_changed_after_signing_is_refused() -> None:
    assert MODEL is not None
    with pytest.raises(WebhookSignatureError):
        verify(BODY + b" ", headers(), "whsec-1", MODEL)


def test_signed_body_that_is_not_an_event() -> None:
    assert MODEL is not None
    body = b"[1, 2]"
    with pytest.raises(WebhookPayloadError) as caught:
        verify(body, headers(body), "whsec-1", MODEL)
    assert caught.value.status == 400


def test_no_secret_is_a_usage_error() -> None:
    assert MODEL is not None
    with pytest.raises(ValueError, match="secret"):
        verify(BODY, headers(), [], MODEL)


SENT = 1_800_000_000.0
"""The signing time of the replay-window tests; the receiver's clock is set relative to it."""


def test_replay_window_defaults_to_300_seconds() -> None:
    assert MODEL is not None
    body = event_body(timestamp=stamp(SENT))
    assert verify(body, headers(body), "whsec-1", MODEL, now=lambda: SENT + 299).event_id == "ev_1"
    assert verify(body, headers(body), "whsec-1", MODEL, now=lambda: SENT - 299).event_id == "ev_1"
    with pytest.raises(
        WebhookStaleError, match=r"the body's timestamp is 301 s old, outside the replay window of 300 s"
    ):
        verify(body, headers(body), "whsec-1", MODEL, now=lambda: SENT + 301)
    with pytest.raises(WebhookStaleError, match=r"timestamp is 400 s in the future"):
        verify(body, headers(body), "whsec-1", MODEL, now=lambda: SENT - 400)


def test_replay_window_is_configurable_and_can_be_turned_off() -> None:
    assert MODEL is not None
    body = event_body(timestamp=stamp(SENT))
    with pytest.raises(WebhookStaleError, match="outside the replay window of 60 s") as caught:
        verify(body, headers(body), "whsec-1", MODEL, tolerance=60, now=lambda: SENT + 61)
    assert caught.value.status == 400
    assert verify(body, headers(body), "whsec-1", MODEL, tolerance=3600, now=lambda: SENT + 3000).known
    assert verify(body, headers(body), "whsec-1", MODEL, tolerance=None, now=lambda: SENT + 10**6).known
    with pytest.raises(ValueError, match="tolerance"):
        verify(body, headers(body), "whsec-1", MODEL, tolerance=0)


@pytest.mark.parametrize("value", [None, "", "yesterday", 1_800_000_000])
def test_unreadable_timestamp_is_refused_when_the_window_is_on(value: object) -> None:
    assert MODEL is not None
    body = json.dumps({"event_id": "ev_1", "event_type": "job.completed", "timestamp": value}).encode()
    with pytest.raises(WebhookStaleError, match="timestamp is missing or not an ISO 8601 time"):
        verify(body, headers(body), "whsec-1", MODEL)
    assert verify(body, headers(body), "whsec-1", MODEL, tolerance=None).known


def test_a_stale_delivery_is_refused_only_after_the_signature() -> None:
    assert MODEL is not None
    body = event_body(timestamp=stamp(SENT))
    with pytest.raises(WebhookSignatureError):
        verify(body, headers(body, secret="other"), "whsec-1", MODEL, now=lambda: SENT + 10**6)


class CompletedEvent(BaseModel):
    event_id: str = ""
    subscription_id: int = 0


@dataclass(frozen=True)
class CompletedDelivery(WebhookDelivery[CompletedEvent]):
    event_type: Literal["job.completed"] = "job.completed"
    known: Literal[True] = True


def test_typed_delivery_parses_the_body_into_its_event_model() -> None:
    assert MODEL is not None
    delivery = typed_delivery(
        verify(BODY, headers(), "whsec-1", MODEL), {"job.completed": (CompletedDelivery, CompletedEvent)}
    )
    assert isinstance(delivery, CompletedDelivery) and isinstance(delivery.event, CompletedEvent)
    assert (delivery.event.event_id, delivery.event.subscription_id, delivery.secret_index) == ("ev_1", 7, 0)
    # A signed body whose fields do not fit the model is still handed over, as far as it goes.
    odd = event_body(subscription_id="not a number")
    kept = typed_delivery(
        verify(odd, headers(odd), "whsec-1", MODEL), {"job.completed": (CompletedDelivery, CompletedEvent)}
    )
    assert isinstance(kept, CompletedDelivery) and kept.event.event_id == "ev_1"


def test_an_unknown_event_type_is_kept_whole_as_a_generic_event() -> None:
    assert MODEL is not None
    body = event_body(event_type="job.later", extra={"k": 1})
    delivery = typed_delivery(
        verify(body, headers(body), "whsec-1", MODEL), {"job.completed": (CompletedDelivery, CompletedEvent)}
    )
    assert isinstance(delivery, UnknownWebhookDelivery) and delivery.known is False
    assert delivery.event_type == "job.later" and isinstance(delivery.event, UnknownEvent)
    assert (delivery.event.model_extra or {})["extra"] == {"k": 1}
