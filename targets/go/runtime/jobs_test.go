package sdkruntime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"mime"
	"mime/multipart"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const (
	heldCompleted = `{"status":"success","job_id":"job_b1","job_status":"completed","result":{"pages":2},"processing_time":"1.2s","_billing":{"credits":3}}`
	stillRunning  = `{"status":"success","job_id":"job_b1","job_status":"processing","poll_url":"/job/get/job_b1"}`
	processing    = `{"status":"success","job_id":"job_b1","job_status":"processing"}`
	completed     = `{"status":"success","job_id":"job_b1","job_status":"completed","result":{"pages":2}}`
)

// formFields reads a multipart body as the server got it.
func formFields(t *testing.T, r recorded) map[string]string {
	t.Helper()
	_, params, err := mime.ParseMediaType(r.header.Get("Content-Type"))
	if err != nil {
		t.Fatalf("Content-Type %q: %v", r.header.Get("Content-Type"), err)
	}
	form, err := multipart.NewReader(strings.NewReader(r.body), params["boundary"]).ReadForm(1 << 20)
	if err != nil {
		t.Fatalf("multipart body: %v", err)
	}
	out := map[string]string{}
	for k, v := range form.Value {
		out[k] = v[0]
	}
	return out
}

func TestSubmitHeld(t *testing.T) {
	srv := newScripted(t, step{body: heldCompleted})
	c := newTestClient(t, srv.URL)
	res, err := c.Submit(context.Background(), "pdf-merge", map[string]any{"file_url": "https://example.test/a.pdf", "options": map[string]any{"quality": 2}})
	if err != nil {
		t.Fatalf("Submit: %v", err)
	}
	if res.JobID != "job_b1" || res.Polls != 0 || string(res.Data) != `{"pages":2}` {
		t.Errorf("result = %+v, data %s", res, res.Data)
	}
	if res.SubmitMeta == nil || res.SubmitMeta.ProcessingTime != "1.2s" || res.SubmitMeta.Billing["credits"] != float64(3) {
		t.Errorf("SubmitMeta = %+v", res.SubmitMeta)
	}
	var billing struct{ Credits int }
	if res.SubmitMeta == nil || json.Unmarshal(res.SubmitMeta.BillingJSON, &billing) != nil || billing.Credits != 3 {
		t.Errorf("SubmitMeta.BillingJSON = %s, want the billing object as received", res.SubmitMeta.BillingJSON)
	}
	reqs := srv.got()
	if len(reqs) != 1 || reqs[0].method != "POST" || reqs[0].path != "/job/pdf-merge" {
		t.Fatalf("requests = %+v", reqs)
	}
	fields := formFields(t, reqs[0])
	if fields["options"] != `{"quality":2}` {
		t.Errorf("options field = %q; the pipeline sends it as JSON text", fields["options"])
	}
	if _, asked := fields["no_wait"]; asked {
		t.Error("a submission with the default hour-long deadline is held: no_wait must not be sent")
	}
	if got := reqs[0].header.Get("Authorization"); got != "Bearer "+testToken {
		t.Errorf("Authorization = %q", got)
	}
}

func TestSubmitStillRunningThenPolled(t *testing.T) {
	srv := newScripted(t, step{status: 202, body: stillRunning}, step{body: processing}, step{body: completed})
	c := newTestClient(t, srv.URL)
	var seen []JobProgress
	res, err := c.Submit(context.Background(), "pdf-merge", map[string]any{"a": "b"}, CallOnProgress(func(p JobProgress) { seen = append(seen, p) }))
	if err != nil {
		t.Fatalf("Submit: %v", err)
	}
	if res.JobID != "job_b1" || res.Polls != 2 || string(res.Data) != `{"pages":2}` || res.SubmitMeta == nil || res.SubmitMeta.Status != 202 {
		t.Errorf("result = %+v", res)
	}
	reqs := srv.got()
	if len(reqs) != 3 {
		t.Fatalf("requests = %d, want 3", len(reqs))
	}
	for _, r := range reqs[1:] {
		if r.method != "GET" || r.path != "/job/get/job_b1" || r.header.Get("Authorization") == "" {
			t.Errorf("poll = %s %s (auth %q)", r.method, r.path, r.header.Get("Authorization"))
		}
	}
	if len(seen) != 2 || seen[0].Status != "processing" || seen[1].Status != "completed" || seen[1].PreviousStatus != "processing" {
		t.Errorf("progress = %+v", seen)
	}
}

