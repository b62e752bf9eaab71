package sdkruntime

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

const okThing = `{"status":"success","id":"t1"}`

func TestRetries(t *testing.T) {
	opIdempotentPost := &Operation{ID: "searchThings", Method: "POST", Path: "/things/search", RequestMediaType: MediaJSON, Idempotent: boolPtr(true), Security: [][]string{{"bearerAuth"}}}
	opPutNotIdempotent := &Operation{ID: "replaceThing", Method: "PUT", Path: "/things/{id}", RequestMediaType: MediaJSON, Idempotent: boolPtr(false), Security: [][]string{{"bearerAuth"}}}
	e500 := step{status: 500, body: `{"status":"error","code":"INTERNAL_ERROR","message":"boom"}`}
	e502 := step{status: 502, body: `bad gateway`}
	e503 := step{status: 503, body: `{"status":"error","code":"SERVICE_UNAVAILABLE","message":"busy"}`}
	e429 := step{status: 429, body: `{"status":"error","code":"RATE_LIMIT_EXCEEDED","message":"slow"}`, headers: map[string]string{"Retry-After": "0"}}
	e400 := step{status: 400, body: `{"status":"error","code":"INVALID_REQUEST","message":"bad id"}`}
	ok := step{body: okThing}
	reset := step{reset: true}

	tests := []struct {
		name         string
		op           *Operation
		steps        []step
		maxRetries   int
		wantRequests int
		// want checks the error; nil means success expected.
		want func(t *testing.T, err error)
	}{
		{name: "POST 500 is not resent", op: opWrite, steps: []step{e500, ok}, wantRequests: 1, want: func(t *testing.T, err error) {
			m := errorsAs[*MayHaveBeenProcessedError](t, err)
			if m.Status != 500 {
				t.Errorf("Status = %d, want 500", m.Status)
			}
			if s := errorsAs[*ServiceError](t, err); s.Code != "INTERNAL_ERROR" {
				t.Errorf("Code = %q", s.Code)
			}
			var j *JobMayExistError
			if errors.As(err, &j) {
				t.Error("a plain write must not be a JobMayExistError")
			}
		}},
		{name: "POST 502 is not resent", op: opWrite, steps: []step{e502, ok}, wantRequests: 1, want: func(t *testing.T, err error) {
			errorsAs[*MayHaveBeenProcessedError](t, err)
		}},
		{name: "PUT marked not idempotent is not resent", op: opPutNotIdempotent, steps: []step{e500, ok}, wantRequests: 1, want: func(t *testing.T, err error) {
			errorsAs[*MayHaveBeenProcessedError](t, err)
		}},
		{name: "POST reset after sending is not resent", op: opWrite, steps: []step{reset, ok}, wantRequests: 1, want: func(t *testing.T, err error) {
			errorsAs[*MayHaveBeenProcessedError](t, err)
			if c := errorsAs[*ConnectionError](t, err); !c.Sent {
				t.Error("ConnectionError.Sent = false for a reset after the request was read")
			}
		}},
		{name: "POST 503 is retried", op: opWrite, steps: []step{e503, ok}, wantRequests: 2},
		{name: "POST 429 is retried", op: opWrite, steps: []step{e429, ok}, wantRequests: 2},
		{name: "POST marked idempotent 500 is retried", op: opIdempotentPost, steps: []step{e500, ok}, wantRequests: 2},
		{name: "GET 500 is retried", op: opRead, steps: []step{e500, e500, ok}, wantRequests: 3},
		{name: "GET 429 is retried", op: opRead, steps: []step{e429, ok}, wantRequests: 2},
		{name: "GET reset is retried", op: opRead, steps: []step{reset, ok}, wantRequests: 2},
		{name: "GET 400 is not retried", op: opRead, steps: []step{e400, ok}, wantRequests: 1, want: func(t *testing.T, err error) {
			s := errorsAs[*ServiceError](t, err)
			if s.Status != 400 || s.Code != "INVALID_REQUEST" || !strings.Contains(s.Message, "bad id") {
				t.Errorf("ServiceError = %+v", s)
			}
			var m *MayHaveBeenProcessedError
			if errors.As(err, &m) {
				t.Error("a 400 is not a MayHaveBeenProcessedError")
			}
		}},
		{name: "GET 503 exhausts the retries", op: opRead, steps: []step{e503}, maxRetries: 2, wantRequests: 3, want: func(t *testing.T, err error) {
			if s := errorsAs[*ServiceError](t, err); s.Status != 503 {
				t.Errorf("Status = %d", s.Status)
			}
		}},
		{name: "GET with retries off", op: opRead, steps: []step{e500, ok}, maxRetries: -1, wantRequests: 1, want: func(t *testing.T, err error) {
			errorsAs[*ServiceError](t, err)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScripted(t, tt.steps...)
			opts := []Option{}
			switch {
			case tt.maxRetries > 0:
				opts = append(opts, WithMaxRetries(tt.maxRetries))
			case tt.maxRetries < 0:
				opts = append(opts, WithMaxRetries(0))
			}
			c := newTestClient(t, srv.URL, opts...)
			in := Request{Path: map[string]string{"id": "t1"}}
			if tt.op.RequestMediaType != "" {
				in.Body = map[string]any{"name": "x"}
			}
			res, err := c.Call(context.Background(), tt.op, in, CallTimeout(10*time.Second))
			if got := srv.count(); got != tt.wantRequests {
				t.Errorf("requests = %d, want %d", got, tt.wantRequests)
			}
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Call: %v", err)
				}
				if res.Meta.RequestCount != tt.wantRequests {
					t.Errorf("Meta.RequestCount = %d, want %d", res.Meta.RequestCount, tt.wantRequests)
				}
				return
			}
			if err == nil {
				t.Fatal("Call succeeded, want an error")
			}
			errorsAs[Error](t, err)
			tt.want(t, err)
		})
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	srv := newScripted(t,
		step{status: 429, body: `{"status":"error","code":"RATE_LIMIT_EXCEEDED","message":"slow"}`, headers: map[string]string{"Retry-After": "1"}},
		step{body: okThing},
	)
	c := newTestClient(t, srv.URL)
	if _, err := c.Call(context.Background(), opRead, Request{Path: map[string]string{"id": "t1"}}); err != nil {
		t.Fatalf("Call: %v", err)
	}
	reqs := srv.got()
	if len(reqs) != 2 {
		t.Fatalf("requests = %d, want 2", len(reqs))
	}
	// Backoff alone would wait at most 5 ms here.
	if gap := reqs[1].at.Sub(reqs[0].at); gap < 900*time.Millisecond {
		t.Errorf("retried after %s, want about the 1 s of Retry-After", gap)
	}
}

