package sdkruntime

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// testToken is long enough to be redacted anywhere, and has digits so that a "Bearer" echo is redacted too.
const testToken = "tok_live_4f9a2c81e7d3b605"

func boolPtr(b bool) *bool { return &b }

// testModel describes a service in the shape of the behaviour suite's: an envelope, a job submission with a
// hold and a still-running status, polling, download by token, bearer auth.
func testModel() *Model {
	return &Model{
		Release: "R20261120.0900",
		Title:   "Test Documents API",
		Errors: map[string]ErrorSpec{
			"INVALID_REQUEST":     {Status: 400, Description: "The request is invalid."},
			"UNAUTHORIZED":        {Status: 401},
			"RATE_LIMIT_EXCEEDED": {Status: 429},
			"INVALID_PIPELINE":    {Status: 422},
		},
		Pipelines:       map[string]Pipeline{"pdf-merge": {PayloadAfterPolling: "result", JSONStrings: []string{"options"}}},
		SecuritySchemes: map[string]SecurityScheme{"bearerAuth": {Type: SchemeHTTP, Scheme: "bearer"}},
		Env:             EnvNames{Token: "TESTSVC_TOKEN", BaseURL: "TESTSVC_BASE_URL"},
		RequestIDHeader: "X-Request-Id",
		Conventions: &Conventions{Envelope: &Envelope{
			Status: "status", Success: "success", Error: "error", Code: "code", Message: "message",
			ProcessingTime: "processing_time", Billing: "_billing",
		}},
		Jobs: &Jobs{
			Submit: JobSubmit{
				Operation:          Operation{ID: "submitJob", Method: "POST", Path: "/job/{pipeline}", RequestMediaType: MediaMultipart, Billed: true, Job: JobRoleSubmit, Security: [][]string{{"bearerAuth"}}},
				PipelineParameter:  "pipeline",
				JobID:              "job_id",
				PollURL:            "poll_url",
				StillRunningStatus: 202,
				NoWait:             &NoWait{Field: "no_wait", Value: true},
				SelectorPattern:    `^[a-z0-9-]+$`,
				SelectorRefusal:    "INVALID_PIPELINE",
			},
			Poll: JobPoll{
				Operation:      Operation{ID: "getJob", Method: "GET", Path: "/job/get/{job_id}", Job: JobRolePoll, Security: [][]string{{"bearerAuth"}}},
				JobIDParameter: "job_id",
				Status:         "job_status",
				Completed:      "completed",
				Payload:        []string{"result", "job_result"},
			},
			Download: &JobDownload{
				Operation:      Operation{ID: "downloadFile", Method: "GET", Path: "/file/{token}", Response: ResponseBinary, Job: JobRoleDownload, Security: [][]string{{"bearerAuth"}}},
				TokenParameter: "token",
			},
		},
	}
}

var (
	opRead  = &Operation{ID: "readThing", Method: "GET", Path: "/things/{id}", Security: [][]string{{"bearerAuth"}}}
	opWrite = &Operation{ID: "createThing", Method: "POST", Path: "/things", RequestMediaType: MediaJSON, Security: [][]string{{"bearerAuth"}}}
)

// step is one scripted answer.
type step struct {
	status  int
	body    string
	headers map[string]string
	// delay before the headers are sent.
	delay time.Duration
	// trickle sends the body one byte at a time with this gap.
	trickle time.Duration
	// reset closes the connection without an answer, after reading the request.
	reset bool
}

// recorded is one request as the server saw it.
type recorded struct {
	at      time.Time
	method  string
	path    string
	rawPath string
	query   string
	header  http.Header
	body    string
}

// scripted is an httptest server on 127.0.0.1 that plays steps in request order (the last step repeats) and
// records what arrived.
type scripted struct {
	*httptest.Server
	mu       sync.Mutex
	steps    []step
	requests []recorded
	handler  func(w http.ResponseWriter, r *http.Request, n int) bool
}

func newScripted(t *testing.T, steps ...step) *scripted {
	t.Helper()
	s := &scripted{steps: steps}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *scripted) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, recorded{at: time.Now(), method: r.Method, path: r.URL.Path, rawPath: r.URL.EscapedPath(), query: r.URL.RawQuery, header: r.Header.Clone(), body: string(body)})
	var st step
	if len(s.steps) > 0 {
		st = s.steps[min(n, len(s.steps)-1)]
	}
	handler := s.handler
	s.mu.Unlock()
	if handler != nil && handler(w, r, n) {
		return
	}
	if st.delay > 0 {
		select {
		case <-time.After(st.delay):
		case <-r.Context().Done():
			return
		}
	}
	if st.reset {
		hj, ok := w.(http.Hijacker)
		if !ok {
			http.Error(w, "cannot reset", http.StatusTeapot)
			return
		}
		conn, _, err := hj.Hijack()
		if err == nil {
			if tcp, ok := conn.(*net.TCPConn); ok {
				_ = tcp.SetLinger(0)
			}
			conn.Close()
		}
		return
	}
	for k, v := range st.headers {
		w.Header().Set(k, v)
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	status := st.status
	if status == 0 {
		status = 200
	}
	w.WriteHeader(status)
	if st.trickle == 0 {
		_, _ = io.WriteString(w, st.body)
		return
	}
	flusher, _ := w.(http.Flusher)
	for i := 0; i < len(st.body); i++ {
		if _, err := w.Write([]byte{st.body[i]}); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
		select {
		case <-time.After(st.trickle):
		case <-r.Context().Done():
			return
		}
	}
}

func (s *scripted) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

func (s *scripted) got() []recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]recorded(nil), s.requests...)
}

// noEnv finds no environment variable.
func noEnv(string) (string, bool) { return "", false }

// newTestClient is a client of testModel on the server, with the test token and fast retries.
func newTestClient(t *testing.T, baseURL string, opts ...Option) *Client {
	t.Helper()
	all := append([]Option{WithBaseURL(baseURL), WithToken(testToken), WithRetryDelays(time.Millisecond, 5*time.Millisecond), WithLookupEnv(noEnv), WithPollInterval(5*time.Millisecond, 10*time.Millisecond)}, opts...)
	c, err := New(testModel(), all...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

// errorChainTexts returns the text of an error and of every error below it.
func errorChainTexts(err error) []string {
	var out []string
	queue := []error{err}
	for len(queue) > 0 {
		e := queue[0]
		queue = queue[1:]
		if e == nil {
			continue
		}
		out = append(out, e.Error())
		switch u := e.(type) {
		case interface{ Unwrap() []error }:
			queue = append(queue, u.Unwrap()...)
		case interface{ Unwrap() error }:
			queue = append(queue, u.Unwrap())
		}
	}
	return out
}

func assertNoSecret(t *testing.T, err error, secrets ...string) {
	t.Helper()
	if err == nil {
		t.Fatal("expected an error")
	}
	for _, text := range errorChainTexts(err) {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("error text %q shows the secret %q", text, s)
			}
		}
	}
}

func errorsAs[T any](t *testing.T, err error) T {
	t.Helper()
	var target T
	if !errors.As(err, &target) {
		t.Fatalf("error %v (%T) is not a %T", err, err, target)
	}
	return target
}
