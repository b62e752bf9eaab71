// The Go driver of the behaviour suite: runs each case through the generated Go client (generated/go), whose
// model the runtime reads, and reports outcomes in the suite's neutral terms. behaviour.test.ts builds it in a
// go.work beside the generated module and the runtime module.
//
// stdin: {"concurrency": n, "cases": [...]}; stdout: a JSON list of results.
//
// A case with a log setting runs in a process of its own, this driver again, started with the log variable set (or
// left out) as the case says and reading that one variable from its environment: the lines that process wrote to
// stderr are what the client logged.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	sdk "example.com/document-automation-service-sdk-go"
	sdkruntime "github.com/paperoffice/sdk-runtime-go"
)

type driverCase struct {
	Name       string `json:"name"`
	BaseURL    string `json:"baseUrl"`
	ForeignURL string `json:"foreignUrl"`
	Token      string `json:"token"`
	Client     struct {
		PollMs          [2]int   `json:"pollMs"`
		MaxRetries      int      `json:"maxRetries"`
		BaseDelayMs     int      `json:"baseDelayMs"`
		MaxDelayMs      int      `json:"maxDelayMs"`
		MaxRetryAfterMs int      `json:"maxRetryAfterMs"`
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
		JobID      string `json:"jobId"`
		DeadlineMs int    `json:"deadlineMs"`
		Target     string `json:"target"`
		Path       string `json:"path"`
		ToFile     bool   `json:"toFile"`
		PageSize   int    `json:"pageSize"`
		By         string `json:"by"`
	} `json:"action"`
	Pipeline string            `json:"pipeline"`
	Body     map[string]string `json:"body"`
	Log      *struct {
		Variable string  `json:"variable"`
		Value    *string `json:"value"`
	} `json:"log,omitempty"`
}

type result struct {
	Name         string    `json:"name"`
	OK           bool      `json:"ok"`
	Kind         string    `json:"kind,omitempty"`
	Status       *int      `json:"status"`
	Code         *string   `json:"code"`
	JobID        *string   `json:"jobId"`
	RetryAfterMs *int64    `json:"retryAfterMs"`
	Bytes        *int64    `json:"bytes"`
	RequestID    *string   `json:"requestId"`
	CaughtAs     []string  `json:"caughtAs,omitempty"`
	Items        []any     `json:"items,omitempty"`
	Pages        *int      `json:"pages,omitempty"`
	Texts        []string  `json:"texts"`
	StartedAt    int64     `json:"startedAt"`
	ElapsedMs    float64   `json:"elapsedMs"`
	Logs         *[]string `json:"logs,omitempty"`
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// logVariable is, in a child process, the one environment variable the client reads.
var logVariable string

func childEnv(name string) (string, bool) {
	if logVariable != "" && name == logVariable {
		return os.LookupEnv(name)
	}
	return "", false
}

// runAlone runs the case in a child process with the log variable as the case says; its stderr lines are the logs.
func runAlone(c driverCase) result {
	log := c.Log
	c.Log = nil
	input, _ := json.Marshal(map[string]any{"concurrency": 1, "cases": []driverCase{c}, "logVariable": log.Variable})
	self, err := os.Executable()
	if err != nil {
		return result{Name: c.Name, Kind: "other:driver", Texts: []string{err.Error()}}
	}
	cmd := exec.Command(self)
	env := []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, log.Variable+"=") {
			env = append(env, kv)
		}
	}
	if log.Value != nil {
		env = append(env, log.Variable+"="+*log.Value)
	}
	var stdout, stderr bytes.Buffer
	cmd.Env, cmd.Stdin, cmd.Stdout, cmd.Stderr = env, bytes.NewReader(input), &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return result{Name: c.Name, Kind: "other:driver", Texts: []string{err.Error(), stderr.String()}}
	}
	var results []result
	if err := json.Unmarshal(stdout.Bytes(), &results); err != nil || len(results) != 1 {
		return result{Name: c.Name, Kind: "other:driver", Texts: []string{fmt.Sprint(err), stdout.String()}}
	}
	lines := []string{}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if line != "" {
			lines = append(lines, line)
		}
	}
	results[0].Logs = &lines
	return results[0]
}

// kindOf classifies the error returned, not its causes, as the other languages' drivers classify the error thrown.
func kindOf(err error) string {
	switch err.(type) {
	case *sdkruntime.JobMayExistError:
		return "job-may-exist"
	case *sdkruntime.MayHaveBeenProcessedError:
		return "may-have-been-processed"
	case *sdkruntime.JobFailedError:
		return "job-failed"
	case *sdkruntime.MalformedResponseError:
		return "malformed"
	case *sdkruntime.DeadlineExceededError:
		return "deadline"
	case *sdkruntime.ConnectionError:
		return "connection"
	case *sdkruntime.ServiceError:
		return "service"
	case *sdkruntime.ConfigError:
		return "invalid-argument"
	}
	return fmt.Sprintf("other:%T", err)
}

