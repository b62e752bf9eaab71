package sdkruntime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// maxErrorBody is the most of an error answer's body the runtime reads.
const maxErrorBody = 1 << 20

// malformedSnippet is how much of an unreadable body an error keeps.
const malformedSnippet = 2000

// Meta describes the answer that produced a result.
type Meta struct {
	// Status is the HTTP status of the answer.
	Status int
	// Header holds the response headers.
	Header http.Header
	// ProcessingTime is the envelope's processing time field; "" when absent.
	ProcessingTime string
	// Billing is the envelope's billing object; nil when absent.
	Billing map[string]any
	// BillingJSON is the envelope's billing object as received; nil when absent. A generated client's BillingOf
	// decodes it into the type the description gives it.
	BillingJSON json.RawMessage
	// RequestCount is the number of HTTP requests sent for this call, retries included.
	RequestCount int
	// RequestID is the request id header (Model.RequestIDHeader) of the answer; "" when absent.
	RequestID string
	// Response is the HTTP response the answer came from, for what Meta does not hold (its protocol, TLS state,
	// the request it answered); its body has been read and closed.
	Response *http.Response `json:"-"`
	// Unfit is set when the answer is JSON that does not fit the type it is decoded into (an answer that breaks
	// its schema): the data holds what could be read, and Unfit tells where it broke. A member of an object that
	// does not fit its field is kept in the object's Extra instead, and does not set it.
	Unfit error
}

// Result is the answer of a JSON operation.
type Result struct {
	// Data is the JSON body of the answer, unchanged; nil when the body was empty.
	Data json.RawMessage
	// Meta describes the answer.
	Meta Meta
}

// sendRequest is one request with its retries.
type sendRequest struct {
	op            *Operation
	url           *url.URL
	base          *url.URL // origin whose credentials the request carries (its own server's); nil: the client's
	foreign       bool
	body          []byte
	contentType   string
	headers       http.Header
	binary        bool
	resendable    bool
	jobSubmission bool
}

// answer is a successful answer: decoded JSON, or an open body for binary operations.
type answer struct {
	raw      []byte
	envelope envelope
	body     io.ReadCloser
	meta     Meta
}

