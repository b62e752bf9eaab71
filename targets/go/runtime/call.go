package sdkruntime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/textproto"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// Request holds the parameters and body of one call.
type Request struct {
	// Path holds the values of the path template's parameters by name.
	Path map[string]string
	// Query holds query parameters.
	Query url.Values
	// Header holds header parameters; CallHeader options and credentials win over them.
	Header map[string]string
	// Cookie holds cookie parameters, sent in one Cookie header (with an API key cookie after them).
	Cookie map[string]string
	// Body is the request body. For a JSON operation any value encoding/json accepts; for a form
	// (MediaMultipart, MediaForm) a map[string]any of fields whose values are strings, numbers, bools, []any,
	// *File (multipart only) or other values (sent as JSON text in multipart, as name[key] fields urlencoded); for any other media type []byte, string or an
	// io.Reader sent as it is. nil sends no body.
	Body any
}

// File is a file part of a multipart body.
type File struct {
	// Name is the file name sent with the part.
	Name string
	// ContentType is the part's media type; "" means application/octet-stream.
	ContentType string
	// Content is read once when the call starts.
	Content io.Reader
}

// Call sends a JSON operation and returns its answer. The call ends at the client's timeout (or CallTimeout, or
// the context's own deadline, whichever is first) and when the context is canceled; retries, with backoff and
// Retry-After, happen only where they cannot run a write twice.
func (c *Client) Call(ctx context.Context, op *Operation, in Request, opts ...CallOption) (*Result, error) {
	if op == nil {
		return nil, configError("Call: the operation is nil")
	}
	if op.Response == ResponseBinary {
		return nil, configError("%s: the operation answers with a file; use CallDownload", op.ID)
	}
	cs := collect(opts)
	b, cancel, err := c.newBudget(ctx, c.timeout, cs)
	if err != nil {
		return nil, err
	}
	defer cancel()
	r, err := c.prepare(op, in, cs, nil)
	if err != nil {
		return nil, err
	}
	a, err := c.send(b, r)
	if err != nil {
		return nil, err
	}
	return &Result{Data: a.raw, Meta: a.meta}, nil
}

// CallInto sends a JSON operation and decodes its answer into out (a pointer), returning the answer's meta. An
// answer that is JSON but does not fit out's type is read as far as it goes, with Meta.Unfit telling where it
// broke; a body that is not JSON is a *MalformedResponseError.
func (c *Client) CallInto(ctx context.Context, op *Operation, in Request, out any, opts ...CallOption) (*Meta, error) {
	res, err := c.Call(ctx, op, in, opts...)
	if err != nil {
		return nil, err
	}
	if out != nil && len(res.Data) > 0 {
		if err := json.Unmarshal(res.Data, out); err != nil {
			// JSON that does not fit out's type (an answer that breaks its schema) is read as far as it goes.
			var unfit *json.UnmarshalTypeError
			if !errors.As(err, &unfit) {
				return &res.Meta, &MalformedResponseError{Status: res.Meta.Status, Body: c.redact.text(snippet(res.Data)), Err: err}
			}
			res.Meta.Unfit = &redactedError{text: c.redact.text(err.Error()), err: err}
		}
	}
	return &res.Meta, nil
}

func snippet(b []byte) string {
	if len(b) > malformedSnippet {
		b = b[:malformedSnippet]
	}
	return string(b)
}

func collect(opts []CallOption) *callSettings {
	cs := &callSettings{}
	for _, o := range opts {
		if o != nil {
			o(cs)
		}
	}
	return cs
}

// prepare builds the request of an operation on its base address (see operationBase).
func (c *Client) prepare(op *Operation, in Request, cs *callSettings, jsonStrings []string) (*sendRequest, error) {
	if op.Method == "" || op.Path == "" {
		return nil, configError("operation %q: the model gives no method or path", op.ID)
	}
	baseURL, base, err := c.operationBase(op, cs.baseURL)
	if err != nil {
		return nil, err
	}
	u, err := c.operationURL(op, baseURL, in.Path, in.Query)
	if err != nil {
		return nil, err
	}
	if cs.nextURL != "" {
		if u, err = followLink(op, u, cs.nextURL); err != nil {
			return nil, err
		}
	}
	if len(cs.query) > 0 {
		q := u.Query()
		for name, values := range cs.query {
			q[name] = values
		}
		u.RawQuery = q.Encode()
	}
	r := &sendRequest{op: op, url: u, base: base, binary: op.Response == ResponseBinary, resendable: IsResendable(op), jobSubmission: op.Job == JobRoleSubmit}
	headers := map[string][]string{}
	for name, value := range in.Header {
		headers[name] = []string{value}
	}
	for name, values := range cs.headers {
		headers[name] = values
	}
	if len(in.Cookie) > 0 {
		names := make([]string, 0, len(in.Cookie))
		for name := range in.Cookie {
			names = append(names, name)
		}
		sort.Strings(names)
		pairs := make([]string, 0, len(names))
		for _, name := range names {
			pairs = append(pairs, url.QueryEscape(name)+"="+url.QueryEscape(in.Cookie[name]))
		}
		headers["Cookie"] = []string{strings.Join(pairs, "; ")}
	}
	if err := idempotencyHeader(op, cs, headers); err != nil {
		return nil, err
	}
	r.headers = headers
	if len(cs.extraBody) > 0 {
		if in.Body, err = withExtraBody(op, cs.mediaType, in.Body, cs.extraBody); err != nil {
			return nil, err
		}
	}
	if in.Body != nil {
		body, contentType, err := encodeBody(op, cs.mediaType, in.Body, append(append([]string(nil), jsonStrings...), cs.jsonStrings...))
		if err != nil {
			return nil, err
		}
		r.body, r.contentType = body, contentType
	}
	return r, nil
}

