"""Webhook verification. The signature over the exact raw body is compared in constant time, under each secret in
turn, before the body is decoded or parsed; the unsigned headers are then checked against the signed body. Header
and body field names come from the model."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Generic, Literal, TypeVar, Union

from .envelope import as_record
from .errors import WebhookPayloadError, WebhookSignatureError, WebhookStaleError
from .lenient import construct
from .model import WebhooksModel
from .parsing import BaseModel

HeadersInput = Mapping[str, Union[str, Sequence[str]]]

DEFAULT_TOLERANCE = 300.0
"""Seconds a delivery's signed timestamp may lie before (or after) the receiver's clock: the replay window."""


@dataclass(frozen=True)
class VerifiedEvent:
    event: dict[str, object]
    event_id: str
    event_type: str
    known: bool
    """Whether the event type is one of the description's; others come from later releases."""
    subscription_id: str | None
    secret_index: int
    """Index of the secret that matched (watch it during a rotation)."""


E_co = TypeVar("E_co", covariant=True)


@dataclass(frozen=True)
class WebhookDelivery(Generic[E_co]):
    """A verified delivery, its body parsed into the model of its event type (``event``). The generated classes
    below it add ``event_type`` (the event's name as a literal) and ``known``; check ``known is False`` (or
    ``isinstance(delivery, UnknownWebhookDelivery)``) first, then ``event_type`` narrows to one event's class."""

    event: E_co
    event_id: str
    subscription_id: str | None
    secret_index: int
    """Index of the secret that matched (watch it during a rotation)."""


class UnknownEvent(BaseModel):
    """The body of an event type the description does not name (a later release's): every field is kept."""


@dataclass(frozen=True)
class UnknownWebhookDelivery(WebhookDelivery[UnknownEvent]):
    """A delivery of an event type the description does not name: kept, not lost."""

    event_type: str = ""
    known: Literal[False] = False


KnownDeliveries = Mapping[str, "tuple[type[WebhookDelivery[Any]], object]"]
"""The generated table: event name -> (its delivery class, the type of its body)."""


def typed_delivery(verified: VerifiedEvent, known: KnownDeliveries) -> WebhookDelivery[object]:
    """The verified delivery as the class of its event type, the body parsed into its model (as far as it goes: a
    signed body is never refused for its shape); an event type not in ``known`` as an UnknownWebhookDelivery."""
    found = known.get(verified.event_type)
    if found is None:
        unknown = UnknownEvent.model_validate(verified.event)
        return UnknownWebhookDelivery(
            unknown, verified.event_id, verified.subscription_id, verified.secret_index, event_type=verified.event_type
        )
    kind, body = found
    return kind(construct(body, verified.event), verified.event_id, verified.subscription_id, verified.secret_index)


def sign(raw_body: bytes, secret: str, model: WebhooksModel) -> str:
    """The signature header value of a body: the model's prefix and the hex HMAC-SHA256 under the secret."""
    return model.signature_prefix + hmac.new(secret.encode("utf-8"), raw_body, hashlib.sha256).hexdigest()


def read_header(headers: HeadersInput, name: str) -> str | None:
    """The single value of a header, matched case-insensitively; several values make it malformed."""
    wanted = name.lower()
    values: list[str] = []
    for key, value in headers.items():
        if key.lower() == wanted:
            values.extend([value] if isinstance(value, str) else value)
    if len(values) > 1:
        raise WebhookSignatureError(f"{name} has more than one value")
    return values[0] if values and values[0] else None