// send sends a request and retries it as the verdicts allow, within the budget.
func (c *Client) send(b *budget, r *sendRequest) (*answer, error) {
	attempts, retries := 0, 0
	rotated := false
	for {
		if err := b.stopped(); err != nil {
			return nil, err
		}
		if err := c.pace(b); err != nil {
			return nil, err
		}
		attempts++
		where := []slog.Attr{slog.String("op", r.op.ID), slog.String("method", r.op.Method), slog.String("path", r.op.Path), slog.Int("attempt", attempts)}
		sentAt := time.Now()
		resp, err := c.roundTrip(b, r, where)
		if built, ok := err.(Error); ok {
			// The request could not be built (a missing credential, a bad URL): nothing was sent.
			return nil, built
		}
		if err != nil {
			failure := c.networkFailure(b, r, err)
			if isStop(failure) {
				if r.resendable {
					return nil, failure
				}
				return nil, c.inFlightStop(r, failure)
			}
			conn := failure.(*ConnectionError)
			if conn.Sent && !r.resendable {
				return nil, mayHaveBeenProcessed(r.jobSubmission, r.op.ID, "the connection failed after the request was sent", 0, conn)
			}
			if retries >= b.maxRetries {
				return nil, conn
			}
			delay := backoffDelay(retries, c.baseDelay, c.maxDelay)
			retries++
			c.log(b.ctx, slog.LevelWarn, "retrying", append(where, slog.String("reason", "connection error: "+c.redact.text(conn.Error())), slog.Duration("delay", delay))...)
			if err := c.sleepOrFail(b, delay, conn); err != nil {
				return nil, err
			}
			continue
		}

		if c.logs(b.ctx, slog.LevelInfo) {
			answer := append(where, slog.Int("status", resp.StatusCode), slog.String("request_id", c.requestID(resp.Header)), slog.Duration("duration", time.Since(sentAt)))
			c.log(b.ctx, slog.LevelInfo, "answer", answer...)
			if c.logs(b.ctx, slog.LevelDebug) {
				c.log(b.ctx, slog.LevelDebug, "answer headers", append(where, slog.Int("status", resp.StatusCode), c.loggedHeaders(resp.Header))...)
			}
		}
		if resp.StatusCode >= 200 && resp.StatusCode < 300 {
			meta := c.meta(resp, attempts)
			if r.binary {
				return &answer{body: resp.Body, meta: meta}, nil
			}
			raw, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				failure := c.bodyFailure(b, r, err)
				if !isStop(failure) && r.resendable && retries < b.maxRetries {
					delay := backoffDelay(retries, c.baseDelay, c.maxDelay)
					retries++
					if err := c.sleepOrFail(b, delay, failure); err != nil {
						return nil, err
					}
					continue
				}
				if r.resendable {
					return nil, failure
				}
				if isStop(failure) {
					return nil, c.inFlightStop(r, failure)
				}
				return nil, mayHaveBeenProcessed(r.jobSubmission, r.op.ID, "the answer broke off while it was read", resp.StatusCode, failure)
			}
			c.notePacing(raw)
			env, err := c.decode(raw, resp.StatusCode)
			if err != nil {
				if r.jobSubmission {
					// The service answered with success: the submission was taken, but its job id is unreadable.
					return nil, &JobMayExistError{Operation: r.op.ID, Detail: "the success answer was not readable", Status: resp.StatusCode, Err: err}
				}
				return nil, err
			}
			c.fillMeta(&meta, env)
			// A job still running after the hold is the job's answer, not an error, whatever its body holds.
			stillRunning := r.jobSubmission && c.model.Jobs != nil && resp.StatusCode == c.model.Jobs.Submit.StillRunningStatus
			if !stillRunning && c.isErrorBody(env) {
				return nil, c.errorFromBody(resp.StatusCode, raw, resp.Header)
			}
			return &answer{raw: raw, envelope: env, meta: meta}, nil
		}

		raw, readErr := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		resp.Body.Close()
		if readErr != nil {
			if stop := b.stopped(); stop != nil {
				if r.resendable {
					return nil, stop
				}
				return nil, c.inFlightStop(r, stop)
			}
		}
		c.notePacing(raw)
		svcErr := c.errorFromBody(resp.StatusCode, raw, resp.Header)
		if resp.StatusCode == http.StatusUnauthorized && !rotated && !r.foreign && c.auth.rotates() && c.auth.renews(svcErr.Code) {
			// The service refused the token before doing anything: ask the token function again, once.
			rotated = true
			c.log(b.ctx, slog.LevelInfo, "token refused, asking the token function again", append(where, slog.String("code", svcErr.Code))...)
			continue
		}
		switch verdictForStatus(resp.StatusCode, r.resendable) {
		case verdictFail:
			return nil, svcErr
		case verdictMayHaveBeenProcessed:
			detail := fmt.Sprintf("HTTP %d", resp.StatusCode)
			if svcErr.Code != "" {
				detail += " " + svcErr.Code
			}
			return nil, mayHaveBeenProcessed(r.jobSubmission, r.op.ID, detail, resp.StatusCode, svcErr)
		}
		if retries >= b.maxRetries {
			return nil, svcErr
		}
		delay := c.retryDelay(retries, resp.Header.Get("Retry-After"))
		retries++
		reason := fmt.Sprintf("HTTP %d", resp.StatusCode)
		if svcErr.Code != "" {
			reason += " " + svcErr.Code
		}
		c.log(b.ctx, slog.LevelWarn, "retrying", where[0], slog.Int("status", resp.StatusCode), slog.String("code", svcErr.Code),
			slog.String("reason", reason), slog.Duration("delay", delay), where[1], where[2], where[3])
		if err := c.sleepOrFail(b, delay, svcErr); err != nil {
			return nil, err
		}
	}
}

