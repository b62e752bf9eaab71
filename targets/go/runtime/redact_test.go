package sdkruntime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strings"
	"testing"
)

func TestRedactSecrets(t *testing.T) {
	brand := regexp.MustCompile(`svc_(?:sk_|pk_)[A-Za-z0-9._~-]+`)
	tests := []struct {
		name    string
		text    string
		secrets []string
		want    string
	}{
		{name: "short secret inside a word stays", text: "no pet here", secrets: []string{"t"}, want: "no pet here"},
		{name: "short secret alone goes", text: "token t was refused", secrets: []string{"t"}, want: "token [redacted] was refused"},
		{name: "short secret next to punctuation", text: "key=abc123;", secrets: []string{"abc123"}, want: "key=[redacted];"},
		{name: "short secret glued to a word stays", text: "xabc123", secrets: []string{"abc123"}, want: "xabc123"},
		{name: "long secret anywhere", text: "prefix" + testToken + "suffix", secrets: []string{testToken}, want: "prefix[redacted]suffix"},
		{name: "longest first", text: "abcdefghijklmnop", secrets: []string{"abcdefghijklm", "abcdefghijklmnop"}, want: "[redacted]"},
		{name: "unicode word boundary", text: "été1 1", secrets: []string{"1"}, want: "été1 [redacted]"},
		{name: "bearer credential", text: "upstream said Bearer abc.def-123", want: "upstream said Bearer [redacted]"},
		{name: "bearer prose stays", text: "use Bearer authentication", want: "use Bearer authentication"},
		{name: "branded token", text: "got svc_sk_abcDEF123 here", want: "got [redacted] here"},
		{name: "overlapping occurrences", text: "aa aa", secrets: []string{"aa"}, want: "[redacted] [redacted]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := redactSecrets(tt.text, tt.secrets, brand); got != tt.want {
				t.Errorf("redactSecrets(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestRedactionInErrors(t *testing.T) {
	const secret = "configured-secret-9c2e"
	tests := []struct {
		name  string
		op    *Operation
		steps []step
		run   func(c *Client) error
	}{
		{name: "401 message", steps: []step{{status: 401, body: `{"status":"error","code":"UNAUTHORIZED","message":"token ` + testToken + ` is revoked"}`}}},
		{name: "submission 500 cause", steps: []step{{status: 500, body: `{"status":"error","code":"INTERNAL_ERROR","message":"upstream said Bearer ` + testToken + `"}`}}, run: func(c *Client) error {
			_, err := c.Submit(context.Background(), "pdf-merge", map[string]any{"a": "b"})
			return err
		}},
		{name: "job failed message", steps: []step{{status: 202, body: stillRunning}, {body: `{"status":"success","job_id":"job_b1","job_status":"failed","message":"bad ` + testToken + `"}`}}, run: func(c *Client) error {
			_, err := c.Submit(context.Background(), "pdf-merge", map[string]any{"a": "b"})
			return err
		}},
		{name: "malformed body", steps: []step{{body: `<html>` + testToken}}},
		{name: "text error", steps: []step{{status: 400, body: `plain text with ` + testToken}}},
		{name: "configured secret", steps: []step{{status: 400, body: `{"status":"error","code":"INVALID_REQUEST","message":"field password=` + secret + ` rejected"}`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScripted(t, tt.steps...)
			c := newTestClient(t, srv.URL, WithSecrets(secret))
			run := tt.run
			if run == nil {
				run = func(c *Client) error {
					_, err := c.Call(context.Background(), opRead, Request{Path: map[string]string{"id": "1"}})
					return err
				}
			}
			err := run(c)
			assertNoSecret(t, err, testToken, secret)
			if !strings.Contains(strings.Join(errorChainTexts(err), "\n")+fmt.Sprint(bodiesOf(err)), "[redacted]") {
				t.Errorf("no [redacted] mark in %v; was the secret echoed at all?", err)
			}
			for _, b := range bodiesOf(err) {
				data, _ := json.Marshal(b)
				if strings.Contains(string(data), testToken) || strings.Contains(string(data), secret) {
					t.Errorf("error body %s shows a secret", data)
				}
			}
		})
	}
}

// bodiesOf returns the Body fields of the service errors in the chain.
func bodiesOf(err error) []any {
	var out []any
	var s *ServiceError
	if errors.As(err, &s) {
		out = append(out, s.Body)
	}
	var f *JobFailedError
	if errors.As(err, &f) {
		out = append(out, f.Body)
	}
	var m *MalformedResponseError
	if errors.As(err, &m) {
		out = append(out, m.Body)
	}
	return out
}

func TestQueryKeyNotInConnectionError(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	const key = "qk-7f3a"
	c, err := New(authModel(), WithBaseURL("http://"+addr), WithLookupEnv(noEnv), WithAPIKey(key), WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	op := &Operation{ID: "readThing", Method: "GET", Path: "/things", Security: [][]string{{"queryKey"}}}
	_, err = c.Call(context.Background(), op, Request{})
	errorsAs[*ConnectionError](t, err)
	assertNoSecret(t, err, key)
}

func TestBasicPasswordRedacted(t *testing.T) {
	srv := newScripted(t, step{status: 403, body: `{"status":"error","code":"FORBIDDEN","message":"user ann with password hunter2 may not"}`})
	c, err := New(authModel(), WithBaseURL(srv.URL), WithLookupEnv(noEnv), WithBasicAuth("ann", "hunter2"))
	if err != nil {
		t.Fatal(err)
	}
	op := &Operation{ID: "readThing", Method: "GET", Path: "/things", Security: [][]string{{"basicAuth"}}}
	_, err = c.Call(context.Background(), op, Request{})
	assertNoSecret(t, err, "hunter2")
	if s := errorsAs[*ServiceError](t, err); !strings.Contains(s.Message, "user ann with password [redacted]") {
		t.Errorf("Message = %q", s.Message)
	}
}
