package sdkruntime

import (
	"context"
	"fmt"
	"time"
)

// Error is implemented by every error the runtime returns. Use errors.As with a variable of this type to tell
// the runtime's errors from others, and with the concrete pointer types to read their fields.
type Error interface {
	error
	// Job returns the id of the job the error concerns, or "" when none is concerned or it is not known.
	Job() string
	setJob(id string)
}

// jobTag is embedded by every error type to carry the id of the job concerned.
type jobTag struct {
	// JobID is the id of the job concerned; "" when none is concerned or it is not known.
	JobID string
}

// Job returns the id of the job the error concerns, or "".
func (j *jobTag) Job() string { return j.JobID }

func (j *jobTag) setJob(id string) {
	if j.JobID == "" {
		j.JobID = id
	}
}

func withJob(err error, id string) error {
	if e, ok := err.(Error); ok && id != "" {
		e.setJob(id)
	}
	return err
}

// ConfigError reports a bad option, model or argument, found before anything was sent.
type ConfigError struct {
	jobTag
	// Message says what is wrong and where.
	Message string
}

// Error returns the error's text; credentials never appear in it.
func (e *ConfigError) Error() string { return "sdkruntime: " + e.Message }

func configError(format string, args ...any) *ConfigError {
	return &ConfigError{Message: fmt.Sprintf(format, args...)}
}

// MissingCredentialsError reports an operation that needs credentials the client was not given. Nothing was sent.
type MissingCredentialsError struct {
	jobTag
	// Operation is the operationId.
	Operation string
	// Message says which credentials would do and how to pass them.
	Message string
}

// Error returns the error's text; credentials never appear in it.
func (e *MissingCredentialsError) Error() string { return "sdkruntime: " + e.Message }

// CredentialError reports a token function that failed or returned no token. Nothing was sent.
type CredentialError struct {
	jobTag
	// Operation is the operationId.
	Operation string
	// Scheme is the security scheme whose credential was asked for.
	Scheme string
	// Err is the function's error, its text redacted.
	Err error
}

// Error returns the error's text; credentials never appear in it.
func (e *CredentialError) Error() string {
	return fmt.Sprintf("sdkruntime: %s: no credential for security scheme %q: %v", e.Operation, e.Scheme, e.Err)
}

// Unwrap returns the function's error.
func (e *CredentialError) Unwrap() error { return e.Err }

// ServiceError is an error answer of the service: an HTTP error status, or an envelope whose status says error.
type ServiceError struct {
	jobTag
	// Status is the HTTP status of the answer.
	Status int
	// Code is the stable error code of the envelope; "" when the answer has none.
	Code string
	// Message is the answer's message (credentials redacted), prefixed with the code when there is one.
	Message string
	// ProcessingTime is the envelope's processing time; "" when absent.
	ProcessingTime string
	// RequestID is the request id header of the answer; "" when absent.
	RequestID string
	// RetryAfter is the wait the service asked for in Retry-After; 0 when it sent none.
	RetryAfter time.Duration
	// Body is the parsed error body with every string redacted, or its text when it was not JSON.
	Body any
}

// Error returns the error's text; credentials never appear in it.
func (e *ServiceError) Error() string {
	return fmt.Sprintf("sdkruntime: HTTP %d: %s", e.Status, e.Message)
}

// ErrorCode is a stable error code of the model's error table, usable with errors.Is: errors.Is(err,
// ErrorCode("RATE_LIMIT_EXCEEDED")) is true for a *ServiceError or *JobFailedError with that code anywhere in the
// chain. Generated code declares one per code of the table.
type ErrorCode string

// Error returns the code.
func (c ErrorCode) Error() string { return string(c) }

// StatusClass is a kind of HTTP error status, usable with errors.Is as ErrorCode is: errors.Is(err, ErrNotFound)
// is true for a *ServiceError with status 404 anywhere in the chain, so also for a *MayHaveBeenProcessedError that
// wraps a 5xx answer (errors.Is(err, ErrInternalServer)). An error code's class is the class of its status:
// errors.Is holds for both the code's ErrorCode and its StatusClass. A status without a class (402, 418, ...) is a
// *ServiceError only; errors.As with a *ServiceError target reads every answer's fields.
type StatusClass int

