package sdkruntime

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func TestPacing(t *testing.T) {
	paced := `{"status":"success","id":"t1","_billing":{"requests":{"next_possible_request_seconds":0.8}}}`
	tests := []struct {
		name   string
		pacing bool
		check  func(t *testing.T, gap time.Duration)
	}{
		{name: "on: the next request waits", pacing: true, check: func(t *testing.T, gap time.Duration) {
			if gap < 700*time.Millisecond {
				t.Errorf("second request %s after the first, want the 0.8 s the service asked for", gap)
			}
		}},
		{name: "off: no wait", check: func(t *testing.T, gap time.Duration) {
			if gap > 600*time.Millisecond {
				t.Errorf("second request %s after the first without pacing", gap)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := testModel()
			m.Conventions.Envelope.NextRequestSeconds = []string{"_billing", "requests", "next_possible_request_seconds"}
			srv := newScripted(t, step{body: paced}, step{body: okThing})
			c, err := New(m, WithBaseURL(srv.URL), WithToken(testToken), WithLookupEnv(noEnv), WithPacing(tt.pacing))
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 2; i++ {
				if _, err := c.Call(context.Background(), opRead, Request{Path: map[string]string{"id": "1"}}); err != nil {
					t.Fatal(err)
				}
			}
			reqs := srv.got()
			tt.check(t, reqs[1].at.Sub(reqs[0].at))
		})
	}
}

func TestPacingNeverOutlastsTheDeadline(t *testing.T) {
	m := testModel()
	m.Conventions.Envelope.NextRequestSeconds = []string{"_billing", "requests", "next_possible_request_seconds"}
	srv := newScripted(t, step{body: `{"status":"success","_billing":{"requests":{"next_possible_request_seconds":60}}}`})
	c, err := New(m, WithBaseURL(srv.URL), WithToken(testToken), WithLookupEnv(noEnv), WithPacing(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Call(context.Background(), opRead, Request{Path: map[string]string{"id": "1"}}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = c.Call(context.Background(), opRead, Request{Path: map[string]string{"id": "1"}}, CallTimeout(time.Second))
	errorsAs[*DeadlineExceededError](t, err)
	if elapsed := time.Since(start); elapsed > 500*time.Millisecond {
		t.Errorf("took %s; a wait beyond the deadline ends the call at once", elapsed)
	}
	if srv.count() != 1 {
		t.Errorf("requests = %d, want 1", srv.count())
	}
}

func TestLogger(t *testing.T) {
	srv := newScripted(t, step{status: 500, body: `{"status":"error","code":"INTERNAL_ERROR","message":"boom"}`}, step{body: okThing})
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, err := New(authModel(), WithBaseURL(srv.URL), WithLookupEnv(noEnv), WithAPIKey("log-key-42"), WithLogger(logger), WithRetryDelays(time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	op := &Operation{ID: "readThing", Method: "GET", Path: "/things", Security: [][]string{{"queryKey"}}}
	if _, err := c.Call(context.Background(), op, Request{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"msg=request op=readThing", "msg=retrying op=readThing status=500 code=INTERNAL_ERROR"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "log-key-42") || strings.Contains(out, "api_key") {
		t.Errorf("log shows the query credential:\n%s", out)
	}
}
