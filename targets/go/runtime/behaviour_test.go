package sdkruntime

// The shared behaviour scenarios (the same file every language's client is judged by), played against this
// runtime. The file's path comes from SDK_BEHAVIOUR_SCENARIOS, which the repository's test runner sets; a plain
// `go test` outside the repository skips this test and says so.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	behaviourToken    = "svc_sk_behaviourTOKEN4f7a"
	behaviourSecret   = "configured-secret-9c2e"
	behaviourPipeline = "workflow"
	// arrivalSlack is the slack for a request sent just before the deadline to reach the server.
	arrivalSlack = 300 * time.Millisecond
	// deadlineSlack is how far past its deadline a call may end on a busy machine.
	deadlineSlack = 1500 * time.Millisecond
)

type bStep struct {
	Status   int                           `json:"status"`
	Headers  map[string]string             `json:"headers"`
	Body     json.RawMessage               `json:"body"`
	DelayMs  int                           `json:"delayMs"`
	Reset    bool                          `json:"reset"`
	Trickle  *struct{ Bytes, EveryMs int } `json:"trickle"`
	Redirect *struct {
		To   string `json:"to"`
		Path string `json:"path"`
	} `json:"redirect"`
	Times int `json:"times"`
}

type bScenario struct {
	Name   string `json:"name"`
	Client struct {
		PollMs          []int    `json:"pollMs"`
		MaxRetries      *int     `json:"maxRetries"`
		BaseDelayMs     *int     `json:"baseDelayMs"`
		MaxDelayMs      *int     `json:"maxDelayMs"`
		MaxRetryAfterMs *int     `json:"maxRetryAfterMs"`
		Secrets         []string `json:"secrets"`
	} `json:"client"`
	Call *struct {
		Headers    map[string]string `json:"headers"`
		Query      map[string]string `json:"query"`
		Body       map[string]string `json:"body"`
		MaxRetries *int              `json:"maxRetries"`
	} `json:"call"`
	Copy *struct {
		Headers map[string]string `json:"headers"`
	} `json:"copy"`
	Action struct {
		Kind       string `json:"kind"`
		DeadlineMs int    `json:"deadlineMs"`
		JobID      string `json:"jobId"`
		Target     string `json:"target"`
		Path       string `json:"path"`
		ToFile     bool   `json:"toFile"`
		PageSize   int    `json:"pageSize"`
		By         string `json:"by"`
	} `json:"action"`
	// Body is the body a submission sends; nil for the suite's default.
	Body         map[string]string `json:"body"`
	Steps        []bStep           `json:"steps"`
	ForeignSteps []bStep           `json:"foreignSteps"`
	Expect       struct {
		Outcome              string              `json:"outcome"`
		Status               *int                `json:"status"`
		Code                 *string             `json:"code"`
		JobID                json.RawMessage     `json:"jobId"`
		Requests             *int                `json:"requests"`
		ForeignRequests      *int                `json:"foreignRequests"`
		MinMs                *int                `json:"minMs"`
		MaxMs                *int                `json:"maxMs"`
		RetryAfterMs         *int                `json:"retryAfterMs"`
		Bytes                *int64              `json:"bytes"`
		ForeignAuthorization *bool               `json:"foreignAuthorization"`
		Authorization        *bool               `json:"authorization"`
		SentFields           map[string]string   `json:"sentFields"`
		CaughtAs             []string            `json:"caughtAs"`
		Items                []any               `json:"items"`
		Pages                *int                `json:"pages"`
		Queries              []map[string]string `json:"queries"`
		ReceivedHeaders      map[string]string   `json:"receivedHeaders"`
		ReceivedQuery        map[string]string   `json:"receivedQuery"`
		SentJSON             map[string]any      `json:"sentJson"`
		RequestID            *string             `json:"requestId"`
	} `json:"expect"`
}

