"""The plain data a generated SDK hands to the runtime: what the description says about the service.

The runtime holds no fact of the service. Every path, field name, status code, error code and header name it uses
comes from a :class:`ServiceModel` built by generated code.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from .facts import OperationFacts

HttpMethod = Literal["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"]
JobRole = Literal["submit", "poll", "download"]
MediaKind = Literal["json", "text", "bytes"]
"""How a body of a media type is handed over: decoded JSON, text, or bytes."""
Security = tuple[tuple[str, ...], ...]
"""Alternatives of security scheme names, any one of which is enough; an empty alternative means none is needed."""


@dataclass(frozen=True)
class ErrorSpec:
    """One row of the description's error table."""

    status: int
    description: str | None = None


@dataclass(frozen=True)
class ServerVariable:
    default: str
    enum: tuple[str, ...] = ()


@dataclass(frozen=True)
class ServerModel:
    """A server of the description: a URL template such as ``https://{host}/v1`` and its variables."""

    url: str
    variables: Mapping[str, ServerVariable] = field(default_factory=dict[str, ServerVariable])


@dataclass(frozen=True)
class SecurityScheme:
    """A security scheme as the runtime applies it.

    ``type`` is ``http`` (with ``scheme`` ``bearer``, ``basic`` or another whose credential is the whole header
    value), ``apiKey`` (with ``location`` ``header``, ``query`` or ``cookie`` and the parameter ``name``), ``oauth2``
    or ``openIdConnect`` (their tokens travel as bearer tokens) or ``mutualTLS`` (nothing in the request).
    """

    type: Literal["http", "apiKey", "oauth2", "openIdConnect", "mutualTLS"]
    scheme: str | None = None
    location: Literal["header", "query", "cookie"] | None = None
    name: str | None = None


@dataclass(frozen=True)
class EnvelopeModel:
    """Field names of the JSON object every answer is wrapped in."""

    status: str
    success: str
    error: str
    code: str
    message: str
    processing_time: str | None = None
    billing: str | None = None
    next_request_seconds: tuple[str, ...] = ()
    """Path of fields to the seconds to wait before the next request."""


@dataclass(frozen=True)
class TokenKind:
    prefix: str
    name: str
    server_only: bool = False


@dataclass(frozen=True)
class TokenKindsModel:
    """Token kinds of one security scheme, told apart by ``<brand><prefix>``."""

    scheme: str
    brand: str
    kinds: tuple[TokenKind, ...] = ()
    renew_on: tuple[str, ...] = ()


@dataclass(frozen=True)
class ConventionsModel:
    """Service-wide conventions the description states; absent for a plain description."""

    base_path_suffix: str | None = None
    envelope: EnvelopeModel | None = None
    tokens: TokenKindsModel | None = None


@dataclass(frozen=True)
class PaginationModel:
    """Names of a limit/offset read (``x-paperoffice-pagination``): the page size and skip query parameters, the
    answer's items array and its optional total."""

    limit: str
    offset: str
    items: str
    total: str | None = None


@dataclass(frozen=True)
class CursorPaginationModel:
    """Names of a read by cursor: the query parameter that carries the cursor, the answer field that gives the next
    page's (absent, null or empty on the last page) and the answer's items array."""

    cursor: str
    next: str
    items: str


@dataclass(frozen=True)
class LinkPaginationModel:
    """A read whose answer's ``Link`` header (RFC 8288, ``rel="next"``) gives the next page's URL; ``items`` is the
    answer's array field, None when the answer is the array itself."""

    items: str | None = None


@dataclass(frozen=True)
class OperationSpec:
    """One operation of the description, as the generated client describes it to the runtime."""

    operation_id: str
    method: HttpMethod
    path: str
    """Path template below the base address, for example ``/things/{id}``."""
    request_media_type: str | None = None
    """``application/json``, ``multipart/form-data``, ``application/x-www-form-urlencoded`` or another media type
    whose body is sent as it is."""
    response_media_types: tuple[str, ...] = ("application/json",)
    """Media types of the success answers, in the description's order; they make the Accept header. Empty: the
    answers have no body."""
    idempotent: bool | None = None
    """May be sent again after a failure that may have reached the server. None: true for GET, HEAD, PUT, DELETE,
    OPTIONS and TRACE. A job submission is never sent again, whatever this says."""
    billed: bool = False
    idempotency_key: str | None = None
    """The request header the operation takes an idempotency key in. Each call sends one (the ``idempotency_key``
    option, else a random UUID v4), the same on every retry, and may then be sent again after any failure."""
    job: JobRole | None = None
    security: Security | None = None
    """None: the first scheme the client has a credential for (raw requests)."""
    answers: tuple[tuple[int, tuple[str, ...]], ...] = ()
    """The declared success answers: (status, media types), status 0 for any other success status, no media type
    for an answer without content. Given, a body of a media type the status does not declare is refused. Empty: the
    answers are read by ``response_media_types`` alone."""
    answer_kinds: tuple[tuple[str, MediaKind], ...] = ()
    """How each declared answer media type is read, as the description's media type and schema make it (``*/*``
    with an object schema is JSON). A media type not listed is read by its name alone."""
    pagination: PaginationModel | CursorPaginationModel | LinkPaginationModel | None = None
    """How the operation pages, when the description states it (see pagination.py)."""
    servers: tuple[ServerModel, ...] = ()
    """The operation's own servers (operation- or path-level): it is sent to the first, variables at their
    defaults, a relative one below the runtime's base address, unless the base address was given (``base_url`` or
    the environment variable), which applies to every operation. Empty: the runtime's base address."""
    exactly_one: tuple[tuple[str, ...], ...] = ()
    """The JSON or form body's "exactly one of" groups (field names): a body with none or several fields of a group
    set is refused before anything is sent."""

    @functools.cached_property
    def facts(self) -> OperationFacts:
        """What every call of the operation needs to know of it, worked out once (not a field: equality, hashing and
        ``dataclasses.replace`` leave it out)."""
        from .facts import OperationFacts  # noqa: PLC0415 (facts.py imports this module)

        return OperationFacts(self)