func TestRetryAfterIsCapped(t *testing.T) {
	srv := newScripted(t,
		step{status: 503, body: `{"status":"error","code":"SERVICE_UNAVAILABLE","message":"busy"}`, headers: map[string]string{"Retry-After": "120"}},
		step{body: okThing},
	)
	c := newTestClient(t, srv.URL, WithMaxRetryAfter(300*time.Millisecond))
	start := time.Now()
	if _, err := c.Call(context.Background(), opRead, Request{Path: map[string]string{"id": "t1"}}, CallTimeout(30*time.Second)); err != nil {
		t.Fatalf("Call: %v", err)
	}
	elapsed := time.Since(start)
	if srv.count() != 2 {
		t.Errorf("requests = %d, want 2", srv.count())
	}
	if elapsed < 250*time.Millisecond || elapsed > 10*time.Second {
		t.Errorf("took %s, want the 300 ms cap", elapsed)
	}
}

func TestRetryAfterPastDeadlineEndsAtOnce(t *testing.T) {
	srv := newScripted(t,
		step{status: 503, body: `{"status":"error","code":"SERVICE_UNAVAILABLE","message":"busy"}`, headers: map[string]string{"Retry-After": "30"}},
		step{body: okThing},
	)
	c := newTestClient(t, srv.URL)
	start := time.Now()
	_, err := c.Call(context.Background(), opRead, Request{Path: map[string]string{"id": "t1"}}, CallTimeout(1500*time.Millisecond))
	if elapsed := time.Since(start); elapsed > 1200*time.Millisecond {
		t.Errorf("took %s; a Retry-After beyond the deadline should end the call at once", elapsed)
	}
	s := errorsAs[*ServiceError](t, err)
	if s.Status != 503 || s.RetryAfter != 30*time.Second {
		t.Errorf("ServiceError status %d retry-after %s", s.Status, s.RetryAfter)
	}
	if srv.count() != 1 {
		t.Errorf("requests = %d, want 1", srv.count())
	}
}