// behaviourModel is the model a generated client of the service the scenarios describe would hold.
func behaviourModel() *Model {
	security := [][]string{{"bearerAuth"}}
	return &Model{
		Release: "R20261127.0900",
		Title:   "Document Automation Service",
		Errors: map[string]ErrorSpec{
			"INVALID_REQUEST": {Status: 400}, "JOB_CONFIG_INVALID": {Status: 400}, "INVALID_TOKEN": {Status: 401},
			"NOT_FOUND": {Status: 404}, "RATE_LIMIT_EXCEEDED": {Status: 429}, "INSUFFICIENT_CREDITS": {Status: 402},
			"INTERNAL_ERROR": {Status: 500},
		},
		// The fields of two workflow variants, as the generated model lists them: the fields group's scenarios send
		// a misspelt field and one of the other variant beside template pdf_ai_split.
		Pipelines: map[string]Pipeline{behaviourPipeline: {PayloadAfterPolling: "result", Variants: []VariantFields{
			{Name: "pdf_ai_split", DiscriminatorProperty: "template", DiscriminatorValue: "pdf_ai_split", Fields: []string{
				"client_wait", "async_only", "processing_lane", "priority", "file", "pofid", "template", "naming_instruction", "locale", "document_types",
			}},
			{Name: "accounting_datev", DiscriminatorProperty: "idp_collection", DiscriminatorValue: "accounting_datev", Fields: []string{
				"client_wait", "async_only", "processing_lane", "priority", "file_1", "pofid", "model", "idp_collection", "idp_fields",
			}},
		}}},
		SecuritySchemes: map[string]SecurityScheme{"bearerAuth": {Type: SchemeHTTP, Scheme: "bearer"}},
		RequestIDHeader: "X-Request-Id",
		Conventions: &Conventions{
			BasePathSuffix: "/latest",
			Envelope: &Envelope{Status: "status", Success: "success", Error: "error", Code: "code", Message: "message",
				ProcessingTime: "processing_time", Billing: "_billing", NextRequestSeconds: []string{"_billing", "requests", "next_possible_request_seconds"}},
			Tokens: &TokenKinds{Scheme: "bearerAuth", Brand: "svc_", Kinds: []TokenKind{{Prefix: "sk_", Name: "secret", ServerOnly: true}, {Prefix: "pk_", Name: "publishable"}}},
		},
		Jobs: &Jobs{
			Submit: JobSubmit{
				Operation:          Operation{ID: "addJob", Method: "POST", Path: "/job/add/{pipeline}", RequestMediaType: MediaForm, Idempotent: boolPtr(false), Billed: true, Job: JobRoleSubmit, Security: security},
				PipelineParameter:  "pipeline",
				JobID:              "job_id",
				PollURL:            "poll_url",
				StillRunningStatus: 202,
				NoWait:             &NoWait{Field: "client_wait", Value: false},
				SelectorPattern:    `^(?:[A-Za-z0-9-]+|[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*___[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*)$`,
				SelectorRefusal:    "JOB_CONFIG_INVALID",
			},
			Poll: JobPoll{
				Operation:      Operation{ID: "getJob", Method: "GET", Path: "/job/get/{job_id}", Idempotent: boolPtr(true), Job: JobRolePoll, Security: security},
				JobIDParameter: "job_id", Status: "job_status", Completed: "completed", Payload: []string{"result", "job_result"},
			},
			Download: &JobDownload{
				Operation:      Operation{ID: "downloadJobFile", Method: "GET", Path: "/job/download/{token}", Response: ResponseBinary, Idempotent: boolPtr(true), Job: JobRoleDownload, Security: security},
				TokenParameter: "token",
			},
		},
	}
}

type bRequest struct {
	at            time.Time
	method, path  string
	authorization bool
	header        http.Header
	body          string
}

// bOrigin plays a list of steps in request order and records what arrived.
type bOrigin struct {
	*httptest.Server
	mu       sync.Mutex
	steps    []bStep
	requests []bRequest
	// redirectTo gives the origin a redirect goes to ("foreign" or "same").
	redirectTo func(to string) string
}

func newOrigin(t *testing.T, steps []bStep) *bOrigin {
	o := &bOrigin{steps: steps}
	o.Server = httptest.NewServer(http.HandlerFunc(o.serve))
	t.Cleanup(o.Close)
	return o
}

func (o *bOrigin) stepAt(index int) *bStep {
	seen := 0
	for i := range o.steps {
		times := o.steps[i].Times
		if times == 0 {
			times = 1
		}
		seen += times
		if index < seen {
			return &o.steps[i]
		}
	}
	if len(o.steps) == 0 {
		return nil
	}
	return &o.steps[len(o.steps)-1]
}

