"""The runtime the generated Python SDKs of the document automation service share.

A generated SDK describes the service with a :class:`ServiceModel` and calls its operations through a
:class:`SyncRuntime` (``httpx.Client``) or an :class:`AsyncRuntime` (``httpx.AsyncClient``). The runtime holds no
fact of the service: paths, field names, status codes, error codes and header names all come from the model.
"""

from __future__ import annotations

import logging as _logging
from typing import TYPE_CHECKING

from .base import ApiResult, BaseRuntime
from .credentials import AppliedCredentials, BasicCredentials, Credential, Credentials, TokenProvider
from .deadline import Deadline
from .encoding import CallInput, FileValue
from .envelope import ResponseMeta
from .errors import (
    AnsweredJobMayExistError,
    AnsweredMayHaveBeenProcessedError,
    APIConnectionError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    DeadlineExceededError,
    InternalServerError,
    JobFailedError,
    JobMayExistError,
    MalformedResponseError,
    MayHaveBeenProcessedError,
    MissingCredentialsError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ResponseBodyError,
    SdkError,
    ServiceError,
    UnprocessableEntityError,
    WebhookPayloadError,
    WebhookSignatureError,
    WebhookStaleError,
    WebhookVerificationError,
)
from .files import FileContent, FileUpload
from .jobs import Download, JobResult, SavedFile
from .model import (
    ConventionsModel,
    CursorPaginationModel,
    EnvelopeModel,
    EnvModel,
    ErrorSpec,
    JobDownloadModel,
    JobPollModel,
    JobsModel,
    JobSubmitModel,
    LinkPaginationModel,
    NoWait,
    OperationSpec,
    PaginationModel,
    PipelineModel,
    PricingModel,
    SecurityScheme,
    ServerModel,
    ServerVariable,
    ServiceModel,
    TokenKind,
    TokenKindsModel,
    VariantModel,
    WebhooksModel,
)
from .next_pagination import AsyncNextPager, NextPage, NextPagerBase, SyncNextPager, next_link
from .options import ClientOptions, RequestOptions
from .pagination import AsyncPager, Page, PagerBase, SyncPager
from .parsing import ABSENT, BaseModel
from .pricing import price_job
from .raw import RawResponse, async_raw_response, raw_response
from .redact import Redactor, redact_secrets
from .retry import RetryPolicy, is_resendable
from .sync_runtime import JobHandle, SyncRuntime
from .user_agent import user_agent_of
from .variants import check_exactly_one, variant_of
from .webhooks import (
    DEFAULT_TOLERANCE,
    KnownDeliveries,
    UnknownEvent,
    UnknownWebhookDelivery,
    VerifiedEvent,
    WebhookDelivery,
    sign,
    typed_delivery,
    verify,
)

if TYPE_CHECKING:
    from .async_runtime import AsyncJobHandle, AsyncRuntime
else:

    def __getattr__(name: str) -> object:
        # The asyncio runtime, and asyncio with it, is imported when first used: a blocking program never needs it.
        if name in ("AsyncJobHandle", "AsyncRuntime"):
            from . import async_runtime  # noqa: PLC0415

            return getattr(async_runtime, name)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__version__ = "0.1.0"

__all__ = [
    "ABSENT",
    "DEFAULT_TOLERANCE",
    "APIConnectionError",
    "AnsweredJobMayExistError",
    "AnsweredMayHaveBeenProcessedError",
    "ApiResult",
    "AppliedCredentials",
    "AsyncJobHandle",
    "AsyncNextPager",
    "AsyncPager",
    "AsyncRuntime",
    "AuthenticationError",
    "BadRequestError",
    "BaseModel",
    "BaseRuntime",
    "BasicCredentials",
    "CallInput",
    "ClientOptions",
    "ConflictError",
    "ConventionsModel",
    "Credential",
    "Credentials",
    "CursorPaginationModel",
    "Deadline",
    "DeadlineExceededError",
    "Download",
    "EnvModel",
    "EnvelopeModel",
    "ErrorSpec",
    "FileContent",
    "FileUpload",
    "FileValue",
    "InternalServerError",
    "JobDownloadModel",
    "JobFailedError",
    "JobHandle",
    "JobMayExistError",
    "JobPollModel",
    "JobResult",
    "JobSubmitModel",
    "JobsModel",
    "KnownDeliveries",
    "LinkPaginationModel",
    "MalformedResponseError",
    "MayHaveBeenProcessedError",
    "MissingCredentialsError",
    "NextPage",
    "NextPagerBase",
    "NoWait",
    "NotFoundError",
    "OperationSpec",
    "Page",
    "PagerBase",
    "PaginationModel",
    "PermissionDeniedError",
    "PipelineModel",
    "PricingModel",
    "RateLimitError",
    "RawResponse",
    "Redactor",
    "RequestOptions",
    "ResponseBodyError",
    "ResponseMeta",
    "RetryPolicy",
    "SavedFile",
    "SdkError",
    "SecurityScheme",
    "ServerModel",
    "ServerVariable",
    "ServiceError",
    "ServiceModel",
    "SyncNextPager",
    "SyncPager",
    "SyncRuntime",
    "TokenKind",
    "TokenKindsModel",
    "TokenProvider",
    "UnknownEvent",
    "UnknownWebhookDelivery",
    "UnprocessableEntityError",
    "VariantModel",
    "VerifiedEvent",
    "WebhookDelivery",
    "WebhookPayloadError",
    "WebhookSignatureError",
    "WebhookStaleError",
    "WebhookVerificationError",
    "WebhooksModel",
    "__version__",
    "async_raw_response",
    "check_exactly_one",
    "is_resendable",
    "next_link",
    "price_job",
    "raw_response",
    "redact_secrets",
    "sign",
    "typed_delivery",
    "user_agent_of",
    "variant_of",
    "verify",
]

# A library's logger: records go to the application's handlers, never to Python's last-resort stderr handler.
_logging.getLogger(__name__).addHandler(_logging.NullHandler())
