"""Reading the common parts of every answer (by the envelope's field names from the model) and turning an error
answer into the typed error of its code, from the model's error table."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

import httpx

from .errors import ServiceError, status_error_class
from .model import EnvelopeModel, ServiceModel
from .redact import Redactor
from .retry import parse_retry_after

TEXT_SNIPPET = 200


@dataclass(frozen=True)
class ResponseMeta:
    """Facts of the answer that produced a result."""

    status: int
    headers: httpx.Headers
    request_count: int
    request_id: str | None = None
    processing_time: str | None = None
    billing: Mapping[str, object] | None = None


def as_record(value: object) -> dict[str, object] | None:
    if isinstance(value, dict):
        record = cast("dict[object, object]", value)
        return {str(key): item for key, item in record.items()}
    return None


def decode_json(body: bytes) -> tuple[bool, object]:
    """(True, value) for a JSON body, (False, None) otherwise."""
    try:
        return True, json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return False, None


def _read_only_record(value: object) -> Mapping[object, object] | None:
    """A decoded JSON object as it is, to read fields from (``as_record`` copies it)."""
    return cast("dict[object, object]", value) if isinstance(value, dict) else None


def is_error_body(body: object, envelope: EnvelopeModel | None) -> bool:
    """A JSON body whose envelope status says error, whatever the HTTP status."""
    record = None if envelope is None else _read_only_record(body)
    return envelope is not None and record is not None and record.get(envelope.status) == envelope.error


def build_meta(model: ServiceModel, response: httpx.Response, body: object, request_count: int) -> ResponseMeta:
    record = _read_only_record(body)
    envelope = model.envelope
    time: str | None = None
    billing: Mapping[str, object] | None = None
    if record is not None and envelope is not None:
        raw_time = None if envelope.processing_time is None else record.get(envelope.processing_time)
        time = raw_time if isinstance(raw_time, str) else None
        billing = None if envelope.billing is None else as_record(record.get(envelope.billing))
    return ResponseMeta(
        status=response.status_code,
        headers=response.headers,
        request_count=request_count,
        request_id=request_id_of(model, response.headers),
        processing_time=time,
        billing=billing,
    )


def request_id_of(model: ServiceModel, headers: httpx.Headers) -> str | None:
    return None if model.request_id_header is None else headers.get(model.request_id_header)


def next_request_seconds(body: object, envelope: EnvelopeModel | None) -> float | None:
    """Seconds the service asks to wait before the next request, at the envelope's pacing path."""
    if envelope is None or not envelope.next_request_seconds:
        return None
    value: object = body
    for name in envelope.next_request_seconds:
        record = as_record(value)
        value = None if record is None else record.get(name)
    return float(value) if isinstance(value, (int, float)) and value > 0 else None


class ErrorMapper:
    """Error answers as the typed errors the generated SDK declares, one class per code of the error table; an
    answer without a known code gets the class of its HTTP status."""

    def __init__(self, model: ServiceModel, classes: Mapping[str, type[ServiceError]], redactor: Redactor) -> None:
        self.model = model
        self.classes = dict(classes)
        self.redactor = redactor

    def from_answer(
        self, status: int, raw: bytes, headers: httpx.Headers | None = None, *, job_id: str | None = None
    ) -> ServiceError:
        ok, decoded = decode_json(raw)
        body: object = self.redactor.value(decoded) if ok else self.redactor.text(raw.decode("utf-8", "replace"))
        return self.from_body(status, body, headers, job_id=job_id)

    def from_body(
        self, status: int, body: object, headers: httpx.Headers | None = None, *, job_id: str | None = None
    ) -> ServiceError:
        """The error of a body already redacted."""
        code, text, time = self.fields(body)
        if isinstance(body, str) and body.strip():
            fallback = f"HTTP {status}: {body.strip()[:TEXT_SNIPPET]}"
        else:
            spec = None if code is None else self.model.errors.get(code)
            fallback = spec.description if spec is not None and spec.description else f"HTTP {status}"
        message = text or fallback
        # The class of the code, else the class of the status.
        cls = (None if code is None else self.classes.get(code)) or status_error_class(status)
        return cls(
            message if code is None else f"{code}: {message}",
            status=status,
            code=code,
            body=body,
            processing_time=time,
            request_id=None if headers is None else request_id_of(self.model, headers),
            retry_after=None if headers is None else parse_retry_after(headers.get("retry-after")),
            job_id=job_id,
        )

    def fields(self, body: object) -> tuple[str | None, str | None, str | None]:
        """The envelope's code, message and processing time of a body, when the model names those fields."""
        envelope = self.model.envelope
        record = as_record(body)
        if envelope is None or record is None:
            return None, None, None
        code = record.get(envelope.code)
        message = record.get(envelope.message)
        time = None if envelope.processing_time is None else record.get(envelope.processing_time)
        return (
            code if isinstance(code, str) else None,
            message if isinstance(message, str) else None,
            time if isinstance(time, str) else None,
        )

    def refusal(self, code: str, message: str) -> ServiceError:
        """The error the service would answer for a request refused before it was sent."""
        spec = self.model.errors.get(code)
        status = 400 if spec is None else spec.status
        envelope = self.model.envelope
        if envelope is not None:
            return self.from_body(
                status, {envelope.status: envelope.error, envelope.code: code, envelope.message: message}
            )
        cls = self.classes.get(code) or status_error_class(status)
        return cls(f"{code}: {message}", status=status, code=code, body=message)