func (o *bOrigin) serve(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<10))
	o.mu.Lock()
	index := len(o.requests)
	o.requests = append(o.requests, bRequest{at: at, method: r.Method, path: r.URL.RequestURI(), authorization: r.Header.Get("Authorization") != "", header: r.Header.Clone(), body: string(body)})
	step := o.stepAt(index)
	redirectTo := o.redirectTo
	o.mu.Unlock()
	if step == nil {
		http.Error(w, "the scenario has no step for this request", 599)
		return
	}
	if step.DelayMs > 0 {
		select {
		case <-time.After(time.Duration(step.DelayMs) * time.Millisecond):
		case <-r.Context().Done():
			return
		}
	}
	if step.Reset {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				if tcp, ok := conn.(*net.TCPConn); ok {
					_ = tcp.SetLinger(0)
				}
				conn.Close()
			}
		}
		return
	}
	if step.Redirect != nil {
		status := step.Status
		if status == 0 {
			status = http.StatusFound
		}
		w.Header().Set("Location", redirectTo(step.Redirect.To)+step.Redirect.Path)
		w.Header().Set("Content-Length", "0")
		w.WriteHeader(status)
		return
	}
	raw := ""
	isJSON := false
	if len(step.Body) > 0 {
		var s string
		if json.Unmarshal(step.Body, &s) == nil {
			raw = s
		} else {
			raw, isJSON = string(step.Body), true
		}
	}
	raw = strings.ReplaceAll(strings.ReplaceAll(raw, "{token}", behaviourToken), "{secret}", behaviourSecret)
	if isJSON {
		w.Header().Set("Content-Type", "application/json")
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(raw)))
	for k, v := range step.Headers {
		w.Header().Set(k, v)
	}
	status := step.Status
	if status == 0 {
		status = 200
	}
	w.WriteHeader(status)
	if step.Trickle == nil {
		_, _ = io.WriteString(w, raw)
		return
	}
	flusher, _ := w.(http.Flusher)
	for off := 0; off < len(raw); off += step.Trickle.Bytes {
		end := min(off+step.Trickle.Bytes, len(raw))
		if _, err := io.WriteString(w, raw[off:end]); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
		select {
		case <-time.After(time.Duration(step.Trickle.EveryMs) * time.Millisecond):
		case <-r.Context().Done():
			return
		}
	}
}

func (o *bOrigin) recorded() []bRequest {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]bRequest(nil), o.requests...)
}

// bOutcome is what a call reported, in the suite's neutral terms.
type bOutcome struct {
	ok           bool
	kind         string
	status       int
	code         string
	jobID        string
	retryAfterMs int
	hasRetry     bool
	bytes        int64
	requestID    string
	texts        []string
	caughtAs     []string
	startedAt    time.Time
	elapsed      time.Duration
	// items and pages are what a paged read yielded, before its error too.
	items []any
	pages int
}

// behaviourList is the operation of a "list": a read that pages by a size and an offset.
var behaviourList = Operation{ID: "getAuditCenter", Method: "GET", Path: "/analytics/audit-center", Idempotent: boolPtr(true), Security: [][]string{{"bearerAuth"}},
	Pagination: &Pagination{Limit: "limit", Offset: "offset", Items: "findings", Total: "total"}}

// behaviourWrite is the operation of a "write": a JSON POST that is neither idempotent nor a job submission.
var behaviourWrite = Operation{ID: "testWebhook", Method: "POST", Path: "/webhooks/test", RequestMediaType: "application/json", Idempotent: boolPtr(false), Security: [][]string{{"bearerAuth"}}}

