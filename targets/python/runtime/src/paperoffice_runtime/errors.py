"""Errors. Everything the runtime raises extends :class:`SdkError`; answers of the service extend ServiceError,
through the class of their HTTP status where it has one (BadRequestError, AuthenticationError, ...
InternalServerError for every 5xx), as openai-python's do. A generated class per error code extends the status class
of its code."""

from __future__ import annotations


class SdkError(Exception):
    """Every error the runtime raises. ``job_id`` is set whenever a job is concerned, so that its id is never lost."""

    def __init__(self, message: str, *, job_id: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.job_id = job_id

    def __str__(self) -> str:
        return self.message


class ServiceError(SdkError):
    """An error answer of the service. Generated subclasses are keyed by ``code``; unknown codes keep this class.

    ``retry_after`` holds the seconds of a ``Retry-After`` header when there was one. Texts and ``body`` are redacted.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str | None = None,
        body: object = None,
        request_id: str | None = None,
        retry_after: float | None = None,
        processing_time: str | None = None,
        job_id: str | None = None,
    ) -> None:
        super().__init__(message, job_id=job_id)
        self.status = status
        self.code = code
        self.body = body
        self.request_id = request_id
        self.retry_after = retry_after
        self.processing_time = processing_time


class BadRequestError(ServiceError):
    """An answer with HTTP status 400."""


class AuthenticationError(ServiceError):
    """An answer with HTTP status 401: the credentials were missing, invalid or expired."""


class PermissionDeniedError(ServiceError):
    """An answer with HTTP status 403: the credentials may not do this."""


class NotFoundError(ServiceError):
    """An answer with HTTP status 404."""


class ConflictError(ServiceError):
    """An answer with HTTP status 409."""


class UnprocessableEntityError(ServiceError):
    """An answer with HTTP status 422."""


class RateLimitError(ServiceError):
    """An answer with HTTP status 429; ``retry_after`` holds the wait the service asked for, when it said one."""


class InternalServerError(ServiceError):
    """An answer with an HTTP status of 500 or above."""


_STATUS_CLASSES: dict[int, type[ServiceError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: UnprocessableEntityError,
    429: RateLimitError,
}


def status_error_class(status: int) -> type[ServiceError]:
    """The class of an error answer by its HTTP status; ServiceError itself for a status without one (402, 418...)."""
    return InternalServerError if status >= 500 else _STATUS_CLASSES.get(status, ServiceError)


class MalformedResponseError(ServiceError):
    """A success answer whose body is not what the description declares; ``body`` holds its start, redacted."""


class JobFailedError(ServiceError):
    """A job reached a failure status; ``job_status`` is the value of the poll answer's status field."""

    def __init__(
        self,
        message: str,
        *,
        job_status: str,
        status: int,
        job_id: str,
        code: str | None = None,
        body: object = None,
        processing_time: str | None = None,
    ) -> None:
        super().__init__(message, status=status, code=code, body=body, processing_time=processing_time, job_id=job_id)
        self.job_status = job_status


class APIConnectionError(SdkError):
    """No complete answer arrived. ``sent`` is False only when the request provably never left this machine."""

    def __init__(self, message: str, *, sent: bool, job_id: str | None = None) -> None:
        super().__init__(message, job_id=job_id)
        self.sent = sent


class DeadlineExceededError(SdkError):
    """The overall deadline of a call or a wait passed. Nothing is sent after it."""

    def __init__(self, deadline: float, *, job_id: str | None = None, detail: str = "") -> None:
        super().__init__(f"deadline of {deadline:g} s exceeded{detail}", job_id=job_id)
        self.deadline = deadline


class MayHaveBeenProcessedError(SdkError):
    """A write that may not be sent twice failed after it may have reached the server (500, 502, 504, a reset, a
    timeout, the deadline in flight). The server may have carried it out; it was not sent again. ``__cause__`` holds
    the underlying error.

    When the server answered (a 5xx), the error raised is also a ServiceError and an InternalServerError with the
    answer's status, code and body: ``except ServiceError`` catches it, as ``except MayHaveBeenProcessedError`` does.
    """

    def __init__(self, detail: str, *, status: int | None = None, job_id: str | None = None) -> None:
        super().__init__(self._explain(detail), job_id=job_id)
        self.status = status

    def _explain(self, detail: str) -> str:
        return f"the request may have been processed ({detail}); it was not sent again"


class JobMayExistError(MayHaveBeenProcessedError):
    """A job submission failed after its body may have reached the service: the job may exist and may be billed."""

    def _explain(self, detail: str) -> str:
        return (
            f"the job may exist and may be billed ({detail}); it was not resubmitted, "
            "and submitting it again may run and bill a second job"
        )


class AnsweredMayHaveBeenProcessedError(MayHaveBeenProcessedError, InternalServerError):
    """A 5xx answer to a write that may not be sent twice: a MayHaveBeenProcessedError that is also the
    InternalServerError of the answer, with its status, code, body and request id. ``__cause__`` is the error of the
    answer (the class of its code)."""

    status: int

    def __init__(self, detail: str, answer: ServiceError) -> None:
        InternalServerError.__init__(
            self,
            self._explain(detail),
            status=answer.status,
            code=answer.code,
            body=answer.body,
            request_id=answer.request_id,
            retry_after=answer.retry_after,
            processing_time=answer.processing_time,
            job_id=answer.job_id,
        )


class AnsweredJobMayExistError(JobMayExistError, AnsweredMayHaveBeenProcessedError):
    """A 5xx answer to a job submission: a JobMayExistError that is also the InternalServerError of the answer."""


class MissingCredentialsError(SdkError):
    """An operation needs credentials the client was not given; raised before anything is sent."""


class ResponseBodyError(SdkError):
    """The body of a successful answer broke off while it was read."""


class WebhookVerificationError(SdkError):
    """A webhook delivery that must not be processed; ``status`` is the HTTP status to answer."""

    status: int = 401


class WebhookSignatureError(WebhookVerificationError):
    """The signature header is missing, malformed, or does not match the raw body under any secret."""


class WebhookPayloadError(WebhookVerificationError):
    """A correctly signed body that is not a valid event, or whose unsigned headers disagree with it."""

    status: int = 400


class WebhookStaleError(WebhookVerificationError):
    """A correctly signed delivery whose signed timestamp is missing, unreadable or outside the replay window (a
    recorded delivery sent again)."""

    status: int = 400


def may_have_been_processed(
    job_submission: bool, detail: str, *, status: int | None = None, job_id: str | None = None
) -> MayHaveBeenProcessedError:
    """JobMayExistError for a job submission, else MayHaveBeenProcessedError."""
    kind = JobMayExistError if job_submission else MayHaveBeenProcessedError
    return kind(detail, status=status, job_id=job_id)


def answered_may_have_been_processed(
    job_submission: bool, detail: str, answer: ServiceError
) -> AnsweredMayHaveBeenProcessedError:
    """The error of a 5xx answer to a write that may not be sent twice: MayHaveBeenProcessedError (JobMayExistError
    for a job submission) and the answer's InternalServerError at once."""
    kind = AnsweredJobMayExistError if job_submission else AnsweredMayHaveBeenProcessedError
    return kind(detail, answer)