// withExtraBody lays the CallBodyField members over a body: a form's fields map, or a JSON body that encodes as an
// object (decoded into its members, so that a struct body keeps its own field names).
func withExtraBody(op *Operation, pick string, body any, extra map[string]any) (any, error) {
	form := pick == MediaMultipart || pick == MediaForm || (pick == "" && (op.RequestMediaType == MediaMultipart || op.RequestMediaType == MediaForm))
	switch {
	case form:
		fields, ok := body.(map[string]any)
		if body != nil && !ok {
			return nil, configError("%s: CallBodyField needs a form body that is a map[string]any, got %T", op.ID, body)
		}
		merged := make(map[string]any, len(fields)+len(extra))
		for name, value := range fields {
			merged[name] = value
		}
		for name, value := range extra {
			merged[name] = value
		}
		return merged, nil
	case op.RequestMediaType == MediaJSON:
		members := map[string]json.RawMessage{}
		if body != nil {
			data, err := json.Marshal(body)
			if err != nil {
				return nil, configError("%s: the body cannot be encoded as JSON: %v", op.ID, err)
			}
			if err := json.Unmarshal(data, &members); err != nil || members == nil {
				return nil, configError("%s: CallBodyField needs a body that encodes as a JSON object, got %T", op.ID, body)
			}
		}
		for name, value := range extra {
			data, err := json.Marshal(value)
			if err != nil {
				return nil, configError("%s: CallBodyField(%q): the value cannot be encoded as JSON: %v", op.ID, name, err)
			}
			members[name] = data
		}
		return members, nil
	case op.RequestMediaType == "":
		return nil, configError("%s: CallBodyField: the operation takes no request body", op.ID)
	default:
		return nil, configError("%s: CallBodyField needs a JSON or form body; the operation takes %q", op.ID, op.RequestMediaType)
	}
}

// encodeBody encodes a body for the operation's media type. An operation that accepts a form gets multipart
// (it carries files and every field alike), or urlencoded when it takes only that (Urlencoded), unless the call
// picks the other form, as the TypeScript runtime does.
func encodeBody(op *Operation, pick string, body any, jsonStrings []string) ([]byte, string, error) {
	mediaType := op.RequestMediaType
	if mediaType == MediaForm && !op.Urlencoded {
		mediaType = MediaMultipart
	}
	if pick != "" {
		if mediaType != MediaMultipart && mediaType != MediaForm {
			return nil, "", configError("%s: CallMediaType(%q): the operation takes %q, not a form", op.ID, pick, op.RequestMediaType)
		}
		if pick != MediaMultipart && pick != MediaForm {
			return nil, "", configError("%s: CallMediaType(%q): pick %s or %s", op.ID, pick, MediaMultipart, MediaForm)
		}
		mediaType = pick
	}
	switch mediaType {
	case "":
		return nil, "", configError("%s: the operation takes no request body", op.ID)
	case MediaJSON:
		data, err := json.Marshal(body)
		if err != nil {
			return nil, "", configError("%s: the body cannot be encoded as JSON: %v", op.ID, err)
		}
		if op.JSONMediaType != "" {
			return data, op.JSONMediaType, nil
		}
		return data, MediaJSON, nil
	case MediaMultipart, MediaForm:
		fields, ok := body.(map[string]any)
		if !ok {
			return nil, "", configError("%s: a %s body must be a map[string]any of fields, got %T", op.ID, mediaType, body)
		}
		return encodeForm(op, mediaType, fields, jsonStrings)
	default:
		switch v := body.(type) {
		case []byte:
			return v, mediaType, nil
		case string:
			return []byte(v), mediaType, nil
		case io.Reader:
			data, err := io.ReadAll(v)
			if err != nil {
				return nil, "", configError("%s: the body could not be read: %v", op.ID, err)
			}
			return data, mediaType, nil
		default:
			return nil, "", configError("%s: a %s body must be []byte, string or an io.Reader, got %T", op.ID, mediaType, body)
		}
	}
}