// caughtAs is every way of the scenarios' CATCHES the error is caught in Go: errors.As for the types, errors.Is for
// the status classes and the codes of the model's table, along the chain.
func caughtAs(err error) []string {
	caught := []string{}
	var svc *ServiceError
	if errors.As(err, &svc) {
		caught = append(caught, "service")
	}
	for _, c := range []struct {
		name  string
		class StatusClass
	}{
		{"bad-request", ErrBadRequest}, {"authentication", ErrAuthentication}, {"permission-denied", ErrPermissionDenied},
		{"not-found", ErrNotFound}, {"conflict", ErrConflict}, {"unprocessable-entity", ErrUnprocessableEntity},
		{"rate-limit", ErrRateLimit}, {"internal-server", ErrInternalServer},
	} {
		if errors.Is(err, c.class) {
			caught = append(caught, c.name)
		}
	}
	var processed *MayHaveBeenProcessedError
	if errors.As(err, &processed) {
		caught = append(caught, "may-have-been-processed")
	}
	var jobMayExist *JobMayExistError
	if errors.As(err, &jobMayExist) {
		caught = append(caught, "job-may-exist")
	}
	for code := range behaviourModel().Errors {
		if errors.Is(err, ErrorCode(code)) {
			caught = append(caught, "code")
			break
		}
	}
	return caught
}

func kindOf(err error) string {
	var jobMayExist *JobMayExistError
	var jobFailed *JobFailedError
	var malformed *MalformedResponseError
	var deadline *DeadlineExceededError
	var conn *ConnectionError
	var svc *ServiceError
	var config *ConfigError
	var processed *MayHaveBeenProcessedError
	switch {
	case errorsAsTop(err, &jobMayExist):
		return "job-may-exist"
	case errorsAsTop(err, &processed):
		return "may-have-been-processed"
	case errorsAsTop(err, &jobFailed):
		return "job-failed"
	case errorsAsTop(err, &malformed):
		return "malformed"
	case errorsAsTop(err, &deadline):
		return "deadline"
	case errorsAsTop(err, &conn):
		return "connection"
	case errorsAsTop(err, &svc):
		return "service"
	case errorsAsTop(err, &config):
		return "invalid-argument"
	}
	return fmt.Sprintf("other:%T", err)
}

// errorsAsTop matches only the error itself, as the other languages' drivers classify the error thrown, not its causes.
func errorsAsTop[T error](err error, target *T) bool {
	t, ok := err.(T)
	if ok {
		*target = t
	}
	return ok
}

func describeError(err error, out *bOutcome) {
	out.kind = kindOf(err)
	out.caughtAs = caughtAs(err)
	switch e := err.(type) {
	case *ServiceError:
		out.status, out.code = e.Status, e.Code
		out.retryAfterMs, out.hasRetry = int(e.RetryAfter/time.Millisecond), e.RetryAfter > 0
	case *JobFailedError:
		out.status, out.code = e.Status, e.Code
	case *MalformedResponseError:
		out.status = e.Status
	case *MayHaveBeenProcessedError:
		out.status = e.Status
	case *JobMayExistError:
		out.status = e.Status
	}
	if e, ok := err.(Error); ok {
		out.jobID = e.Job()
	}
	var svc *ServiceError
	if errors.As(err, &svc) {
		out.requestID = svc.RequestID
	}
	out.texts = append(out.texts, errorChainTexts(err)...)
	for e := err; e != nil; {
		out.texts = append(out.texts, fmt.Sprintf("%+v", e))
		u, ok := e.(interface{ Unwrap() error })
		if !ok {
			break
		}
		e = u.Unwrap()
	}
	for _, b := range bodiesOf(err) {
		data, _ := json.Marshal(b)
		out.texts = append(out.texts, string(data))
	}
}