func TestSubmitShortDeadlineAsksNotToHold(t *testing.T) {
	srv := newScripted(t, step{status: 202, body: stillRunning}, step{body: completed})
	c := newTestClient(t, srv.URL)
	if _, err := c.Submit(context.Background(), "pdf-merge", map[string]any{"a": "b"}, CallTimeout(30*time.Second)); err != nil {
		t.Fatalf("Submit: %v", err)
	}
	if got := formFields(t, srv.got()[0])["no_wait"]; got != "true" {
		t.Errorf("no_wait = %q; a deadline shorter than the hold must ask for the job id at once", got)
	}
}

func TestSubmitFailures(t *testing.T) {
	tests := []struct {
		name     string
		steps    []step
		requests int
		want     func(t *testing.T, err error)
	}{
		{name: "500 not resubmitted", steps: []step{{status: 500, body: `{"status":"error","code":"INTERNAL_ERROR","message":"boom"}`}, {body: heldCompleted}}, requests: 1, want: func(t *testing.T, err error) {
			j := errorsAs[*JobMayExistError](t, err)
			if j.Status != 500 {
				t.Errorf("Status = %d", j.Status)
			}
			// A job that may exist is a write that may have been processed.
			if m := errorsAs[*MayHaveBeenProcessedError](t, err); m.Status != 500 {
				t.Errorf("MayHaveBeenProcessedError.Status = %d", m.Status)
			}
			errorsAs[*ServiceError](t, err)
		}},
		{name: "reset not resubmitted", steps: []step{{reset: true}, {body: heldCompleted}}, requests: 1, want: func(t *testing.T, err error) {
			errorsAs[*JobMayExistError](t, err)
			errorsAs[*ConnectionError](t, err)
		}},
		{name: "malformed 200", steps: []step{{body: `{"job_id": "job_b1", "job_sta`}}, requests: 1, want: func(t *testing.T, err error) {
			errorsAs[*JobMayExistError](t, err)
			errorsAs[*MalformedResponseError](t, err)
		}},
		{name: "200 without job id", steps: []step{{status: 202, body: `{"status":"success","job_status":"processing"}`}}, requests: 1, want: func(t *testing.T, err error) {
			if j := errorsAs[*JobMayExistError](t, err); !strings.Contains(j.Detail, "job_id") {
				t.Errorf("Detail = %q", j.Detail)
			}
		}},
		{name: "held failed is not polled", steps: []step{{body: `{"status":"success","job_id":"job_b1","job_status":"failed","message":"bad pdf"}`}}, requests: 1, want: func(t *testing.T, err error) {
			f := errorsAs[*JobFailedError](t, err)
			if f.JobID != "job_b1" || f.JobStatus != "failed" || !strings.Contains(f.Message, "bad pdf") {
				t.Errorf("JobFailedError = %+v", f)
			}
		}},
		{name: "400 config", steps: []step{{status: 400, body: `{"status":"error","code":"INVALID_REQUEST","message":"missing file"}`}}, requests: 1, want: func(t *testing.T, err error) {
			if s := errorsAs[*ServiceError](t, err); s.Code != "INVALID_REQUEST" {
				t.Errorf("Code = %q", s.Code)
			}
			var j *JobMayExistError
			if errors.As(err, &j) {
				t.Error("a 400 refused the job: it does not exist")
			}
		}},
		{name: "error envelope with 200", steps: []step{{body: `{"status":"error","code":"INVALID_REQUEST","message":"no"}`}}, requests: 1, want: func(t *testing.T, err error) {
			if s := errorsAs[*ServiceError](t, err); s.Status != 200 || s.Code != "INVALID_REQUEST" {
				t.Errorf("ServiceError = %+v", s)
			}
		}},
		{name: "503 retried", steps: []step{{status: 503, body: `{"status":"error","code":"SERVICE_UNAVAILABLE","message":"busy"}`}, {body: heldCompleted}}, requests: 2},
		{name: "poll failed", steps: []step{{status: 202, body: stillRunning}, {body: `{"status":"success","job_id":"job_b1","job_status":"cancelled"}`}}, requests: 2, want: func(t *testing.T, err error) {
			if f := errorsAs[*JobFailedError](t, err); f.JobStatus != "cancelled" || f.Job() != "job_b1" {
				t.Errorf("JobFailedError = %+v", f)
			}
		}},
		{name: "poll 404 carries the job id", steps: []step{{status: 202, body: stillRunning}, {status: 404, body: `{"status":"error","code":"NOT_FOUND","message":"gone"}`}}, requests: 2, want: func(t *testing.T, err error) {
			if s := errorsAs[*ServiceError](t, err); s.Status != 404 || s.JobID != "job_b1" {
				t.Errorf("ServiceError = %+v", s)
			}
			if e := errorsAs[Error](t, err); e.Job() != "job_b1" {
				t.Errorf("Job() = %q", e.Job())
			}
		}},
		{name: "poll reset retried", steps: []step{{status: 202, body: stillRunning}, {reset: true}, {body: completed}}, requests: 3},
		{name: "poll 500 retried", steps: []step{{status: 202, body: stillRunning}, {status: 500, body: `{}`}, {body: completed}}, requests: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScripted(t, tt.steps...)
			c := newTestClient(t, srv.URL)
			_, err := c.Submit(context.Background(), "pdf-merge", map[string]any{"a": "b"}, CallTimeout(20*time.Second))
			if srv.count() != tt.requests {
				t.Errorf("requests = %d, want %d", srv.count(), tt.requests)
			}
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Submit: %v", err)
				}
				return
			}
			tt.want(t, err)
		})
	}
}

