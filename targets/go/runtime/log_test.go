package sdkruntime

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// ctxKey marks the context a call was made with, so that a handler can tell it reached the entry.
type ctxKey struct{}

// recordingHandler keeps every entry with the context value it was logged with.
type recordingHandler struct {
	mu      sync.Mutex
	entries []string
}

func (h *recordingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *recordingHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *recordingHandler) WithGroup(string) slog.Handler            { return h }
func (h *recordingHandler) Handle(ctx context.Context, r slog.Record) error {
	mark, _ := ctx.Value(ctxKey{}).(string)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.entries = append(h.entries, r.Level.String()+" "+r.Message+" ctx="+mark)
	return nil
}

func logEnv(value string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		if name == "SVC_LOG" && value != "" {
			return value, true
		}
		return "", false
	}
}

func logModel() *Model {
	m := authModel()
	m.Env.Log = "SVC_LOG"
	return m
}

var logOp = &Operation{ID: "readThing", Method: "GET", Path: "/things", Security: [][]string{{"bearerAuth"}}}

func retriedThing(t *testing.T) *scripted {
	return newScripted(t,
		step{status: 500, body: `{"status":"error","code":"INTERNAL_ERROR","message":"boom"}`},
		step{body: okThing, headers: map[string]string{"X-Request-Id": "req-9", "X-Echo": "Bearer tok-secret-4242 and conf-secret-77"}})
}

func TestLogsWithTheCallsContext(t *testing.T) {
	srv := retriedThing(t)
	h := &recordingHandler{}
	c, err := New(logModel(), WithBaseURL(srv.URL), WithLookupEnv(logEnv("")), WithToken("tok-secret-4242"), WithLogger(slog.New(h)), WithRetryDelays(time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.WithValue(context.Background(), ctxKey{}, "call-1")
	if _, err := c.Call(ctx, logOp, Request{}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"DEBUG request ctx=call-1", "INFO answer ctx=call-1", "DEBUG answer headers ctx=call-1", "WARN retrying ctx=call-1",
		"DEBUG request ctx=call-1", "INFO answer ctx=call-1", "DEBUG answer headers ctx=call-1",
	}
	if got := strings.Join(h.entries, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

func TestLogLevelFromTheEnvironment(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  []string
	}{
		{"info", []string{"msg=answer", "msg=retrying"}},
		{"warn", []string{"msg=retrying"}},
		{"off", nil},
	} {
		t.Run(tc.value, func(t *testing.T) {
			srv := retriedThing(t)
			var buf bytes.Buffer
			logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
			c, err := New(logModel(), WithBaseURL(srv.URL), WithLookupEnv(logEnv(tc.value)), WithToken("tok-secret-4242"), WithLogger(logger), WithRetryDelays(time.Millisecond, time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Call(context.Background(), logOp, Request{}); err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
				if f := strings.Fields(line); len(f) > 2 && !contains(got, f[2]) {
					got = append(got, f[2])
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("SVC_LOG=%s logged %v, want %v:\n%s", tc.value, got, tc.want, buf.String())
			}
		})
	}
}

func TestLogLevelOptionWinsAndDebugRedactsHeaders(t *testing.T) {
	srv := retriedThing(t)
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, err := New(logModel(), WithBaseURL(srv.URL), WithLookupEnv(logEnv("off")), WithLogLevel(slog.LevelDebug), WithToken("tok-secret-4242"),
		WithSecrets("conf-secret-77"), WithLogger(logger), WithRetryDelays(time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Call(context.Background(), logOp, Request{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"msg=request op=readThing method=GET path=/things attempt=2 headers.Accept=",
		"headers.Authorization=[redacted] headers.User-Agent=",
		`msg=answer op=readThing method=GET path=/things attempt=2 status=200 request_id=req-9 duration=`,
		`headers.X-Echo="Bearer [redacted] and [redacted]"`,
		`reason="HTTP 500 INTERNAL_ERROR"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "tok-secret-4242") || strings.Contains(out, "conf-secret-77") {
		t.Errorf("log shows a secret:\n%s", out)
	}
}

func TestAnUnknownLogLevelIsAConfigError(t *testing.T) {
	_, err := New(logModel(), WithBaseURL("http://127.0.0.1:1"), WithLookupEnv(logEnv("loud")))
	var ce *ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), `the environment variable SVC_LOG is "loud": use one of debug, info, warn, error, off`) {
		t.Fatalf("err = %v", err)
	}
}
