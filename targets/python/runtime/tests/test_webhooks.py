"""Webhook verification with the model's header and field names."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from paperoffice_runtime import (
    WebhookPayloadError,
    WebhookSignatureError,
    WebhookVerificationError,
    sign,
    verify,
)

from .conftest import make_model

MODEL = make_model().webhooks
assert MODEL is not None
BODY = json.dumps({"event_id": "ev_1", "event_type": "job.completed", "subscription_id": 7}).encode()


def headers(body: bytes = BODY, secret: str = "whsec-1", **extra: str) -> dict[str, str]:
    assert MODEL is not None
    return {"x-docs-signature": sign(body, secret, MODEL), "X-Docs-Event-ID": "ev_1", **extra}


def test_valid_delivery() -> None:
    assert MODEL is not None
    event = verify(BODY, headers(), ["old-secret", "whsec-1"], MODEL)
    assert (event.event_id, event.event_type, event.known, event.secret_index) == ("ev_1", "job.completed", True, 1)


def test_unknown_event_type_is_kept() -> None:
    assert MODEL is not None
    body = json.dumps({"event_id": "ev_1", "event_type": "job.later"}).encode()
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