func TestSubmitRefusesBadPipelineBeforeSending(t *testing.T) {
	srv := newScripted(t, step{body: heldCompleted})
	c := newTestClient(t, srv.URL)
	_, err := c.Submit(context.Background(), "PDF Merge!", map[string]any{"a": "b"})
	s := errorsAs[*ServiceError](t, err)
	if s.Code != "INVALID_PIPELINE" || s.Status != 422 {
		t.Errorf("ServiceError = %+v; want the model's refusal code and its status", s)
	}
	if srv.count() != 0 {
		t.Errorf("requests = %d, want 0", srv.count())
	}
}

func TestStartAndWait(t *testing.T) {
	srv := newScripted(t, step{status: 202, body: stillRunning}, step{body: processing}, step{body: `{"status":"success","job_id":"job_b1","job_status":"completed","job_result":{"pages":5}}`})
	c := newTestClient(t, srv.URL)
	h, err := c.Start(context.Background(), "pdf-merge", map[string]any{"a": "b"})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	if h.JobID != "job_b1" || h.PollPath != "/job/get/job_b1" || h.Meta.Status != 202 {
		t.Errorf("handle = %+v", h)
	}
	if got := formFields(t, srv.got()[0])["no_wait"]; got != "true" {
		t.Errorf("no_wait = %q; Start asks the service not to hold", got)
	}
	res, err := h.Wait(context.Background())
	if err != nil {
		t.Fatalf("Wait: %v", err)
	}
	if string(res.Data) != `{"pages":5}` || res.Polls != 2 || res.SubmitMeta != nil {
		t.Errorf("result = %+v (%s)", res, res.Data)
	}
}

func TestJobHelpersNeedJobsInModel(t *testing.T) {
	m := testModel()
	m.Jobs = nil
	c, err := New(m, WithBaseURL("http://127.0.0.1:1"), WithLookupEnv(noEnv))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Submit(context.Background(), "pdf-merge", nil)
	if ce := errorsAs[*ConfigError](t, err); !strings.Contains(ce.Message, "job helpers are unavailable") {
		t.Errorf("message = %q", ce.Message)
	}
}

const fileBody = "%PDF-1.4\n% test file\n0123456789abcdef\n%%EOF\n"

func TestDownloadByToken(t *testing.T) {
	srv := newScripted(t, step{body: fileBody, headers: map[string]string{"Content-Type": "application/pdf", "Content-Disposition": `attachment; filename="out.pdf"`}})
	c := newTestClient(t, srv.URL)
	var buf bytes.Buffer
	info, err := c.Download(context.Background(), "tok-1", &buf)
	if err != nil {
		t.Fatalf("Download: %v", err)
	}
	if buf.String() != fileBody || info.Written != int64(len(fileBody)) || info.FileName != "out.pdf" || info.ContentType != "application/pdf" || info.Size != int64(len(fileBody)) {
		t.Errorf("info = %+v", info)
	}
	r := srv.got()[0]
	if r.path != "/file/tok-1" || r.header.Get("Authorization") != "Bearer "+testToken {
		t.Errorf("request = %s (auth %q)", r.path, r.header.Get("Authorization"))
	}
}

func TestDownloadBaseURLGivesToken(t *testing.T) {
	srv := newScripted(t, step{body: fileBody})
	c := newTestClient(t, srv.URL)
	if _, err := c.Download(context.Background(), srv.URL+"/file/tok-9?x=1", &bytes.Buffer{}); err != nil {
		t.Fatalf("Download: %v", err)
	}
	r := srv.got()[0]
	if r.path != "/file/tok-9" || r.query != "" || r.header.Get("Authorization") == "" {
		t.Errorf("request = %s?%s (auth %q)", r.path, r.query, r.header.Get("Authorization"))
	}
}