// The status classes, named as openai-go's and the other SDKs' error classes are.
const (
	// ErrBadRequest is HTTP status 400.
	ErrBadRequest StatusClass = 400
	// ErrAuthentication is HTTP status 401: the credentials were missing, invalid or expired.
	ErrAuthentication StatusClass = 401
	// ErrPermissionDenied is HTTP status 403: the credentials may not do this.
	ErrPermissionDenied StatusClass = 403
	// ErrNotFound is HTTP status 404.
	ErrNotFound StatusClass = 404
	// ErrConflict is HTTP status 409.
	ErrConflict StatusClass = 409
	// ErrUnprocessableEntity is HTTP status 422.
	ErrUnprocessableEntity StatusClass = 422
	// ErrRateLimit is HTTP status 429; the *ServiceError's RetryAfter holds the wait the service asked for.
	ErrRateLimit StatusClass = 429
	// ErrInternalServer is every HTTP status of 500 and above.
	ErrInternalServer StatusClass = 500
)

// Error returns the class's text.
func (c StatusClass) Error() string {
	if c == ErrInternalServer {
		return "sdkruntime: HTTP 5xx"
	}
	return fmt.Sprintf("sdkruntime: HTTP %d", int(c))
}

// Matches reports whether an HTTP status belongs to the class.
func (c StatusClass) Matches(status int) bool {
	return c != 0 && StatusClassOf(status) == c
}

// StatusClassOf returns the class of an HTTP status, or 0 when the status has none.
func StatusClassOf(status int) StatusClass {
	switch {
	case status >= 500:
		return ErrInternalServer
	case status == 400, status == 401, status == 403, status == 404, status == 409, status == 422, status == 429:
		return StatusClass(status)
	}
	return 0
}

// Is reports whether target is the ErrorCode or the StatusClass of this error.
func (e *ServiceError) Is(target error) bool {
	switch t := target.(type) {
	case ErrorCode:
		return e.Code != "" && string(t) == e.Code
	case StatusClass:
		return t.Matches(e.Status)
	}
	return false
}

// Is reports whether target is the ErrorCode of this error.
func (e *JobFailedError) Is(target error) bool {
	code, ok := target.(ErrorCode)
	return ok && e.Code != "" && string(code) == e.Code
}

// MalformedResponseError is a success answer whose body is not the JSON it should be.
type MalformedResponseError struct {
	jobTag
	// Status is the HTTP status of the answer.
	Status int
	// Body is the start of the body, credentials redacted.
	Body string
	// Err is the parse error.
	Err error
}

// Error returns the error's text; credentials never appear in it.
func (e *MalformedResponseError) Error() string {
	if shape, ok := e.Err.(*pageShapeError); ok {
		return fmt.Sprintf("sdkruntime: HTTP %d: %s", e.Status, shape.text)
	}
	return fmt.Sprintf("sdkruntime: HTTP %d with a body that is not JSON", e.Status)
}

// Unwrap returns the parse error.
func (e *MalformedResponseError) Unwrap() error { return e.Err }

// JobFailedError reports a job that reached a failure status (failed, error, cancelled, ...).
type JobFailedError struct {
	jobTag
	// JobStatus is the value of the job status field.
	JobStatus string
	// Status is the HTTP status of the answer that told it.
	Status int
	// Code is the envelope's error code; "" when absent.
	Code string
	// Message describes the failure, credentials redacted.
	Message string
	// ProcessingTime is the envelope's processing time; "" when absent.
	ProcessingTime string
	// Body is the answer with every string redacted.
	Body any
}

// Error returns the error's text; credentials never appear in it.
func (e *JobFailedError) Error() string { return "sdkruntime: " + e.Message }

// ConnectionError reports a request that could not be completed on the network.
type ConnectionError struct {
	jobTag
	// Operation names the operation (its operationId), never the URL.
	Operation string
	// Sent is false only when the request provably never left this machine (connection refused, unresolvable name).
	Sent bool
	// Err is the network error, with credentials redacted from its text; errors.Is still sees the causes below it.
	Err error
}

// Error returns the error's text; credentials never appear in it.
func (e *ConnectionError) Error() string {
	return fmt.Sprintf("sdkruntime: %s: the request could not be completed: %v", e.Operation, e.Err)
}

// Unwrap returns the network error.
func (e *ConnectionError) Unwrap() error { return e.Err }

// ResponseBodyError reports the body of a successful answer (a download) that broke off while it was read.
type ResponseBodyError struct {
	jobTag
	// Err is the read or write error.
	Err error
}

// Error returns the error's text; credentials never appear in it.
func (e *ResponseBodyError) Error() string {
	return fmt.Sprintf("sdkruntime: the response body broke off while it was read: %v", e.Err)
}

