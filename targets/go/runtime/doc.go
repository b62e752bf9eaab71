// Package sdkruntime is the hand-written runtime of the generated Go SDKs: it sends the requests of the
// operations a generated client describes, with credentials, retries, deadlines, job submission and polling,
// downloads, typed errors and webhook verification.
//
// The runtime holds no fact of any service. Every path, field name, header name, status code, error code, price
// and security scheme comes from a [Model] that the generated code fills from the API description; the runtime
// only knows how to apply them. A client is created with [New] and functional options such as [WithToken],
// [WithBaseURL] and [WithHTTPClient].
//
// The package depends on the standard library only. That is what Go SDK users expect: net/http for the
// transport (any *http.Client can be passed in), context for deadlines and cancellation on every call, and
// crypto/hmac for webhook signatures. No third-party module ends up in the users' dependency graph.
//
// Errors returned by the runtime implement [Error] and are inspected with errors.As: [*ServiceError] for an
// error answer of the service, [*MayHaveBeenProcessedError] and [*JobMayExistError] for a write that may have
// reached the service and was not sent again, [*DeadlineExceededError] and [*CanceledError] for the call's
// deadline and the caller's cancellation, [*ConnectionError], [*MalformedResponseError] and [*JobFailedError].
// Credentials never appear in an error's text, nor in the text of an error it wraps.
package sdkruntime