// statusClasses are the status classes of the scenarios' CATCHES, matched with errors.Is.
var statusClasses = []struct {
	name  string
	class sdkruntime.StatusClass
}{
	{"bad-request", sdkruntime.ErrBadRequest},
	{"authentication", sdkruntime.ErrAuthentication},
	{"permission-denied", sdkruntime.ErrPermissionDenied},
	{"not-found", sdkruntime.ErrNotFound},
	{"conflict", sdkruntime.ErrConflict},
	{"unprocessable-entity", sdkruntime.ErrUnprocessableEntity},
	{"rate-limit", sdkruntime.ErrRateLimit},
	{"internal-server", sdkruntime.ErrInternalServer},
}

// codeConstants are the generated package's error-code constants the scenarios answer with.
var codeConstants = []error{sdk.ErrNotFoundCode, sdk.ErrRateLimitExceeded, sdk.ErrInvalidToken, sdk.ErrInternal, sdk.ErrInvalidRequest}

// caughtAs is every way the error is caught in Go: errors.As for the types, errors.Is for the status classes and
// the code's constant, along the chain as Go callers match.
func caughtAs(err error) []string {
	caught := []string{}
	var svc *sdkruntime.ServiceError
	if errors.As(err, &svc) {
		caught = append(caught, "service")
	}
	for _, c := range statusClasses {
		if errors.Is(err, c.class) {
			caught = append(caught, c.name)
		}
	}
	var processed *sdkruntime.MayHaveBeenProcessedError
	if errors.As(err, &processed) {
		caught = append(caught, "may-have-been-processed")
	}
	var jobMayExist *sdkruntime.JobMayExistError
	if errors.As(err, &jobMayExist) {
		caught = append(caught, "job-may-exist")
	}
	for _, code := range codeConstants {
		if errors.Is(err, code) {
			caught = append(caught, "code")
			break
		}
	}
	return caught
}

func describe(err error, r *result) {
	r.Kind = kindOf(err)
	r.CaughtAs = caughtAs(err)
	status := 0
	switch e := err.(type) {
	case *sdkruntime.ServiceError:
		status, r.Code = e.Status, &e.Code
		if e.RetryAfter > 0 {
			retry := e.RetryAfter.Milliseconds()
			r.RetryAfterMs = &retry
		}
	case *sdkruntime.JobFailedError:
		status, r.Code = e.Status, &e.Code
	case *sdkruntime.MalformedResponseError:
		status = e.Status
	case *sdkruntime.MayHaveBeenProcessedError:
		status = e.Status
	case *sdkruntime.JobMayExistError:
		status = e.Status
	}
	if status != 0 {
		r.Status = &status
	}
	var svc *sdkruntime.ServiceError
	if errors.As(err, &svc) && svc.RequestID != "" {
		r.RequestID = &svc.RequestID
	}
	var typed sdkruntime.Error
	if errors.As(err, &typed) {
		if id := typed.Job(); id != "" {
			r.JobID = &id
		}
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		r.Texts = append(r.Texts, e.Error(), fmt.Sprintf("%+v", e))
		var svc *sdkruntime.ServiceError
		if errors.As(e, &svc) && svc.Body != nil {
			data, _ := json.Marshal(svc.Body)
			r.Texts = append(r.Texts, string(data))
		}
	}
}