type formPart struct {
	name  string
	value string
	file  *File
}

func encodeForm(op *Operation, mediaType string, fields map[string]any, jsonStrings []string) ([]byte, string, error) {
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	sort.Strings(names)
	asJSON := map[string]bool{}
	for _, f := range jsonStrings {
		asJSON[f] = true
	}
	var parts []formPart
	for _, name := range names {
		value := fields[name]
		if value == nil {
			continue
		}
		if asJSON[name] {
			data, err := json.Marshal(value)
			if err != nil {
				return nil, "", configError("%s: body field %q cannot be encoded as JSON text: %v", op.ID, name, err)
			}
			parts = append(parts, formPart{name: name, value: string(data)})
			continue
		}
		field, err := formParts(op, mediaType, name, value)
		if err != nil {
			return nil, "", err
		}
		parts = append(parts, field...)
	}
	if mediaType == MediaForm {
		values := url.Values{}
		for _, p := range parts {
			values.Add(p.name, p.value)
		}
		return []byte(values.Encode()), MediaForm, nil
	}
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, p := range parts {
		if p.file == nil {
			if err := w.WriteField(p.name, p.value); err != nil {
				return nil, "", configError("%s: body field %q: %v", op.ID, p.name, err)
			}
			continue
		}
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, p.name, p.file.Name))
		ct := p.file.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		h.Set("Content-Type", ct)
		pw, err := w.CreatePart(h)
		if err == nil && p.file.Content != nil {
			_, err = io.Copy(pw, p.file.Content)
		}
		if err != nil {
			return nil, "", configError("%s: body field %q: the file could not be read: %v", op.ID, p.name, err)
		}
	}
	if err := w.Close(); err != nil {
		return nil, "", configError("%s: the multipart body could not be written: %v", op.ID, err)
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

// formParts flattens one field. In a urlencoded body nested objects go as name[key] and arrays holding objects as
// name[0][key], as the TypeScript runtime sends them and form APIs (Stripe's, Twilio's) read them; an array of
// plain values repeats the name. A multipart body keeps objects as JSON text.
func formParts(op *Operation, mediaType, name string, value any) ([]formPart, error) {
	if value == nil {
		return nil, nil
	}
	if mediaType == MediaForm {
		switch v := value.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var out []formPart
			for _, k := range keys {
				sub, err := formParts(op, mediaType, name+"["+k+"]", v[k])
				if err != nil {
					return nil, err
				}
				out = append(out, sub...)
			}
			return out, nil
		case []any:
			indexed := false
			for _, item := range v {
				switch item.(type) {
				case map[string]any, []any:
					indexed = true
				}
			}
			var out []formPart
			for i, item := range v {
				itemName := name
				if indexed {
					itemName = name + "[" + strconv.Itoa(i) + "]"
				}
				sub, err := formParts(op, mediaType, itemName, item)
				if err != nil {
					return nil, err
				}
				out = append(out, sub...)
			}
			return out, nil
		}
	}
	items := []any{value}
	if list, ok := value.([]any); ok {
		items = list
	}
	out := make([]formPart, 0, len(items))
	for _, item := range items {
		p, err := formValue(op, name, item)
		if err != nil {
			return nil, err
		}
		if p.file != nil && mediaType == MediaForm {
			return nil, configError("%s: body field %q is a file, which a %s body cannot carry; use %s", op.ID, name, MediaForm, MediaMultipart)
		}
		out = append(out, p)
	}
	return out, nil
}

func formValue(op *Operation, name string, v any) (formPart, error) {
	switch t := v.(type) {
	case string:
		return formPart{name: name, value: t}, nil
	case bool:
		return formPart{name: name, value: strconv.FormatBool(t)}, nil
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64, json.Number:
		return formPart{name: name, value: strings.TrimSpace(fmt.Sprint(t))}, nil
	case *File:
		if t == nil {
			return formPart{}, configError("%s: body field %q is a nil *File", op.ID, name)
		}
		return formPart{name: name, file: t}, nil
	default:
		data, err := json.Marshal(t)
		if err != nil {
			return formPart{}, configError("%s: body field %q (%T) cannot be encoded: %v", op.ID, name, v, err)
		}
		return formPart{name: name, value: string(data)}, nil
	}
}