// Unwrap returns the read or write error.
func (e *ResponseBodyError) Unwrap() error { return e.Err }

// DeadlineExceededError reports that the overall deadline of a call or a wait passed. Nothing is sent after it.
// errors.Is(err, context.DeadlineExceeded) is true for it.
type DeadlineExceededError struct {
	jobTag
	// Deadline is the length of the deadline that passed; 0 when it was the caller's context's own deadline.
	Deadline time.Duration
}

// Error returns the error's text; credentials never appear in it.
func (e *DeadlineExceededError) Error() string {
	if e.Deadline > 0 {
		return fmt.Sprintf("sdkruntime: deadline of %s exceeded", e.Deadline)
	}
	return "sdkruntime: the context's deadline passed"
}

// Unwrap returns context.DeadlineExceeded.
func (e *DeadlineExceededError) Unwrap() error { return context.DeadlineExceeded }

// CanceledError reports that the caller's context was canceled. Nothing is sent after it.
// errors.Is(err, context.Canceled) is true for it.
type CanceledError struct {
	jobTag
}

// Error returns the error's text; credentials never appear in it.
func (e *CanceledError) Error() string { return "sdkruntime: canceled by the caller" }

// Unwrap returns context.Canceled.
func (e *CanceledError) Unwrap() error { return context.Canceled }

// MayHaveBeenProcessedError reports a write that may not be sent twice and that failed after it may have
// reached the server (500, 502, 504, a reset connection, an unreadable success answer, the deadline or a
// cancellation while it was in flight). The server may have carried it out; the runtime did not send it again.
// Err holds the underlying error: after a 5xx answer the *ServiceError, so that errors.As with a *ServiceError target
// and errors.Is with ErrInternalServer or the code's ErrorCode reach it.
type MayHaveBeenProcessedError struct {
	jobTag
	// Operation is the operationId.
	Operation string
	// Detail says what happened.
	Detail string
	// Status is the HTTP status when an answer arrived; 0 otherwise.
	Status int
	// Err is the underlying error.
	Err error
}

// Error returns the error's text; credentials never appear in it.
func (e *MayHaveBeenProcessedError) Error() string {
	return fmt.Sprintf("sdkruntime: %s: the request may have been processed (%s); it was not sent again", e.Operation, e.Detail)
}

// Unwrap returns the underlying error.
func (e *MayHaveBeenProcessedError) Unwrap() error { return e.Err }

// JobMayExistError reports a job submission that failed after it may have reached the service: the job may
// exist and may be billed. The runtime does not resubmit; submitting again may run, and bill, a second job.
// errors.As also matches it with a *MayHaveBeenProcessedError target.
type JobMayExistError struct {
	jobTag
	// Operation is the operationId of the submission.
	Operation string
	// Detail says what happened.
	Detail string
	// Status is the HTTP status when an answer arrived; 0 otherwise.
	Status int
	// Err is the underlying error.
	Err error
}

// Error returns the error's text; credentials never appear in it.
func (e *JobMayExistError) Error() string {
	return fmt.Sprintf("sdkruntime: %s: the job may exist and may be billed (%s); it was not resubmitted, and submitting it again may run and bill a second job", e.Operation, e.Detail)
}

// Unwrap returns the underlying error.
func (e *JobMayExistError) Unwrap() error { return e.Err }

// As lets errors.As match a JobMayExistError with a **MayHaveBeenProcessedError target: a job that may exist is
// a write that may have been processed.
func (e *JobMayExistError) As(target any) bool {
	if t, ok := target.(**MayHaveBeenProcessedError); ok {
		*t = &MayHaveBeenProcessedError{jobTag: e.jobTag, Operation: e.Operation, Detail: e.Detail, Status: e.Status, Err: e.Err}
		return true
	}
	return false
}

func mayHaveBeenProcessed(jobSubmission bool, op, detail string, status int, cause error) error {
	if jobSubmission {
		return &JobMayExistError{Operation: op, Detail: detail, Status: status, Err: cause}
	}
	return &MayHaveBeenProcessedError{Operation: op, Detail: detail, Status: status, Err: cause}
}

// redactedError carries an error from below the runtime (net/http, net) with credentials redacted from its
// text; Unwrap still gives the original so that errors.Is(err, syscall.ECONNREFUSED) and the like work.
type redactedError struct {
	text string
	err  error
}

// Error returns the error's text; credentials never appear in it.
func (e *redactedError) Error() string { return e.text }

// Unwrap returns the error below.
func (e *redactedError) Unwrap() error { return e.err }