func isStop(err error) bool {
	switch err.(type) {
	case *DeadlineExceededError, *CanceledError:
		return true
	}
	return false
}

// inFlightStop is the error of a write stopped while in flight: its body may have reached the server.
func (c *Client) inFlightStop(r *sendRequest, stop error) error {
	why := "the deadline passed"
	if _, ok := stop.(*CanceledError); ok {
		why = "canceled by the caller"
	}
	what := "the request"
	if r.jobSubmission {
		what = "the submission"
	}
	return mayHaveBeenProcessed(r.jobSubmission, r.op.ID, why+" while "+what+" was in flight", 0, stop)
}

// sleepOrFail sleeps before a retry; when the deadline would pass first, the last failure is what the caller gets.
func (c *Client) sleepOrFail(b *budget, d time.Duration, last error) error {
	err := b.sleep(d)
	if _, ok := err.(*DeadlineExceededError); ok {
		return last
	}
	return err
}

// roundTrip sends one attempt through the HTTP client, and follows 307 and 308 redirects of requests that
// net/http would otherwise replay on its own (see noReplayBody). Errors that are the runtime's own (a request that
// cannot be built) are returned as they are; the others come from the network.
func (c *Client) roundTrip(b *budget, r *sendRequest, where []slog.Attr) (*http.Response, error) {
	target, foreign := r.url, r.foreign
	var via []*http.Request
	var last *http.Response
	for {
		req, err := c.newRequest(b, r, target, foreign)
		if err != nil {
			if last != nil {
				last.Body.Close()
			}
			return nil, err
		}
		if len(via) > 0 {
			if err := c.http.CheckRedirect(req, via); err != nil {
				if errors.Is(err, http.ErrUseLastResponse) {
					return last, nil
				}
				last.Body.Close()
				return nil, &url.Error{Op: req.Method, URL: req.URL.String(), Err: err}
			}
			last.Body.Close()
		}
		if c.logs(b.ctx, slog.LevelDebug) {
			c.log(b.ctx, slog.LevelDebug, "request", append(where[:len(where):len(where)], c.loggedHeaders(req.Header))...)
		}
		resp, err := c.http.Do(req)
		if err != nil {
			return nil, err
		}
		if _, guarded := req.Body.(noReplayBody); !guarded || (resp.StatusCode != http.StatusTemporaryRedirect && resp.StatusCode != http.StatusPermanentRedirect) {
			return resp, nil
		}
		loc, err := resp.Location()
		if err != nil {
			return resp, nil
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		via = append(via, req)
		last = resp
		// Credentials belong to the service's origin: a hop elsewhere, and every hop after it, goes without them.
		origin := c.base
		if r.base != nil {
			origin = r.base
		}
		target, foreign = loc, foreign || !sameOrigin(loc, origin)
	}
}

// noReplayBody is the empty body of a GET, HEAD or OPTIONS request. net/http's Transport replays such requests on
// its own when a reused connection fails, even after the server read them; with a body it cannot rewind, it
// never does, so that the runtime alone decides what is sent again and how often. No body bytes are sent for it.
type noReplayBody struct{}

// Read reports the end of the body at once.
func (noReplayBody) Read([]byte) (int, error) { return 0, io.EOF }

// Close does nothing.
func (noReplayBody) Close() error { return nil }

// acceptJSON is the Accept header of a JSON operation.
const acceptJSON = "application/json, */*;q=0.8"

// newRequest builds one request: URL with query credentials, headers, body and credentials.
func (c *Client) newRequest(b *budget, r *sendRequest, target *url.URL, foreign bool) (*http.Request, error) {
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	u := *target
	method := strings.ToUpper(r.op.Method)
	req, err := http.NewRequestWithContext(b.ctx, method, u.String(), body)
	if err != nil {
		return nil, configError("%s: the request cannot be built: %s", r.op.ID, c.redact.text(err.Error()))
	}
	for name, values := range c.headers {
		req.Header[name] = append([]string(nil), values...)
	}
	req.Header.Set("User-Agent", c.userAgent)
	// The call's own headers come last: a header parameter named User-Agent is sent as the caller gave it.
	for name, values := range r.headers {
		req.Header[http.CanonicalHeaderKey(name)] = append([]string(nil), values...)
	}
	// A JSON operation asks for JSON first, and takes any other media type its answer may have (as the TypeScript
	// runtime does); a header parameter or option naming Accept wins.
	if !r.binary && req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", acceptJSON)
	}
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	if foreign {
		// Another origin gets no credentials, not even ones the caller put among the headers.
		c.auth.strip(req)
	} else {
		creds, err := c.auth.apply(b.ctx, r.op.Security, r.op.ID)
		if err != nil {
			return nil, err
		}
		creds.setOn(req)
	}
	// net/http replays a request on its own when it calls itself idempotent (GET, HEAD, OPTIONS, or an
	// Idempotency-Key header) and its body can be rewound; the runtime keeps it from doing so.
	_, key := req.Header["Idempotency-Key"]
	_, xKey := req.Header["X-Idempotency-Key"]
	unsafeKey := (key || xKey) && !r.resendable
	switch {
	case r.body != nil && !unsafeKey:
		data := r.body
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	case r.body != nil:
		// No GetBody: the body cannot be rewound, so it is never replayed (nor sent again on a 307 or 308).
	case method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions || unsafeKey:
		req.Body = noReplayBody{}
	}
	return req, nil
}