// refusingDialer refuses the first n dials the way an unreachable port does, then dials for real.
func refusingDialer(n int32, dials *atomic.Int32) *http.Client {
	var d net.Dialer
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		if dials.Add(1) <= n {
			return nil, &net.OpError{Op: "dial", Net: network, Err: syscall.ECONNREFUSED}
		}
		return d.DialContext(ctx, network, addr)
	}}
	return &http.Client{Transport: tr}
}

func TestConnectionRefusedIsRetriedEvenForWrites(t *testing.T) {
	srv := newScripted(t, step{body: okThing})
	var dials atomic.Int32
	c := newTestClient(t, srv.URL, WithHTTPClient(refusingDialer(2, &dials)))
	if _, err := c.Call(context.Background(), opWrite, Request{Body: map[string]any{"name": "x"}}); err != nil {
		t.Fatalf("Call: %v", err)
	}
	if dials.Load() != 3 || srv.count() != 1 {
		t.Errorf("dials = %d, requests = %d; want 3 dials and 1 request", dials.Load(), srv.count())
	}
}

func TestConnectionRefusedExhausted(t *testing.T) {
	// A port nothing listens on.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	c := newTestClient(t, "http://"+addr, WithMaxRetries(2))
	_, err = c.Call(context.Background(), opWrite, Request{Body: map[string]any{"name": "x"}})
	conn := errorsAs[*ConnectionError](t, err)
	if conn.Sent {
		t.Error("Sent = true for a refused connection")
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("errors.Is(err, ECONNREFUSED) = false for %v", err)
	}
	var m *MayHaveBeenProcessedError
	if errors.As(err, &m) {
		t.Error("a refused connection never reached the server")
	}
}

func TestBackoffDelayWithoutBase(t *testing.T) {
	for retry := 0; retry < 70; retry++ {
		if d := backoffDelay(retry, 0, time.Second); d != 0 {
			t.Fatalf("backoffDelay(%d, 0, 1s) = %s, want 0", retry, d)
		}
	}
}

