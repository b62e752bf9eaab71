package sdkruntime

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

func TestCallQueryAddsAndReplaces(t *testing.T) {
	srv := newScripted(t, step{body: okThing})
	c := newTestClient(t, srv.URL)
	in := Request{Path: map[string]string{"id": "t1"}, Query: url.Values{"page": {"2"}, "kind": {"a"}}}
	if _, err := c.Call(context.Background(), opRead, in, CallQuery("kind", "b"), CallQuery("trace", "t-1")); err != nil {
		t.Fatal(err)
	}
	q, err := url.ParseQuery(srv.got()[0].query)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(q["kind"], ",") != "b" || q.Get("page") != "2" || q.Get("trace") != "t-1" {
		t.Errorf("query = %v", q)
	}
}

func TestCallBodyFieldIsLaidOverTheBody(t *testing.T) {
	type thing struct {
		Name string `json:"name"`
		Note string `json:"note,omitempty"`
	}
	form := &Operation{ID: "addThing", Method: "POST", Path: "/things", RequestMediaType: MediaForm, Urlencoded: true, Security: [][]string{{"bearerAuth"}}}
	tests := []struct {
		name string
		op   *Operation
		body any
		want string
	}{
		{name: "over a struct body, under its JSON names", op: opWrite, body: thing{Name: "a", Note: "own"}, want: `{"extra":[1],"name":"a","note":"extra"}`},
		{name: "over a map body", op: opWrite, body: map[string]any{"name": "a"}, want: `{"extra":[1],"name":"a","note":"extra"}`},
		{name: "alone without a body", op: opWrite, body: nil, want: `{"extra":[1],"note":"extra"}`},
		{name: "over a form's fields", op: form, body: map[string]any{"name": "a"}, want: "extra=%5B1%5D&name=a&note=extra"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScripted(t, step{body: okThing})
			c := newTestClient(t, srv.URL)
			opts := []CallOption{CallBodyField("note", "extra"), CallBodyField("extra", []int{1})}
			if _, err := c.Call(context.Background(), tt.op, Request{Body: tt.body}, opts...); err != nil {
				t.Fatal(err)
			}
			got := srv.got()[0].body
			if tt.op == opWrite {
				var v any
				if err := json.Unmarshal([]byte(got), &v); err != nil {
					t.Fatal(err)
				}
				data, _ := json.Marshal(v)
				got = string(data)
			} else {
				v, _ := url.ParseQuery(got)
				got = v.Encode()
			}
			if got != tt.want {
				t.Errorf("body = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestCallBodyFieldRefusedBeforeSending(t *testing.T) {
	srv := newScripted(t, step{body: okThing})
	c := newTestClient(t, srv.URL)
	raw := &Operation{ID: "putRaw", Method: "PUT", Path: "/raw", RequestMediaType: "application/pdf"}
	form := &Operation{ID: "addThing", Method: "POST", Path: "/things", RequestMediaType: MediaForm}
	tests := []struct {
		name string
		op   *Operation
		in   Request
		want string
	}{
		{name: "a JSON body that is no object", op: opWrite, in: Request{Body: []int{1}}, want: "createThing: CallBodyField needs a body that encodes as a JSON object"},
		{name: "an operation without a body", op: opRead, in: Request{Path: map[string]string{"id": "t1"}}, want: "readThing: CallBodyField: the operation takes no request body"},
		{name: "a raw body", op: raw, in: Request{Body: []byte("%PDF")}, want: `putRaw: CallBodyField needs a JSON or form body`},
		{name: "a form body that is no map", op: form, in: Request{Body: []string{"x"}}, want: "addThing: CallBodyField needs a form body that is a map"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Call(context.Background(), tt.op, tt.in, CallBodyField("a", 1))
			if ce := errorsAs[*ConfigError](t, err); !strings.Contains(ce.Message, tt.want) {
				t.Errorf("message %q does not contain %q", ce.Message, tt.want)
			}
		})
	}
	if srv.count() != 0 {
		t.Errorf("requests = %d, want 0", srv.count())
	}
}

func TestMetaHoldsTheAnswer(t *testing.T) {
	srv := newScripted(t, step{status: 503, body: `{"status":"error","code":"BUSY","message":"busy"}`}, step{body: okThing, headers: map[string]string{"X-Request-Id": "req-2"}})
	c := newTestClient(t, srv.URL)
	res, err := c.Call(context.Background(), opRead, Request{Path: map[string]string{"id": "t1"}})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Meta
	if m.Status != 200 || m.RequestID != "req-2" || m.RequestCount != 2 || m.Response == nil || m.Response.StatusCode != 200 || m.Response.Request.URL.Path != "/things/t1" {
		t.Errorf("meta = %+v", m)
	}
}

func TestWithOptionsCopiesTheClient(t *testing.T) {
	srv := newScripted(t, step{status: 503, body: `{"status":"error","code":"BUSY","message":"busy"}`})
	c := newTestClient(t, srv.URL, WithHeader("X-Team", "a"), WithMaxRetries(2))
	copied, err := c.WithOptions(WithHeader("X-Copy", "1"), WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	in := Request{Path: map[string]string{"id": "t1"}}
	if _, err := copied.Call(context.Background(), opRead, in); err == nil {
		t.Fatal("a 503 succeeded")
	}
	if srv.count() != 1 {
		t.Fatalf("the copy sent %d requests, want 1 (no retries)", srv.count())
	}
	first := srv.got()[0].header
	if first.Get("X-Team") != "a" || first.Get("X-Copy") != "1" {
		t.Errorf("the copy's headers = %v", first)
	}
	if _, err := c.Call(context.Background(), opRead, in); err == nil {
		t.Fatal("a 503 succeeded")
	}
	if srv.count() != 4 {
		t.Errorf("the client sent %d requests, want 3 (two retries)", srv.count()-1)
	}
	if last := srv.got()[3].header; last.Get("X-Copy") != "" {
		t.Errorf("the client sends the copy's header: %v", last)
	}
	if _, err := c.WithOptions(WithMaxRetries(-1)); err == nil {
		t.Error("WithOptions accepted a negative retry count")
	}
}