func runScenario(t *testing.T, s *bScenario, main, foreign *bOrigin) bOutcome {
	baseURL := main.URL + "/latest"
	opts := []Option{WithBaseURL(baseURL), WithToken(behaviourToken), WithLookupEnv(noEnv), WithSecrets(s.Client.Secrets...)}
	poll := []int{20, 40}
	if len(s.Client.PollMs) == 2 {
		poll = s.Client.PollMs
	}
	opts = append(opts, WithPollInterval(time.Duration(poll[0])*time.Millisecond, time.Duration(poll[1])*time.Millisecond))
	maxRetries, base, maxDelay, maxRetryAfter := 3, 20, 100, 60_000
	for _, v := range []struct {
		from *int
		to   *int
	}{{s.Client.MaxRetries, &maxRetries}, {s.Client.BaseDelayMs, &base}, {s.Client.MaxDelayMs, &maxDelay}, {s.Client.MaxRetryAfterMs, &maxRetryAfter}} {
		if v.from != nil {
			*v.to = *v.from
		}
	}
	opts = append(opts, WithMaxRetries(maxRetries), WithRetryDelays(time.Duration(base)*time.Millisecond, time.Duration(maxDelay)*time.Millisecond), WithMaxRetryAfter(time.Duration(maxRetryAfter)*time.Millisecond))
	c, err := New(behaviourModel(), opts...)
	if err == nil && s.Copy != nil {
		// A scenario of client copies calls through a copy made with other default headers.
		var headers []Option
		for name, value := range s.Copy.Headers {
			headers = append(headers, WithHeader(name, value))
		}
		c, err = c.WithOptions(headers...)
	}
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	a := s.Action
	deadline := CallTimeout(time.Duration(a.DeadlineMs) * time.Millisecond)
	ctx := context.Background()
	body := map[string]any{"template": "pdf_ai_split"}
	if s.Body != nil {
		body = map[string]any{}
		for k, v := range s.Body {
			body[k] = v
		}
	}
	out := bOutcome{startedAt: time.Now()}
	var callErr error
	switch a.Kind {
	case "submit":
		var res *JobResult
		if res, callErr = c.Submit(ctx, behaviourPipeline, body, deadline); callErr == nil {
			out.jobID = res.JobID
		}
	case "start":
		var h *JobHandle
		if h, callErr = c.Start(ctx, behaviourPipeline, body, deadline); callErr == nil {
			out.jobID = h.JobID
		}
	case "wait":
		var res *JobResult
		if res, callErr = c.Wait(ctx, a.JobID, deadline); callErr == nil {
			out.jobID = res.JobID
		}
	case "read":
		var res *Result
		if res, callErr = c.Call(ctx, &behaviourModel().Jobs.Poll.Operation, Request{Path: map[string]string{"job_id": a.JobID}}, scenarioCallOptions(s, deadline)...); callErr == nil {
			out.status, out.requestID = res.Meta.Status, res.Meta.RequestID
		}
	case "write":
		var res *Result
		if res, callErr = c.Call(ctx, &behaviourWrite, Request{Body: map[string]any{"subscription_id": "sub_1"}}, scenarioCallOptions(s, deadline)...); callErr == nil {
			out.status, out.requestID = res.Meta.Status, res.Meta.RequestID
		}
	case "download":
		target := a.Path
		switch a.Target {
		case "base-url":
			target = baseURL + a.Path
		case "foreign-url":
			target = foreign.URL + a.Path
		}
		if a.ToFile {
			file := filepath.Join(t.TempDir(), "file")
			var info *DownloadInfo
			if info, callErr = c.DownloadToFile(ctx, target, file, deadline); callErr == nil {
				st, err := os.Stat(file)
				if err != nil || st.Size() != info.Written {
					t.Errorf("saved file: %v, size %v vs %d written", err, st, info.Written)
				}
				out.bytes = info.Written
			}
		} else {
			var info *DownloadInfo
			if info, callErr = c.Download(ctx, target, io.Discard, deadline); callErr == nil {
				out.bytes = info.Written
			}
		}
	case "list":
		out.items = []any{}
		req := Request{Query: url.Values{"limit": {strconv.Itoa(a.PageSize)}}}
		pages := Pages[any, map[string]any](ctx, c, &behaviourList, req, deadline)
		if a.By == "items" {
			Items(pages)(func(item any, err error) bool {
				if err != nil {
					callErr = err
					return false
				}
				out.items = append(out.items, item)
				return true
			})
		} else {
			pages(func(page *Page[any, map[string]any], err error) bool {
				if err != nil {
					callErr = err
					return false
				}
				out.pages++
				out.items = append(out.items, page.Items...)
				return true
			})
		}
	default:
		t.Fatalf("unknown action %q", a.Kind)
	}
	out.elapsed = time.Since(out.startedAt)
	if callErr == nil {
		out.ok = true
		return out
	}
	describeError(callErr, &out)
	return out
}