@dataclass(frozen=True)
class NoWait:
    """The body field and value that ask the submission not to hold."""

    field: str
    value: str | int | float | bool


@dataclass(frozen=True)
class JobSubmitModel:
    operation: OperationSpec
    job_id: str
    """Field of the answer that holds the job id."""
    pipeline_parameter: str | None = None
    poll_url: str | None = None
    still_running_status: int | None = None
    no_wait: NoWait | None = None
    selector_pattern: str | None = None
    selector_refusal: str | None = None


@dataclass(frozen=True)
class JobPollModel:
    operation: OperationSpec
    job_id_parameter: str
    status: str
    """Field of the poll answer that holds the job status."""
    completed: str
    """Value of the status field once the job completed."""
    payload: tuple[str, ...]
    """Fields that may hold the payload, first with a value wins."""


@dataclass(frozen=True)
class JobDownloadModel:
    operation: OperationSpec
    token_parameter: str


@dataclass(frozen=True)
class JobsModel:
    """The operations that submit, poll and download jobs, with the field names they use."""

    submit: JobSubmitModel
    poll: JobPollModel
    download: JobDownloadModel | None = None


@dataclass(frozen=True)
class VariantModel:
    """A variant of a pipeline's body: chosen where the body's ``property`` is ``value`` (a ``server_default``
    variant also where the body has no ``property``; a variant without a property is the pipeline's only one), with
    its "exactly one of" groups of fields, and its ``fields``: None when its parameters are not shown (any field
    goes)."""

    name: str
    property: str | None = None
    value: str | None = None
    server_default: bool = False
    exactly_one: tuple[tuple[str, ...], ...] = ()
    fields: frozenset[str] | None = None


@dataclass(frozen=True)
class PipelineModel:
    payload_after_polling: str
    base_credits: float | None = None
    json_strings: tuple[str, ...] = ()
    variants: tuple[VariantModel, ...] = ()


@dataclass(frozen=True)
class PricingModel:
    lane_multipliers: Mapping[str, float]
    default_lane: str
    minimum_charge: float | None = None


@dataclass(frozen=True)
class EnvModel:
    """Environment variables read for a default token, base address and log level (see log.py)."""

    token: str | None = None
    base_url: str | None = None
    log: str | None = None


@dataclass(frozen=True)
class WebhooksModel:
    """Delivery headers and signed body fields of the description's webhooks."""

    signature_header: str
    signature_prefix: str
    """What precedes the hex HMAC-SHA256 in the signature header, for example ``sha256=``."""
    event_id_header: str
    event_id_field: str
    event_type_field: str
    event_type_header: str | None = None
    subscription_id_header: str | None = None
    subscription_id_field: str | None = None
    timestamp_field: str | None = None
    """The signed body field holding the ISO 8601 time of the delivery; the replay window is checked against it."""
    event_types: tuple[str, ...] = ()
    """The event names of the description; others may arrive from later releases."""


@dataclass(frozen=True)
class ServiceModel:
    """What the runtime needs to know about one release of the description."""

    release: str
    description_hash: str = ""
    title: str | None = None
    errors: Mapping[str, ErrorSpec] = field(default_factory=dict[str, ErrorSpec])
    """The error table: stable code -> HTTP status."""
    pipelines: Mapping[str, PipelineModel] = field(default_factory=dict[str, PipelineModel])
    pricing: PricingModel | None = None
    servers: tuple[ServerModel, ...] = ()
    security_schemes: Mapping[str, SecurityScheme] = field(default_factory=dict[str, SecurityScheme])
    env: EnvModel = field(default_factory=EnvModel)
    conventions: ConventionsModel | None = None
    jobs: JobsModel | None = None
    webhooks: WebhooksModel | None = None
    request_id_header: str | None = None
    """Response header that carries the request id, when the description names one."""

    @property
    def envelope(self) -> EnvelopeModel | None:
        return None if self.conventions is None else self.conventions.envelope
