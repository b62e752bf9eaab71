package sdkruntime

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// ExampleServiceError shows how a caller tells the runtime's errors apart.
func ExampleServiceError() {
	var err error = fmt.Errorf("creating the thing: %w", &MayHaveBeenProcessedError{
		Operation: "createThing",
		Detail:    "HTTP 500",
		Status:    500,
		Err:       &ServiceError{Status: 500, Code: "INTERNAL_ERROR", Message: "INTERNAL_ERROR: boom"},
	})
	var maybe *MayHaveBeenProcessedError
	var svc *ServiceError
	if errors.As(err, &maybe) && errors.As(err, &svc) {
		fmt.Println("may have been processed;", svc.Code, svc.Status)
	}
	// Output: may have been processed; INTERNAL_ERROR 500
}

func TestErrorsAsAndIs(t *testing.T) {
	svc := &ServiceError{Status: 500, Code: "INTERNAL_ERROR", Message: "INTERNAL_ERROR: boom"}
	jobErr := &JobMayExistError{Operation: "submitJob", Detail: "HTTP 500", Status: 500, Err: svc}
	jobErr.JobID = "job_9"
	wrapped := fmt.Errorf("outer: %w", jobErr)

	if m := errorsAs[*MayHaveBeenProcessedError](t, wrapped); m.Status != 500 || m.JobID != "job_9" || !errors.Is(m, svc) {
		t.Errorf("MayHaveBeenProcessedError view = %+v", m)
	}
	if e := errorsAs[Error](t, wrapped); e.Job() != "job_9" {
		t.Errorf("Job() = %q", e.Job())
	}
	if !errors.Is(wrapped, svc) {
		t.Error("errors.Is does not reach the cause")
	}
	var notJob *JobMayExistError
	if errors.As(fmt.Errorf("x: %w", &MayHaveBeenProcessedError{Err: svc}), &notJob) {
		t.Error("a plain MayHaveBeenProcessedError must not match JobMayExistError")
	}
	if !errors.Is(&DeadlineExceededError{}, context.DeadlineExceeded) || !errors.Is(&CanceledError{}, context.Canceled) {
		t.Error("deadline and cancel errors must match the context errors")
	}
	var e Error
	if errors.As(errors.New("plain"), &e) {
		t.Error("a plain error is not a runtime Error")
	}
	withJob(svc, "job_1")
	withJob(svc, "job_2")
	if svc.JobID != "job_1" {
		t.Errorf("JobID = %q; the first job id set stays", svc.JobID)
	}
}

func TestErrorTexts(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&ServiceError{Status: 400, Message: "INVALID_REQUEST: bad"}, "sdkruntime: HTTP 400: INVALID_REQUEST: bad"},
		{&MayHaveBeenProcessedError{Operation: "createThing", Detail: "HTTP 502"}, "sdkruntime: createThing: the request may have been processed (HTTP 502); it was not sent again"},
		{&DeadlineExceededError{Deadline: 1500000000}, "sdkruntime: deadline of 1.5s exceeded"},
		{&WebhookError{Kind: WebhookStale, Detail: "too old"}, "sdkruntime: webhook refused: too old"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestErrorCodes(t *testing.T) {
	rateLimited := ErrorCode("RATE_LIMIT_EXCEEDED")
	tests := []struct {
		err  error
		want bool
	}{
		{&ServiceError{Status: 429, Code: "RATE_LIMIT_EXCEEDED"}, true},
		{fmt.Errorf("x: %w", &MayHaveBeenProcessedError{Err: &ServiceError{Code: "RATE_LIMIT_EXCEEDED"}}), true},
		{&ServiceError{Status: 429, Code: "INVALID_REQUEST"}, false},
		{&ServiceError{Status: 429}, false},
		{&JobFailedError{Code: "RATE_LIMIT_EXCEEDED"}, true},
		{errors.New("RATE_LIMIT_EXCEEDED"), false},
	}
	for _, tt := range tests {
		if got := errors.Is(tt.err, rateLimited); got != tt.want {
			t.Errorf("errors.Is(%v, %q) = %v, want %v", tt.err, rateLimited, got, tt.want)
		}
	}
}

func TestStatusClasses(t *testing.T) {
	classes := []StatusClass{ErrBadRequest, ErrAuthentication, ErrPermissionDenied, ErrNotFound, ErrConflict, ErrUnprocessableEntity, ErrRateLimit, ErrInternalServer}
	tests := []struct {
		status int
		want   StatusClass
	}{
		{400, ErrBadRequest}, {401, ErrAuthentication}, {402, 0}, {403, ErrPermissionDenied}, {404, ErrNotFound},
		{409, ErrConflict}, {418, 0}, {422, ErrUnprocessableEntity}, {429, ErrRateLimit}, {500, ErrInternalServer},
		{503, ErrInternalServer}, {599, ErrInternalServer}, {200, 0},
	}
	for _, tt := range tests {
		if got := StatusClassOf(tt.status); got != tt.want {
			t.Errorf("StatusClassOf(%d) = %v, want %v", tt.status, got, tt.want)
		}
		// Exactly the status's own class matches, through a wrapping error too.
		err := fmt.Errorf("call: %w", &ServiceError{Status: tt.status, Code: "SOME_CODE"})
		for _, c := range classes {
			if got := errors.Is(err, c); got != (c == tt.want) {
				t.Errorf("errors.Is(HTTP %d, %v) = %v", tt.status, c, got)
			}
		}
		if !errors.Is(err, ErrorCode("SOME_CODE")) {
			t.Errorf("HTTP %d: the code no longer matches beside the status class", tt.status)
		}
	}
	// A 5xx answer to a write that may not be sent twice: the may-have-been-processed error wraps the answer.
	processed := error(&MayHaveBeenProcessedError{Status: 502, Err: &ServiceError{Status: 502, Code: "INTERNAL_ERROR"}})
	if !errors.Is(processed, ErrInternalServer) || !errors.Is(processed, ErrorCode("INTERNAL_ERROR")) {
		t.Error("a MayHaveBeenProcessedError of a 502 answer does not match ErrInternalServer and its code")
	}
	job := error(&JobMayExistError{Status: 500, Err: &ServiceError{Status: 500}})
	var asService *ServiceError
	var asProcessed *MayHaveBeenProcessedError
	if !errors.Is(job, ErrInternalServer) || !errors.As(job, &asService) || !errors.As(job, &asProcessed) {
		t.Error("a JobMayExistError of a 500 answer is not its ServiceError and a MayHaveBeenProcessedError")
	}
	if errors.Is(&ConnectionError{Err: errors.New("reset")}, ErrInternalServer) {
		t.Error("an error without an answer matches a status class")
	}
	if ErrNotFound.Error() != "sdkruntime: HTTP 404" || ErrInternalServer.Error() != "sdkruntime: HTTP 5xx" {
		t.Errorf("texts %q, %q", ErrNotFound.Error(), ErrInternalServer.Error())
	}
}
