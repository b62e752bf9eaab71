package sdkruntime

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"regexp"
	"sort"
	"strings"
	"time"
)

// JobProgress tells a change of a job's status during a wait.
type JobProgress struct {
	// JobID is the job's id.
	JobID string
	// Status is the new value of the job status field.
	Status string
	// PreviousStatus is the value before; "" for the first one seen.
	PreviousStatus string
	// Polls is the number of polls sent so far.
	Polls int
}

// JobResult is the outcome of a finished job.
type JobResult struct {
	// JobID is the job's id ("" when a held answer carried none).
	JobID string
	// Data is the payload: the first of the poll operation's payload fields that holds a value.
	Data json.RawMessage
	// Meta describes the answer that carried the payload.
	Meta Meta
	// SubmitMeta describes the submission's answer (its billing tells the charge); nil after Wait.
	SubmitMeta *Meta
	// Polls is the number of polls sent; 0 when the hold returned the payload.
	Polls int
}

// JobHandle is a submitted job that was not waited for.
type JobHandle struct {
	// JobID is the job's id.
	JobID string
	// Pipeline is the pipeline it was submitted to.
	Pipeline string
	// PollPath is the path of the poll operation for this job, below the base address.
	PollPath string
	// Meta describes the submission's answer.
	Meta   Meta
	client *Client
}

// Wait waits for the job; the first poll is sent at once.
func (h *JobHandle) Wait(ctx context.Context, opts ...CallOption) (*JobResult, error) {
	return h.client.Wait(ctx, h.JobID, opts...)
}

// failureStatus matches job statuses naming a failure, an error or a cancellation.
var failureStatus = regexp.MustCompile(`(?i)fail|error|cancel`)

func (c *Client) jobs() (*Jobs, error) {
	if c.model.Jobs == nil {
		return nil, configError("job helpers are unavailable: the description marks no operations that submit and poll jobs; call its operations directly")
	}
	return c.model.Jobs, nil
}

// CheckPipeline refuses a pipeline slug the description's pattern rejects, before anything is sent, with the
// error the service would answer (a *ServiceError with the model's refusal code, else a *ConfigError).
func (c *Client) CheckPipeline(pipeline string) error {
	jobs, err := c.jobs()
	if err != nil {
		return err
	}
	if c.selector == nil && pipeline != "" || c.selector != nil && c.selector.MatchString(pipeline) {
		return nil
	}
	want := "a non-empty value"
	if c.selector != nil {
		want = jobs.Submit.SelectorPattern
	}
	message := fmt.Sprintf("pipeline %q does not match %s; nothing was sent", pipeline, want)
	if jobs.Submit.SelectorRefusal == "" {
		return configError("%s", message)
	}
	return c.refusalError(jobs.Submit.SelectorRefusal, message)
}

// Submit submits a job and waits for its result: the service holds the request; an answer with the
// still-running status switches to polling. The whole wait ends at the client's job timeout (or CallTimeout, or
// the context's deadline). The submission is never sent twice: a failure after it may have reached the service
// is a *JobMayExistError.
func (c *Client) Submit(ctx context.Context, pipeline string, body map[string]any, opts ...CallOption) (*JobResult, error) {
	jobs, err := c.jobs()
	if err != nil {
		return nil, err
	}
	cs := collect(opts)
	b, cancel, err := c.newBudget(ctx, c.jobTimeout, cs)
	if err != nil {
		return nil, err
	}
	defer cancel()
	noWait := jobs.Submit.NoWait
	// A deadline that would cut the hold short would lose the job id with it: take the id at once and poll.
	held := noWait == nil || time.Until(b.deadline) >= DefaultTimeout
	if noWait != nil {
		if _, given := body[noWait.Field]; given {
			held = true
		}
	}
	sent := body
	if !held {
		sent = withField(body, noWait.Field, noWait.Value)
	}
	a, err := c.submit(b, jobs, pipeline, sent, cs)
	if err != nil {
		return nil, err
	}
	if a.meta.Status != jobs.Submit.StillRunningStatus && isFinished(a.envelope, &jobs.Poll) {
		id, _ := jobIDOf(a.envelope, jobs.Submit.JobID)
		m := a.meta
		return &JobResult{JobID: id, Data: payloadOf(a.envelope, &jobs.Poll), Meta: a.meta, SubmitMeta: &m}, nil
	}
	id, err := c.requireJobID(jobs, a)
	if err != nil {
		return nil, err
	}
	if err := c.failedJob(jobs, a.envelope, id, a.meta.Status); err != nil {
		return nil, err
	}
	m := a.meta
	res, err := c.poll(b, jobs, id, cs, c.pollPathOf(jobs, a.envelope, id), true)
	if err != nil {
		return nil, withJob(err, id)
	}
	res.SubmitMeta = &m
	return res, nil
}