// scenarioCallOptions are the call's deadline and the scenario's options of the call itself.
func scenarioCallOptions(s *bScenario, deadline CallOption) []CallOption {
	opts := []CallOption{deadline}
	if s.Call == nil {
		return opts
	}
	for name, value := range s.Call.Headers {
		opts = append(opts, CallHeader(name, value))
	}
	for name, value := range s.Call.Query {
		opts = append(opts, CallQuery(name, value))
	}
	for name, value := range s.Call.Body {
		opts = append(opts, CallBodyField(name, value))
	}
	if s.Call.MaxRetries != nil {
		opts = append(opts, CallMaxRetries(*s.Call.MaxRetries))
	}
	return opts
}

func judgeScenario(s *bScenario, out bOutcome, main, foreign []bRequest) []string {
	e := s.Expect
	var problems []string
	outcome := "ok"
	if !out.ok {
		outcome = out.kind
	}
	if outcome != e.Outcome {
		first := ""
		if len(out.texts) > 0 {
			first = out.texts[0]
		}
		problems = append(problems, fmt.Sprintf("outcome %s, want %s (%s)", outcome, e.Outcome, first))
	}
	if e.Status != nil && out.status != *e.Status {
		problems = append(problems, fmt.Sprintf("status %d, want %d", out.status, *e.Status))
	}
	if e.Code != nil && out.code != *e.Code {
		problems = append(problems, fmt.Sprintf("code %q, want %q", out.code, *e.Code))
	}
	if len(e.JobID) > 0 {
		var want *string
		_ = json.Unmarshal(e.JobID, &want)
		got := &out.jobID
		if out.jobID == "" {
			got = nil
		}
		if (want == nil) != (got == nil) || want != nil && *want != *got {
			problems = append(problems, fmt.Sprintf("job id %q, want %s", out.jobID, e.JobID))
		}
	}
	if e.RetryAfterMs != nil && (!out.hasRetry || out.retryAfterMs != *e.RetryAfterMs) {
		problems = append(problems, fmt.Sprintf("retry-after %d ms (present %v), want %d", out.retryAfterMs, out.hasRetry, *e.RetryAfterMs))
	}
	if e.CaughtAs != nil {
		got, want := append([]string(nil), out.caughtAs...), append([]string(nil), e.CaughtAs...)
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, ", ") != strings.Join(want, ", ") {
			problems = append(problems, fmt.Sprintf("caught as [%s], want [%s]", strings.Join(got, ", "), strings.Join(want, ", ")))
		}
	}
	if e.Bytes != nil && out.bytes != *e.Bytes {
		problems = append(problems, fmt.Sprintf("%d bytes, want %d", out.bytes, *e.Bytes))
	}
	if e.Items != nil {
		got, _ := json.Marshal(out.items)
		want, _ := json.Marshal(e.Items)
		if string(got) != string(want) {
			problems = append(problems, fmt.Sprintf("items %s, want %s", got, want))
		}
	}
	if e.Pages != nil && out.pages != *e.Pages {
		problems = append(problems, fmt.Sprintf("%d pages, want %d", out.pages, *e.Pages))
	}
	for i, want := range e.Queries {
		var query url.Values
		if i < len(main) {
			if u, err := url.Parse(main[i].path); err == nil {
				query = u.Query()
			}
		}
		for name, value := range want {
			if query.Get(name) != value {
				problems = append(problems, fmt.Sprintf("request %d sent %s=%q, want %s", i+1, name, query.Get(name), value))
			}
		}
	}
	if e.Requests != nil && len(main) != *e.Requests {
		problems = append(problems, fmt.Sprintf("%d requests, want %d", len(main), *e.Requests))
	}
	if e.ForeignRequests != nil && len(foreign) != *e.ForeignRequests {
		problems = append(problems, fmt.Sprintf("%d requests to the other origin, want %d", len(foreign), *e.ForeignRequests))
	}
	if e.MinMs != nil && out.elapsed < time.Duration(*e.MinMs)*time.Millisecond {
		problems = append(problems, fmt.Sprintf("took %s, want at least %d ms", out.elapsed, *e.MinMs))
	}
	maxElapsed := time.Duration(s.Action.DeadlineMs)*time.Millisecond + deadlineSlack
	if e.MaxMs != nil {
		maxElapsed = time.Duration(*e.MaxMs) * time.Millisecond
	}
	if out.elapsed > maxElapsed {
		problems = append(problems, fmt.Sprintf("took %s, want at most %s", out.elapsed, maxElapsed))
	}
	lastAllowed := out.startedAt.Add(time.Duration(s.Action.DeadlineMs)*time.Millisecond + arrivalSlack)
	for _, r := range append(append([]bRequest(nil), main...), foreign...) {
		if r.at.After(lastAllowed) {
			problems = append(problems, fmt.Sprintf("%s %s sent %s after the start, past the deadline", r.method, r.path, r.at.Sub(out.startedAt)))
		}
	}
	if e.ForeignAuthorization != nil {
		seen := false
		for _, r := range foreign {
			seen = seen || r.authorization
		}
		if seen != *e.ForeignAuthorization {
			problems = append(problems, fmt.Sprintf("the other origin saw Authorization: %v", seen))
		}
	}
	if e.Authorization != nil {
		for _, r := range main {
			if r.authorization != *e.Authorization {
				problems = append(problems, fmt.Sprintf("a request to the service had Authorization %v", r.authorization))
			}
		}
	}
	for name, value := range e.SentFields {
		first := ""
		if len(main) > 0 {
			first = main[0].body
		}
		if !strings.Contains(first, fmt.Sprintf("name=%q\r\n\r\n%s\r\n", name, value)) {
			problems = append(problems, fmt.Sprintf("the first request did not send %s=%s", name, value))
		}
	}
	for name, value := range e.ReceivedHeaders {
		for i, r := range main {
			if got := r.header.Get(name); got != value {
				problems = append(problems, fmt.Sprintf("request %d carried %s: %q, want %q", i+1, name, got, value))
			}
		}
	}
	for name, value := range e.ReceivedQuery {
		for i, r := range main {
			u, err := url.Parse(r.path)
			if err != nil || u.Query().Get(name) != value {
				problems = append(problems, fmt.Sprintf("request %d (%s) did not carry the query %s=%s", i+1, r.path, name, value))
			}
		}
	}
	if e.SentJSON != nil {
		var sent map[string]any
		if len(main) > 0 {
			_ = json.Unmarshal([]byte(main[0].body), &sent)
		}
		for name, value := range e.SentJSON {
			if got, _ := json.Marshal(sent[name]); string(got) != mustJSON(value) {
				problems = append(problems, fmt.Sprintf("the first request's JSON body has %s: %s, want %s", name, got, mustJSON(value)))
			}
		}
	}
	if e.RequestID != nil && out.requestID != *e.RequestID {
		problems = append(problems, fmt.Sprintf("request id %q, want %q", out.requestID, *e.RequestID))
	}
	for _, text := range out.texts {
		for _, secret := range []string{behaviourToken, behaviourSecret} {
			if strings.Contains(text, secret) {
				problems = append(problems, fmt.Sprintf("an error text shows a secret: %q", text))
			}
		}
	}
	return problems
}

func mustJSON(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

func TestBehaviourScenarios(t *testing.T) {
	path := os.Getenv("SDK_BEHAVIOUR_SCENARIOS")
	if path == "" {
		t.Skip("SDK_BEHAVIOUR_SCENARIOS names no scenarios file; the repository's test runner sets it")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the scenarios: %v", err)
	}
	var scenarios []bScenario
	if err := json.Unmarshal(data, &scenarios); err != nil {
		t.Fatalf("scenarios file: %v", err)
	}
	if len(scenarios) == 0 {
		t.Fatal("the scenarios file holds no scenarios")
	}
	for i := range scenarios {
		s := &scenarios[i]
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			main := newOrigin(t, s.Steps)
			foreign := newOrigin(t, s.ForeignSteps)
			redirect := func(to string) string {
				if to == "foreign" {
					return foreign.URL
				}
				return main.URL + "/latest"
			}
			for _, o := range []*bOrigin{main, foreign} {
				o.mu.Lock()
				o.redirectTo = redirect
				o.mu.Unlock()
			}
			out := runScenario(t, s, main, foreign)
			for _, p := range judgeScenario(s, out, main.recorded(), foreign.recorded()) {
				t.Error(p)
			}
		})
	}
}