func TestDownloadForeignURLHasNoCredentials(t *testing.T) {
	main := newScripted(t)
	foreign := newScripted(t, step{body: fileBody})
	c := newTestClient(t, main.URL, WithHeader("Authorization", "Bearer caller-set-1"), WithHeader("X-Trace", "t1"))
	info, err := c.Download(context.Background(), foreign.URL+"/signed/report%20one.pdf?sig=abc", &bytes.Buffer{})
	if err != nil {
		t.Fatalf("Download: %v", err)
	}
	if info.FileName != "report one.pdf" {
		t.Errorf("FileName = %q", info.FileName)
	}
	r := foreign.got()[0]
	if r.header.Get("Authorization") != "" || r.query != "sig=abc" || r.header.Get("X-Trace") != "t1" {
		t.Errorf("foreign request has Authorization %q, query %q", r.header.Get("Authorization"), r.query)
	}
	if main.count() != 0 {
		t.Errorf("main requests = %d", main.count())
	}
}

func TestDownloadToFile(t *testing.T) {
	srv := newScripted(t, step{body: fileBody})
	c := newTestClient(t, srv.URL)
	dir := t.TempDir()
	target := filepath.Join(dir, "out.pdf")
	if _, err := c.DownloadToFile(context.Background(), "tok-1", target); err != nil {
		t.Fatalf("DownloadToFile: %v", err)
	}
	got, err := os.ReadFile(target)
	if err != nil || string(got) != fileBody {
		t.Errorf("file = %q, %v", got, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries, want only the file", len(entries))
	}
}

func TestDownloadErrors(t *testing.T) {
	srv := newScripted(t, step{status: 404, body: `{"status":"error","code":"NOT_FOUND","message":"no such file"}`})
	c := newTestClient(t, srv.URL)
	dir := t.TempDir()
	_, err := c.DownloadToFile(context.Background(), "tok-1", filepath.Join(dir, "out.pdf"))
	if s := errorsAs[*ServiceError](t, err); s.Status != 404 || s.Code != "NOT_FOUND" {
		t.Errorf("ServiceError = %+v", s)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a failed download left %d files", len(entries))
	}
	_, err = c.Download(context.Background(), "a/b", &bytes.Buffer{})
	errorsAs[*ConfigError](t, err)
}

func TestCallIntoDecodes(t *testing.T) {
	srv := newScripted(t, step{body: okThing, headers: map[string]string{"X-Request-Id": "req-7"}})
	c := newTestClient(t, srv.URL)
	var out struct {
		ID string `json:"id"`
	}
	meta, err := c.CallInto(context.Background(), opRead, Request{Path: map[string]string{"id": "a b/c"}}, &out)
	if err != nil {
		t.Fatalf("CallInto: %v", err)
	}
	if out.ID != "t1" || meta.RequestID != "req-7" || meta.Status != 200 {
		t.Errorf("out = %+v, meta = %+v", out, meta)
	}
	// The path parameter is escaped as one segment.
	if p := srv.got()[0].rawPath; p != "/things/a%20b%2Fc" {
		t.Errorf("path = %q", p)
	}
}

func TestPollGoesToThePollOperationsOwnServer(t *testing.T) {
	submit := newScripted(t, step{status: 202, body: stillRunning})
	polls := newScripted(t, step{body: processing}, step{body: `{"status":"success","job_id":"job_b1","job_status":"completed","job_result":{"pages":5}}`})
	m := testModel()
	m.Servers = []Server{{URL: submit.URL + "/v1"}}
	m.Jobs.Poll.Operation.Servers = []Server{{URL: polls.URL + "/jobs"}}
	c, err := New(m, WithToken(testToken), WithLookupEnv(noEnv), WithPollInterval(5*time.Millisecond, 10*time.Millisecond))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	h, err := c.Start(context.Background(), "pdf-merge", map[string]any{"a": "b"})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	// Polls sent to the submission's server would see it still running until this deadline.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := h.Wait(ctx); err != nil {
		t.Fatalf("Wait: %v", err)
	}
	if n := submit.count(); n != 1 {
		t.Errorf("the submission's server got %d requests, want 1 (polls go to the poll operation's server)", n)
	}
	got := polls.got()
	if len(got) != 2 {
		t.Fatalf("the poll server got %d requests, want 2", len(got))
	}
	for _, r := range got {
		if r.path != "/jobs/job/get/job_b1" || r.header.Get("Authorization") != "Bearer "+testToken {
			t.Errorf("poll %s with Authorization %q", r.path, r.header.Get("Authorization"))
		}
	}
}