func run(c driverCase, tmp string) result {
	if c.Log != nil {
		return runAlone(c)
	}
	r := result{Name: c.Name, Texts: []string{}}
	cl := c.Client
	client, err := sdk.New(
		sdk.WithBaseURL(c.BaseURL),
		sdk.WithToken(c.Token),
		sdkruntime.WithLookupEnv(childEnv),
		sdkruntime.WithSecrets(cl.Secrets...),
		sdk.WithPollInterval(ms(cl.PollMs[0]), ms(cl.PollMs[1])),
		sdk.WithMaxRetries(cl.MaxRetries),
		sdk.WithRetryDelays(ms(cl.BaseDelayMs), ms(cl.MaxDelayMs)),
		sdkruntime.WithMaxRetryAfter(ms(cl.MaxRetryAfterMs)),
	)
	if err == nil && c.Copy != nil {
		// A scenario of client copies calls through a copy made with other default headers.
		var headers []sdk.Option
		for name, value := range c.Copy.Headers {
			headers = append(headers, sdk.WithHeader(name, value))
		}
		client, err = client.WithOptions(headers...)
	}
	if err != nil {
		r.Kind, r.Texts = "other:config", []string{err.Error()}
		return r
	}
	a := c.Action
	deadline := sdkruntime.CallTimeout(ms(a.DeadlineMs))
	ctx := context.Background()
	body := map[string]any{}
	for k, v := range c.Body {
		body[k] = v
	}
	started := time.Now()
	r.StartedAt = started.UnixMilli()
	var jobID string
	var written int64 = -1
	var meta *sdkruntime.Meta
	switch a.Kind {
	case "submit":
		var res *sdkruntime.JobResult
		if res, err = client.Submit(ctx, c.Pipeline, body, deadline); err == nil {
			jobID = res.JobID
		}
	case "start":
		var h *sdkruntime.JobHandle
		if h, err = client.Start(ctx, c.Pipeline, body, deadline); err == nil {
			jobID = h.JobID
		}
	case "wait":
		var res *sdkruntime.JobResult
		if res, err = client.Wait(ctx, a.JobID, deadline); err == nil {
			jobID = res.JobID
		}
	case "read":
		var res *sdkruntime.Response[sdk.JobStatusResponse]
		if res, err = client.GetJob(ctx, &sdk.GetJobParams{JobID: a.JobID}, callOptions(c, deadline)...); err == nil {
			meta = &res.Meta
		}
	case "write":
		var res *sdkruntime.Response[sdk.NotShownSuccessResponse]
		body := sdk.NotShownBody{"subscription_id": json.RawMessage(`"sub_1"`)}
		if res, err = client.TestWebhook(ctx, &sdk.TestWebhookParams{Body: body}, callOptions(c, deadline)...); err == nil {
			meta = &res.Meta
		}
	case "download":
		target := a.Path
		switch a.Target {
		case "base-url":
			target = c.BaseURL + a.Path
		case "foreign-url":
			target = c.ForeignURL + a.Path
		}
		var info *sdkruntime.DownloadInfo
		if a.ToFile {
			info, err = client.DownloadToFile(ctx, target, filepath.Join(tmp, c.Name), deadline)
		} else {
			info, err = client.Download(ctx, target, io.Discard, deadline)
		}
		if err == nil {
			written = info.Written
		}
	case "list":
		// What the read yielded is reported with its error too; the sequences are called with a yield function,
		// as the module is on Go 1.22 (range over them from Go 1.23).
		r.Items = []any{}
		size := float64(a.PageSize)
		in := &sdk.GetAuditCenterParams{Limit: &size}
		if a.By == "items" {
			client.PaginateGetAuditCenter(ctx, in, deadline)(func(item any, failed error) bool {
				if failed != nil {
					err = failed
					return false
				}
				r.Items = append(r.Items, item)
				return true
			})
		} else {
			pages := 0
			r.Pages = &pages
			client.PaginateGetAuditCenterPages(ctx, in, deadline)(func(page *sdkruntime.Page[any, sdk.AuditCenterResponse], failed error) bool {
				if failed != nil {
					err = failed
					return false
				}
				pages++
				r.Items = append(r.Items, page.Items...)
				return true
			})
		}
	default:
		err = fmt.Errorf("unknown action %q", a.Kind)
	}
	r.ElapsedMs = float64(time.Since(started).Microseconds()) / 1000
	if err != nil {
		describe(err, &r)
		return r
	}
	r.OK = true
	if jobID != "" {
		r.JobID = &jobID
	}
	if written >= 0 {
		r.Bytes = &written
	}
	if meta != nil {
		r.Status = &meta.Status
		if meta.RequestID != "" {
			r.RequestID = &meta.RequestID
		}
	}
	return r
}

// callOptions are the call's deadline and the scenario's options of the call itself.
func callOptions(c driverCase, deadline sdk.CallOption) []sdk.CallOption {
	opts := []sdk.CallOption{deadline}
	if c.Call == nil {
		return opts
	}
	for name, value := range c.Call.Headers {
		opts = append(opts, sdk.CallHeader(name, value))
	}
	for name, value := range c.Call.Query {
		opts = append(opts, sdk.CallQuery(name, value))
	}
	for name, value := range c.Call.Body {
		opts = append(opts, sdk.CallBodyField(name, value))
	}
	if c.Call.MaxRetries != nil {
		opts = append(opts, sdk.CallMaxRetries(*c.Call.MaxRetries))
	}
	return opts
}

func main() {
	var input struct {
		Concurrency int          `json:"concurrency"`
		Cases       []driverCase `json:"cases"`
		LogVariable string       `json:"logVariable"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&input); err != nil {
		fmt.Fprintln(os.Stderr, "reading the cases:", err)
		os.Exit(2)
	}
	logVariable = input.LogVariable
	tmp, err := os.MkdirTemp("", "go-driver-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer os.RemoveAll(tmp)
	results := make([]result, len(input.Cases))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(1, input.Concurrency); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = run(input.Cases[i], tmp)
			}
		}()
	}
	for i := range input.Cases {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := json.NewEncoder(os.Stdout).Encode(results); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