// Start submits a job without waiting for it (asking the service not to hold the request when the model says
// how) and returns its handle. The call ends at the client's timeout.
func (c *Client) Start(ctx context.Context, pipeline string, body map[string]any, opts ...CallOption) (*JobHandle, error) {
	jobs, err := c.jobs()
	if err != nil {
		return nil, err
	}
	cs := collect(opts)
	b, cancel, err := c.newBudget(ctx, c.timeout, cs)
	if err != nil {
		return nil, err
	}
	defer cancel()
	sent := body
	if nw := jobs.Submit.NoWait; nw != nil {
		sent = withField(body, nw.Field, nw.Value)
	}
	a, err := c.submit(b, jobs, pipeline, sent, cs)
	if err != nil {
		return nil, err
	}
	id, err := c.requireJobID(jobs, a)
	if err != nil {
		return nil, err
	}
	return &JobHandle{JobID: id, Pipeline: pipeline, PollPath: c.pollPathOf(jobs, a.envelope, id), Meta: a.meta, client: c}, nil
}

// Wait waits for a job by id, for example one started by another process. The first poll is sent at once; the
// wait ends at the client's job timeout (or CallTimeout, or the context's deadline).
func (c *Client) Wait(ctx context.Context, jobID string, opts ...CallOption) (*JobResult, error) {
	jobs, err := c.jobs()
	if err != nil {
		return nil, err
	}
	if jobID == "" {
		return nil, configError("Wait: the job id is empty")
	}
	cs := collect(opts)
	b, cancel, err := c.newBudget(ctx, c.jobTimeout, cs)
	if err != nil {
		return nil, err
	}
	defer cancel()
	path, err := fillPath(&jobs.Poll.Operation, map[string]string{jobs.Poll.JobIDParameter: jobID})
	if err != nil {
		return nil, err
	}
	res, err := c.poll(b, jobs, jobID, cs, path, false)
	if err != nil {
		return nil, withJob(err, jobID)
	}
	return res, nil
}

func withField(body map[string]any, field string, value any) map[string]any {
	out := make(map[string]any, len(body)+1)
	for k, v := range body {
		out[k] = v
	}
	out[field] = value
	return out
}

func (c *Client) submit(b *budget, jobs *Jobs, pipeline string, body map[string]any, cs *callSettings) (*answer, error) {
	if err := c.CheckPipeline(pipeline); err != nil {
		return nil, err
	}
	if err := checkBodyFields(jobs, pipeline, c.model.Pipelines[pipeline].Variants, body); err != nil {
		return nil, err
	}
	op := jobs.Submit.Operation
	op.Job = JobRoleSubmit
	path := map[string]string{}
	if jobs.Submit.PipelineParameter != "" {
		path[jobs.Submit.PipelineParameter] = pipeline
	}
	var bodyValue any
	if body != nil {
		bodyValue = body
	}
	r, err := c.prepare(&op, Request{Path: path, Body: bodyValue}, cs, c.model.Pipelines[pipeline].JSONStrings)
	if err != nil {
		return nil, err
	}
	r.resendable = false
	r.jobSubmission = true
	return c.send(b, r)
}