def verify(
    raw_body: bytes,
    headers: HeadersInput,
    secret: str | Sequence[str],
    model: WebhooksModel,
    *,
    tolerance: float | None = DEFAULT_TOLERANCE,
    now: Callable[[], float] | None = None,
) -> VerifiedEvent:
    """Verifies a delivery and returns its event; raises a WebhookVerificationError subclass on any failure.

    When the model names a timestamp field, a delivery whose signed timestamp is missing, unreadable, or more than
    ``tolerance`` seconds away from ``now()`` (default ``time.time``) is refused with WebhookStaleError; ``None`` turns
    the check off."""
    secrets = [secret] if isinstance(secret, str) else list(secret)
    if not secrets or any(not isinstance(s, str) or not s for s in secrets):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise ValueError("at least one non-empty webhook secret is required")
    if tolerance is not None and not tolerance > 0:
        raise ValueError(f"the webhook tolerance must be a positive number of seconds or None, not {tolerance!r}")
    if not isinstance(raw_body, (bytes, bytearray)):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError("pass the raw body bytes exactly as received")
    signature = read_header(headers, model.signature_header)
    if signature is None:
        raise WebhookSignatureError(f"no {model.signature_header} header")
    if re.fullmatch(re.escape(model.signature_prefix) + "[0-9a-f]{64}", signature) is None:
        raise WebhookSignatureError(
            f"{model.signature_header} is not {model.signature_prefix}<64 lowercase hex digits>"
        )
    index = -1
    for at, candidate in enumerate(secrets):
        expected = sign(bytes(raw_body), candidate, model)
        if hmac.compare_digest(expected.encode("ascii"), signature.encode("ascii")) and index < 0:
            index = at
    if index < 0:
        raise WebhookSignatureError("the signature does not match the body")
    try:
        decoded: object = json.loads(bytes(raw_body).decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise WebhookPayloadError("the body is not JSON") from error
    event = as_record(decoded)
    if event is None:
        raise WebhookPayloadError("the body is not a JSON object")
    event_id = event.get(model.event_id_field)
    event_type = event.get(model.event_type_field)
    if not isinstance(event_id, str) or not event_id or not isinstance(event_type, str) or not event_type:
        raise WebhookPayloadError(f"the body has no {model.event_id_field} and {model.event_type_field}")
    if read_header(headers, model.event_id_header) != event_id:
        raise WebhookPayloadError(f"{model.event_id_header} does not equal the body's {model.event_id_field}")
    if model.event_type_header is not None:
        told = read_header(headers, model.event_type_header)
        if told is not None and told != event_type:
            raise WebhookPayloadError(f"{model.event_type_header} does not equal the body's {model.event_type_field}")
    subscription = None if model.subscription_id_header is None else read_header(headers, model.subscription_id_header)
    if subscription is not None and model.subscription_id_field is not None:
        signed = event.get(model.subscription_id_field)
        if isinstance(signed, (str, int)) and str(signed) != subscription:
            raise WebhookPayloadError(
                f"{model.subscription_id_header} does not equal the body's {model.subscription_id_field}"
            )
    if tolerance is not None and model.timestamp_field is not None:
        _check_age(event.get(model.timestamp_field), model.timestamp_field, tolerance, (now or time.time)())
    return VerifiedEvent(event, event_id, event_type, event_type in model.event_types, subscription, index)


def _check_age(stamp: object, field: str, tolerance: float, now: float) -> None:
    """Refuses a signed timestamp outside ``now`` +/- ``tolerance`` seconds (the same rule in every language)."""
    sent_at = _parse_time(stamp)
    if sent_at is None:
        raise WebhookStaleError(
            f"the body's {field} is missing or not an ISO 8601 time, so the delivery's age cannot be checked"
        )
    age = now - sent_at
    if age > tolerance:
        raise WebhookStaleError(f"the body's {field} is {age:.0f} s old, outside the replay window of {tolerance:g} s")
    if -age > tolerance:
        raise WebhookStaleError(
            f"the body's {field} is {-age:.0f} s in the future, outside the replay window of {tolerance:g} s"
        )


def _parse_time(stamp: object) -> float | None:
    if not isinstance(stamp, str) or not stamp:
        return None
    text = stamp[:-1] + "+00:00" if stamp[-1:] in ("Z", "z") else stamp
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=timezone.utc)
    return parsed.timestamp()
