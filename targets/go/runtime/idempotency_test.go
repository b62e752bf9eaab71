package sdkruntime

import (
	"context"
	"regexp"
	"strings"
	"testing"
)

// uuidV4 is the text of a random UUID (RFC 9562 version 4, variant 10).
var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// opKeyed is a billed POST that takes an idempotency key: sent again after a 500 only because of the key.
var opKeyed = &Operation{ID: "createCharge", Method: "POST", Path: "/charges", RequestMediaType: MediaJSON, Idempotent: boolPtr(false), Billed: true, IdempotencyKey: "Idempotency-Key", Security: [][]string{{"bearerAuth"}}}

func keysOf(s *scripted) []string {
	var keys []string
	for _, r := range s.got() {
		keys = append(keys, r.header.Get("Idempotency-Key"))
	}
	return keys
}

func TestIdempotencyKeyIsMadeOncePerCallAndSentOnEveryRetry(t *testing.T) {
	e500 := step{status: 500, body: `{"status":"error","code":"INTERNAL_ERROR","message":"boom"}`}
	e503 := step{status: 503, body: `{"status":"error","code":"SERVICE_UNAVAILABLE","message":"busy"}`}
	srv := newScripted(t, e500, e503, step{body: okThing})
	c := newTestClient(t, srv.URL)
	if _, err := c.Call(context.Background(), opKeyed, Request{Body: map[string]any{"amount": 1}}); err != nil {
		t.Fatalf("a keyed write after a 500 and a 503: %v", err)
	}
	keys := keysOf(srv)
	if len(keys) != 3 || !uuidV4.MatchString(keys[0]) || keys[1] != keys[0] || keys[2] != keys[0] {
		t.Fatalf("keys of the three attempts = %q, want one UUID v4 on each", keys)
	}
	if _, err := c.Call(context.Background(), opKeyed, Request{Body: map[string]any{"amount": 1}}); err != nil {
		t.Fatal(err)
	}
	if next := keysOf(srv)[3]; next == keys[0] || !uuidV4.MatchString(next) {
		t.Errorf("the next call's key = %q, want a new one (the first call's was %q)", next, keys[0])
	}
}

func TestIdempotencyKeyOfTheCallerIsSentAsGiven(t *testing.T) {
	srv := newScripted(t, step{status: 500, body: `{"status":"error","code":"INTERNAL_ERROR","message":"boom"}`}, step{body: okThing})
	c := newTestClient(t, srv.URL, WithHeader("Idempotency-Key", "client-wide"))
	if _, err := c.Call(context.Background(), opKeyed, Request{}, CallIdempotencyKey("order-42")); err != nil {
		t.Fatal(err)
	}
	if keys := keysOf(srv); len(keys) != 2 || keys[0] != "order-42" || keys[1] != "order-42" {
		t.Errorf("keys = %q, want the caller's on both attempts", keys)
	}
	if got := srv.got()[0].header.Values("Idempotency-Key"); len(got) != 1 {
		t.Errorf("Idempotency-Key sent %d times: %q", len(got), got)
	}
	// A header of that name among the call's own is the caller's key too.
	if _, err := c.Call(context.Background(), opKeyed, Request{}, CallHeader("idempotency-key", "from-header")); err != nil {
		t.Fatal(err)
	}
	if key := keysOf(srv)[2]; key != "from-header" {
		t.Errorf("key = %q, want the call header's", key)
	}
}

func TestIdempotencyKeyOptionIsRefusedByAnOperationWithoutOne(t *testing.T) {
	srv := newScripted(t, step{body: okThing})
	c := newTestClient(t, srv.URL)
	_, err := c.Call(context.Background(), opWrite, Request{Body: map[string]any{}}, CallIdempotencyKey("k"))
	cfg := errorsAs[*ConfigError](t, err)
	if !strings.Contains(cfg.Message, opWrite.ID) || !strings.Contains(cfg.Message, "takes no idempotency key") {
		t.Errorf("message = %q", cfg.Message)
	}
	if _, err := c.Call(context.Background(), opKeyed, Request{}, CallIdempotencyKey("")); err == nil {
		t.Error("an empty key was sent")
	}
	if srv.count() != 0 {
		t.Errorf("%d requests sent, want none", srv.count())
	}
	// Without the option, an operation without a key sends no key header.
	if _, err := c.Call(context.Background(), opWrite, Request{Body: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	if key := srv.got()[0].header.Get("Idempotency-Key"); key != "" {
		t.Errorf("an operation without a key sent %q", key)
	}
}

func TestIsResendableWithAnIdempotencyKey(t *testing.T) {
	if !IsResendable(opKeyed) {
		t.Error("a billed POST with a key is not resendable")
	}
	if IsResendable(&Operation{Method: "POST", Billed: true, Idempotent: boolPtr(false)}) {
		t.Error("a billed POST without a key is resendable")
	}
	if IsResendable(&Operation{Method: "POST", IdempotencyKey: "Idempotency-Key", Job: JobRoleSubmit}) {
		t.Error("a job submission is resendable")
	}
}