// pollPathOf is the answer's poll URL when it has the poll operation's form, else the poll path of the job id.
func (c *Client) pollPathOf(jobs *Jobs, env envelope, jobID string) string {
	if u, ok := env.str(jobs.Submit.PollURL); ok {
		if _, ok := matchPath(jobs.Poll.Operation.Path, u); ok {
			return u
		}
	}
	path, err := fillPath(&jobs.Poll.Operation, map[string]string{jobs.Poll.JobIDParameter: jobID})
	if err != nil {
		return jobs.Poll.Operation.Path
	}
	return path
}

func (c *Client) poll(b *budget, jobs *Jobs, jobID string, cs *callSettings, path string, sleepFirst bool) (*JobResult, error) {
	op := jobs.Poll.Operation
	baseURL, base, err := c.operationBase(&op, cs.baseURL)
	if err != nil {
		return nil, err
	}
	u, err := c.pathURL(&op, baseURL, path)
	if err != nil {
		return nil, err
	}
	lo, hi := c.pollMin, c.pollMax
	if cs.pollSet {
		if cs.pollMin < 0 || cs.pollMax < cs.pollMin {
			return nil, configError("CallPollInterval: need 0 <= min <= max, got %s and %s", cs.pollMin, cs.pollMax)
		}
		lo, hi = cs.pollMin, cs.pollMax
	}
	polls := 0
	last := ""
	for {
		if sleepFirst || polls > 0 {
			if err := b.sleepBeforePoll(jitter(lo, hi)); err != nil {
				return nil, err
			}
		}
		r := &sendRequest{op: &op, url: u, base: base, headers: cs.headers, resendable: IsResendable(&op)}
		a, err := c.send(b, r)
		if err != nil {
			return nil, err
		}
		polls++
		if c.logs(b.ctx, slog.LevelInfo) {
			status, _ := a.envelope.str(jobs.Poll.Status)
			c.log(b.ctx, slog.LevelInfo, "job poll", slog.String("job_id", jobID), slog.Int("poll", polls), slog.String("status", c.redact.text(status)))
		}
		if status, ok := a.envelope.str(jobs.Poll.Status); ok && status != last {
			if cs.onProgress != nil {
				cs.onProgress(JobProgress{JobID: jobID, Status: status, PreviousStatus: last, Polls: polls})
			}
			last = status
		}
		if isFinished(a.envelope, &jobs.Poll) {
			return &JobResult{JobID: jobID, Data: payloadOf(a.envelope, &jobs.Poll), Meta: a.meta, Polls: polls}, nil
		}
		if err := c.failedJob(jobs, a.envelope, jobID, a.meta.Status); err != nil {
			return nil, err
		}
	}
}

func isFinished(env envelope, poll *JobPoll) bool {
	if env.has(poll.Status) {
		s, _ := env.str(poll.Status)
		return s == poll.Completed
	}
	for _, f := range poll.Payload {
		if env.has(f) {
			return true
		}
	}
	return false
}

// payloadOf is the first of the poll operation's payload fields that holds a value.
func payloadOf(env envelope, poll *JobPoll) json.RawMessage {
	var value json.RawMessage
	for _, f := range poll.Payload {
		if raw, ok := env[f]; ok {
			value = raw
			if strings.TrimSpace(string(raw)) != "null" {
				return raw
			}
		}
	}
	return value
}

func jobIDOf(env envelope, field string) (string, bool) {
	raw, ok := env[field]
	if !ok {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, s != ""
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String(), true
	}
	return "", false
}

func (c *Client) requireJobID(jobs *Jobs, a *answer) (string, error) {
	id, ok := jobIDOf(a.envelope, jobs.Submit.JobID)
	if !ok {
		return "", &JobMayExistError{Operation: jobs.Submit.Operation.ID, Detail: "the service accepted the submission but sent no " + jobs.Submit.JobID, Status: a.meta.Status}
	}
	return id, nil
}