// networkFailure is the error of a request that got no answer: the call's stop, or a ConnectionError.
func (c *Client) networkFailure(b *budget, r *sendRequest, err error) error {
	if stop := b.stopped(); stop != nil {
		return stop
	}
	inner := err
	var ue *url.Error
	// url.Error holds the URL, which may hold a query credential: keep only what is below it.
	if errors.As(err, &ue) {
		inner = ue.Err
	}
	return &ConnectionError{Operation: r.op.ID, Sent: !wasNotSent(inner), Err: &redactedError{text: c.redact.text(inner.Error()), err: inner}}
}

// bodyFailure is the error of a success answer whose body could not be read.
func (c *Client) bodyFailure(b *budget, r *sendRequest, err error) error {
	if stop := b.stopped(); stop != nil {
		return stop
	}
	return &ConnectionError{Operation: r.op.ID, Sent: true, Err: &redactedError{text: c.redact.text(err.Error()), err: err}}
}

// envelope is the top-level object of a JSON answer; nil when the answer is not an object.
type envelope map[string]json.RawMessage

// str returns the string value of a field.
func (e envelope) str(field string) (string, bool) {
	if field == "" {
		return "", false
	}
	raw, ok := e[field]
	if !ok {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// has reports whether a field is present (a null value counts).
func (e envelope) has(field string) bool {
	_, ok := e[field]
	return ok
}

// decode parses a success answer. An empty body is no data; a body that is not JSON is a MalformedResponseError.
func (c *Client) decode(raw []byte, status int) (envelope, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	if !json.Valid(raw) {
		snippet := raw
		if len(snippet) > malformedSnippet {
			snippet = snippet[:malformedSnippet]
		}
		var probe any
		parseErr := json.Unmarshal(raw, &probe)
		return nil, &MalformedResponseError{Status: status, Body: c.redact.text(string(snippet)), Err: &redactedError{text: c.redact.text(parseErr.Error()), err: parseErr}}
	}
	var env envelope
	if json.Unmarshal(raw, &env) != nil {
		return nil, nil
	}
	return env, nil
}

func (c *Client) envelopeModel() *Envelope {
	if c.model.Conventions == nil {
		return nil
	}
	return c.model.Conventions.Envelope
}

// isErrorBody: a JSON object whose envelope status says error, whatever the HTTP status.
func (c *Client) isErrorBody(env envelope) bool {
	m := c.envelopeModel()
	if m == nil || env == nil {
		return false
	}
	s, ok := env.str(m.Status)
	return ok && s == m.Error
}

func (c *Client) meta(resp *http.Response, attempts int) Meta {
	return Meta{Status: resp.StatusCode, Header: resp.Header, RequestCount: attempts, RequestID: c.requestID(resp.Header), Response: resp}
}

// requestID is the request id header (Model.RequestIDHeader) of an answer; "" when absent.
func (c *Client) requestID(h http.Header) string {
	if c.model.RequestIDHeader == "" {
		return ""
	}
	return h.Get(c.model.RequestIDHeader)
}

func (c *Client) fillMeta(meta *Meta, env envelope) {
	m := c.envelopeModel()
	if m == nil || env == nil {
		return
	}
	if s, ok := env.str(m.ProcessingTime); ok {
		meta.ProcessingTime = s
	}
	if raw, ok := env[m.Billing]; ok && m.Billing != "" {
		var billing map[string]any
		if json.Unmarshal(raw, &billing) == nil {
			meta.Billing = billing
			if billing != nil {
				meta.BillingJSON = raw
			}
		}
	}
}

// textSnippet is how much of a non-JSON error body a message quotes.
const textSnippet = 200

// errorFromBody turns an error answer into a *ServiceError, with every string redacted.
func (c *Client) errorFromBody(status int, raw []byte, header http.Header) *ServiceError {
	e := &ServiceError{Status: status}
	var parsed any
	trimmed := strings.TrimSpace(string(raw))
	if trimmed != "" {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if dec.Decode(&parsed) == nil {
			e.Body = c.redact.value(parsed)
		} else {
			e.Body = c.redact.text(string(raw))
		}
	}
	var text string
	hasText := false
	if record, ok := e.Body.(map[string]any); ok {
		if m := c.envelopeModel(); m != nil {
			if v, ok := record[m.Code].(string); ok {
				e.Code = v
			}
			if v, ok := record[m.Message].(string); ok {
				text, hasText = v, true
			}
			if m.ProcessingTime != "" {
				if v, ok := record[m.ProcessingTime].(string); ok {
					e.ProcessingTime = v
				}
			}
		}
	}
	if !hasText {
		if s, ok := e.Body.(string); ok && strings.TrimSpace(s) != "" {
			t := strings.TrimSpace(s)
			if len(t) > textSnippet {
				t = t[:textSnippet]
			}
			text = t
		} else if spec, ok := c.model.Errors[e.Code]; ok && e.Code != "" && spec.Description != "" {
			text = spec.Description
		} else if text = http.StatusText(status); text == "" {
			text = fmt.Sprintf("HTTP %d", status)
		}
	}
	if e.Code != "" {
		e.Message = e.Code + ": " + text
	} else {
		e.Message = text
	}
	if c.model.RequestIDHeader != "" && header != nil {
		e.RequestID = header.Get(c.model.RequestIDHeader)
	}
	if header != nil {
		if d, ok := parseRetryAfter(header.Get("Retry-After"), time.Now()); ok {
			e.RetryAfter = d
		}
	}
	return e
}

// refusalError is the error the service would answer for a request refused before it was sent.
func (c *Client) refusalError(code, message string) *ServiceError {
	status := http.StatusBadRequest
	if spec, ok := c.model.Errors[code]; ok && spec.Status != 0 {
		status = spec.Status
	}
	e := &ServiceError{Status: status, Code: code, Message: code + ": " + message}
	if m := c.envelopeModel(); m != nil {
		e.Body = map[string]any{m.Status: m.Error, m.Code: code, m.Message: message}
	}
	return e
}

var pathParameter = regexp.MustCompile(`\{([^}]+)\}`)

// dotOrEmpty is an empty or dot segment, plain or percent-encoded: servers and proxies collapse or resolve it (RFC
// 3986 removes dot segments), so the request would reach another path than the operation's.
var dotOrEmpty = regexp.MustCompile(`(?i)^(?:\.|%2e){0,2}$`)

// fillPath fills a path template; every parameter must have a value, and none may be empty, "." or ".." once
// escaped. "%" is escaped too, so "%2e%2e" given is sent as "%252e%252e", a plain segment. The message leaves the
// value out (a download token is a credential).
func fillPath(op *Operation, values map[string]string) (string, error) {
	var missing, refused []string
	out := pathParameter.ReplaceAllStringFunc(op.Path, func(whole string) string {
		name := whole[1 : len(whole)-1]
		v, ok := values[name]
		if !ok {
			missing = append(missing, name)
			return whole
		}
		escaped := url.PathEscape(v)
		if dotOrEmpty.MatchString(escaped) {
			refused = append(refused, name)
		}
		return escaped
	})
	if len(missing) > 0 {
		return "", configError("%s: path parameter %s has no value (path %s)", op.ID, strings.Join(missing, ", "), op.Path)
	}
	if len(refused) > 0 {
		return "", configError(`%s: path parameter %s must not be empty, "." or ".."`, op.ID, strings.Join(refused, ", "))
	}
	return out, nil
}

// matchPath returns the values of a template's parameters when path has its form, one non-empty segment each.
func matchPath(template, path string) (map[string]string, bool) {
	var names []string
	pattern := "^"
	last := 0
	for _, m := range pathParameter.FindAllStringSubmatchIndex(template, -1) {
		pattern += regexp.QuoteMeta(template[last:m[0]]) + `([^/?#]+)`
		names = append(names, template[m[2]:m[3]])
		last = m[1]
	}
	pattern += regexp.QuoteMeta(template[last:]) + "$"
	found := regexp.MustCompile(pattern).FindStringSubmatch(path)
	if found == nil {
		return nil, false
	}
	values := map[string]string{}
	for i, name := range names {
		values[name] = found[i+1]
	}
	return values, true
}

// operationURL is the base address plus the filled path and the query.
func (c *Client) operationURL(op *Operation, base string, path map[string]string, query url.Values) (*url.URL, error) {
	filled, err := fillPath(op, path)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(base + filled)
	if err != nil {
		return nil, configError("%s: the URL cannot be built: %v", op.ID, err)
	}
	if len(query) > 0 {
		q := u.Query()
		for k, vs := range query {
			for _, v := range vs {
				q.Add(k, v)
			}
		}
		u.RawQuery = q.Encode()
	}
	return u, nil
}

// pathURL is a base address plus a concrete path below it (a poll URL from an answer).
func (c *Client) pathURL(op *Operation, base, path string) (*url.URL, error) {
	u, err := url.Parse(base + path)
	if err != nil {
		return nil, configError("%s: the URL cannot be built from %q: %v", op.ID, path, err)
	}
	return u, nil
}

// pace waits until the time the service asked for before the next request, when pacing is on.
func (c *Client) pace(b *budget) error {
	if !c.pacing {
		return nil
	}
	c.paceMu.Lock()
	wait := time.Until(c.nextAllowed)
	c.paceMu.Unlock()
	if wait <= 0 {
		return nil
	}
	c.log(b.ctx, slog.LevelDebug, "pacing", slog.Duration("wait", wait))
	return b.sleep(wait)
}

// notePacing reads the seconds to wait before the next request from an answer, at the envelope's pacing path.
func (c *Client) notePacing(raw []byte) {
	m := c.envelopeModel()
	if !c.pacing || m == nil || len(m.NextRequestSeconds) == 0 {
		return
	}
	var value any
	if json.Unmarshal(raw, &value) != nil {
		return
	}
	for _, field := range m.NextRequestSeconds {
		record, ok := value.(map[string]any)
		if !ok {
			return
		}
		value = record[field]
	}
	seconds, ok := value.(float64)
	if !ok || seconds <= 0 {
		return
	}
	at := time.Now().Add(time.Duration(seconds * float64(time.Second)))
	c.paceMu.Lock()
	if at.After(c.nextAllowed) {
		c.nextAllowed = at
	}
	c.paceMu.Unlock()
}