func TestBackoffDelayBounds(t *testing.T) {
	for retry := 0; retry < 70; retry++ {
		ceiling := min(100*time.Millisecond<<uint(min(retry, 30)), 2*time.Second)
		for i := 0; i < 50; i++ {
			d := backoffDelay(retry, 100*time.Millisecond, 2*time.Second)
			if d < 0 || d > ceiling {
				t.Fatalf("backoffDelay(%d) = %s, outside [0, %s]", retry, d, ceiling)
			}
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"3", 3 * time.Second, true},
		{" 1.5 ", 1500 * time.Millisecond, true},
		{"Fri, 20 Nov 2026 09:00:10 GMT", 10 * time.Second, true},
		{"Fri, 20 Nov 2026 08:59:00 GMT", 0, true},
		{"-1", 0, false},
		{"1e3", 0, false},
		{"Inf", 0, false},
		{"99999999999999999999", 1e9 * time.Second, true},
		{"soon", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseRetryAfter(tt.in, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseRetryAfter(%q) = %s, %v; want %s, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestIsResendable(t *testing.T) {
	tests := []struct {
		op   Operation
		want bool
	}{
		{Operation{Method: "GET"}, true},
		{Operation{Method: "head"}, true},
		{Operation{Method: "PUT"}, true},
		{Operation{Method: "DELETE"}, true},
		{Operation{Method: "POST"}, false},
		{Operation{Method: "PATCH"}, false},
		{Operation{Method: "POST", Idempotent: boolPtr(true)}, true},
		{Operation{Method: "GET", Idempotent: boolPtr(false)}, false},
		{Operation{Method: "POST", Idempotent: boolPtr(true), Job: JobRoleSubmit}, false},
	}
	for _, tt := range tests {
		if got := IsResendable(&tt.op); got != tt.want {
			t.Errorf("IsResendable(%+v) = %v, want %v", tt.op, got, tt.want)
		}
	}
}

func TestNoReplayOnReusedConnection(t *testing.T) {
	opGetOnce := &Operation{ID: "claimThing", Method: "GET", Path: "/things/{id}/claim", Idempotent: boolPtr(false), Security: [][]string{{"bearerAuth"}}}
	tests := []struct {
		name         string
		op           *Operation
		maxRetries   int
		wantRequests int
		want         func(t *testing.T, err error)
	}{
		{name: "a GET marked not idempotent is not replayed", op: opGetOnce, maxRetries: 3, wantRequests: 2, want: func(t *testing.T, err error) {
			errorsAs[*MayHaveBeenProcessedError](t, err)
		}},
		{name: "an idempotent GET is sent as often as the retries say", op: opRead, maxRetries: 1, wantRequests: 3, want: func(t *testing.T, err error) {
			errorsAs[*ConnectionError](t, err)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The first call leaves a kept-alive connection; the second call's requests are reset after being read.
			srv := newScripted(t, step{body: okThing}, step{reset: true})
			c := newTestClient(t, srv.URL, WithMaxRetries(tt.maxRetries))
			in := Request{Path: map[string]string{"id": "t1"}}
			if _, err := c.Call(context.Background(), opRead, in); err != nil {
				t.Fatalf("first call: %v", err)
			}
			_, err := c.Call(context.Background(), tt.op, in)
			if srv.count() != tt.wantRequests {
				t.Errorf("requests = %d, want %d", srv.count(), tt.wantRequests)
			}
			tt.want(t, err)
		})
	}
}

func TestTemporaryRedirectsOfBodilessRequests(t *testing.T) {
	foreign := newScripted(t, step{body: okThing})
	tests := []struct {
		name      string
		status    int
		toForeign bool
	}{
		{name: "307 same origin", status: http.StatusTemporaryRedirect},
		{name: "308 same origin", status: http.StatusPermanentRedirect},
		{name: "307 to another origin", status: http.StatusTemporaryRedirect, toForeign: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			main := newScripted(t)
			main.handler = func(w http.ResponseWriter, r *http.Request, n int) bool {
				if n > 0 {
					w.Header().Set("Content-Type", "application/json")
					_, _ = w.Write([]byte(okThing))
					return true
				}
				target := "/moved"
				if tt.toForeign {
					target = foreign.URL + "/moved"
				}
				http.Redirect(w, r, target, tt.status)
				return true
			}
			c := newTestClient(t, main.URL)
			if _, err := c.Call(context.Background(), opRead, Request{Path: map[string]string{"id": "1"}}); err != nil {
				t.Fatalf("Call: %v", err)
			}
			var landed recorded
			if tt.toForeign {
				reqs := foreign.got()
				landed = reqs[len(reqs)-1]
			} else {
				if main.count() != 2 {
					t.Fatalf("requests = %d, want 2", main.count())
				}
				landed = main.got()[1]
			}
			if landed.path != "/moved" {
				t.Errorf("landed on %s", landed.path)
			}
			if has := landed.header.Get("Authorization") != ""; has == tt.toForeign {
				t.Errorf("Authorization after the redirect: %v", has)
			}
		})
	}
}
