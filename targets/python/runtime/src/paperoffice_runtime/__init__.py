"""The runtime the generated Python SDKs of the document automation service share.

A generated SDK describes the service with a :class:`ServiceModel` and calls its operations through a
:class:`SyncRuntime` (``httpx.Client``) or an :class:`AsyncRuntime` (``httpx.AsyncClient``). The runtime holds no
fact of the service: paths, field names, status codes, error codes and header names all come from the model.
"""

from __future__ import annotations

from .async_runtime import AsyncJobHandle, AsyncRuntime
from .base import ApiResult, BaseRuntime
from .credentials import AppliedCredentials, BasicCredentials, Credential, Credentials, TokenProvider
from .deadline import Deadline
from .encoding import CallInput
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
    WebhookVerificationError,
)
from .jobs import Download, JobResult, SavedFile
from .model import (
    ConventionsModel,
    EnvelopeModel,
    EnvModel,
    ErrorSpec,
    JobDownloadModel,
    JobPollModel,
    JobsModel,
    JobSubmitModel,
    NoWait,
    OperationSpec,
    PipelineModel,
    PricingModel,
    SecurityScheme,
    ServerModel,
    ServerVariable,
    ServiceModel,
    TokenKind,
    TokenKindsModel,
    VariantFieldsModel,
    WebhooksModel,
)
from .parsing import ABSENT, BaseModel
from .pricing import price_job
from .redact import Redactor, redact_secrets
from .retry import RetryPolicy, is_resendable
from .sync_runtime import JobHandle, SyncRuntime
from .user_agent import user_agent_of
from .webhooks import VerifiedEvent, sign, verify

__version__ = "0.1.0"

__all__ = [
    "ABSENT",
    "APIConnectionError",
    "AnsweredJobMayExistError",
    "AnsweredMayHaveBeenProcessedError",
    "ApiResult",
    "AppliedCredentials",
    "AsyncJobHandle",
    "AsyncRuntime",
    "AuthenticationError",
    "BadRequestError",
    "BaseModel",
    "BaseRuntime",
    "BasicCredentials",
    "CallInput",
    "ConflictError",
    "ConventionsModel",
    "Credential",
    "Credentials",
    "Deadline",
    "DeadlineExceededError",
    "Download",
    "EnvModel",
    "EnvelopeModel",
    "ErrorSpec",
    "InternalServerError",
    "JobDownloadModel",
    "JobFailedError",
    "JobHandle",
    "JobMayExistError",
    "JobPollModel",
    "JobResult",
    "JobSubmitModel",
    "JobsModel",
    "MalformedResponseError",
    "MayHaveBeenProcessedError",
    "MissingCredentialsError",
    "NoWait",
    "NotFoundError",
    "OperationSpec",
    "PermissionDeniedError",
    "PipelineModel",
    "PricingModel",
    "RateLimitError",
    "Redactor",
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
    "SyncRuntime",
    "TokenKind",
    "TokenKindsModel",
    "TokenProvider",
    "UnprocessableEntityError",
    "VariantFieldsModel",
    "VerifiedEvent",
    "WebhookPayloadError",
    "WebhookSignatureError",
    "WebhookVerificationError",
    "WebhooksModel",
    "__version__",
    "is_resendable",
    "price_job",
    "redact_secrets",
    "sign",
    "user_agent_of",
    "verify",
]