// failedJob returns a *JobFailedError when the envelope's job status names a failure.
func (c *Client) failedJob(jobs *Jobs, env envelope, jobID string, httpStatus int) error {
	status, ok := env.str(jobs.Poll.Status)
	if !ok || !failureStatus.MatchString(status) {
		return nil
	}
	e := &JobFailedError{JobStatus: status, Status: httpStatus, Message: fmt.Sprintf("job %s ended with %s %q", jobID, jobs.Poll.Status, status)}
	e.JobID = jobID
	var body any
	if raw, err := json.Marshal(env); err == nil && json.Unmarshal(raw, &body) == nil {
		e.Body = c.redact.value(body)
	}
	if m := c.envelopeModel(); m != nil {
		if msg, ok := env.str(m.Message); ok {
			e.Message += ": " + c.redact.text(msg)
		}
		if code, ok := env.str(m.Code); ok {
			e.Code = code
		}
		if t, ok := env.str(m.ProcessingTime); ok {
			e.ProcessingTime = t
		}
	}
	return e
}

// checkBodyFields refuses, before anything is sent, a body with a field that no variant it may be of takes (a
// misspelt field), naming the field, the operation and the pipeline (a *ConfigError). The variants a body may be of
// are those its discriminator values choose, or every variant when it chooses none; a pipeline without variants, or
// an open variant among them, takes any field.
func checkBodyFields(jobs *Jobs, pipeline string, variants []VariantFields, body map[string]any) error {
	if len(variants) == 0 {
		return nil
	}
	var possible []VariantFields
	for _, v := range variants {
		if v.DiscriminatorProperty == "" {
			continue
		}
		if value, ok := body[v.DiscriminatorProperty].(string); ok && value == v.DiscriminatorValue {
			possible = append(possible, v)
		}
	}
	if len(possible) == 0 {
		possible = variants
	}
	taken := map[string]bool{}
	for _, v := range possible {
		if v.Open {
			return nil
		}
		for _, f := range v.Fields {
			taken[f] = true
		}
	}
	// The field the job functions set themselves to ask for no hold is the description's, whatever the variant.
	if jobs.Submit.NoWait != nil {
		taken[jobs.Submit.NoWait.Field] = true
	}
	var unknown []string
	for name, value := range body {
		if value != nil && !taken[name] {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	which := ""
	if len(possible) == 1 && possible[0].DiscriminatorProperty != "" {
		which = fmt.Sprintf(" (%s %q)", possible[0].DiscriminatorProperty, possible[0].DiscriminatorValue)
	}
	quoted := make([]string, len(unknown))
	var meant []string
	for i, name := range unknown {
		quoted[i] = fmt.Sprintf("%q", name)
		if near := nearestField(name, taken); near != "" {
			meant = append(meant, fmt.Sprintf("%q for %q", near, name))
		}
	}
	noun := "field"
	if len(unknown) > 1 {
		noun = "fields"
	}
	message := fmt.Sprintf("%s: unknown %s %s in the body for pipeline %q%s; nothing was sent.", jobs.Submit.Operation.ID, noun, strings.Join(quoted, ", "), pipeline, which)
	if len(meant) > 0 {
		message += " Did you mean " + strings.Join(meant, ", ") + "?"
	}
	return configError("%s", message)
}

// nearestField is the known field closest to a misspelt one, within a third of its length in edits; "" if none is.
func nearestField(name string, known map[string]bool) string {
	names := make([]string, 0, len(known))
	for k := range known {
		names = append(names, k)
	}
	sort.Strings(names)
	best, bestDistance := "", max(1, len(name)/3)+1
	for _, candidate := range names {
		if d := editDistance(name, candidate); d < bestDistance {
			best, bestDistance = candidate, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	previous := make([]int, len(b)+1)
	for j := range previous {
		previous[j] = j
	}
	for i := 1; i <= len(a); i++ {
		row := make([]int, len(b)+1)
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			row[j] = min(previous[j]+1, row[j-1]+1, previous[j-1]+cost)
		}
		previous = row
	}
	return previous[len(b)]
}
