package sdkruntime

import (
	"context"
	"io"
	"net/url"
	"strings"
	"testing"
)

func TestFormEncoding(t *testing.T) {
	multipartOp := &Operation{ID: "addThing", Method: "POST", Path: "/things", RequestMediaType: MediaMultipart, Security: [][]string{{"bearerAuth"}}}
	formOp := &Operation{ID: "addThing", Method: "POST", Path: "/things", RequestMediaType: MediaForm, Urlencoded: true, Security: [][]string{{"bearerAuth"}}}
	// As clients generated before Urlencoded describe an operation that takes both forms.
	legacyOp := &Operation{ID: "addThing", Method: "POST", Path: "/things", RequestMediaType: MediaForm, Security: [][]string{{"bearerAuth"}}}
	body := map[string]any{"name": "a b", "count": 3, "flag": false, "meta": map[string]any{"k": "v"}, "skip": nil, "tags": []any{"x", "y"},
		"items": []any{map[string]any{"price": "p 1", "n": 2}}}
	tests := []struct {
		name  string
		op    *Operation
		opts  []CallOption
		check func(t *testing.T, r recorded)
	}{
		{name: "a multipart operation sends multipart", op: multipartOp, check: func(t *testing.T, r recorded) {
			if !strings.HasPrefix(r.header.Get("Content-Type"), "multipart/form-data; boundary=") {
				t.Fatalf("Content-Type = %q", r.header.Get("Content-Type"))
			}
			f := formFields(t, r)
			if f["name"] != "a b" || f["count"] != "3" || f["flag"] != "false" || f["meta"] != `{"k":"v"}` || f["tags"] != "x" {
				t.Errorf("fields = %v", f)
			}
			if _, ok := f["skip"]; ok {
				t.Error("a nil field is sent")
			}
		}},
		{name: "a form operation without Urlencoded sends multipart", op: legacyOp, check: func(t *testing.T, r recorded) {
			if !strings.HasPrefix(r.header.Get("Content-Type"), "multipart/form-data; boundary=") {
				t.Fatalf("Content-Type = %q", r.header.Get("Content-Type"))
			}
		}},
		{name: "a urlencoded operation sends urlencoded, nested objects as name[key]", op: formOp, check: func(t *testing.T, r recorded) {
			if r.header.Get("Content-Type") != MediaForm {
				t.Fatalf("Content-Type = %q", r.header.Get("Content-Type"))
			}
			v, err := url.ParseQuery(r.body)
			if err != nil {
				t.Fatal(err)
			}
			if v.Get("name") != "a b" || v.Get("flag") != "false" || v.Get("meta[k]") != "v" || strings.Join(v["tags"], ",") != "x,y" || v.Has("skip") ||
				v.Get("items[0][price]") != "p 1" || v.Get("items[0][n]") != "2" {
				t.Errorf("values = %v", v)
			}
		}},
		{name: "multipart when picked for a urlencoded operation", op: formOp, opts: []CallOption{CallMediaType(MediaMultipart)}, check: func(t *testing.T, r recorded) {
			if !strings.HasPrefix(r.header.Get("Content-Type"), "multipart/form-data; boundary=") {
				t.Fatalf("Content-Type = %q", r.header.Get("Content-Type"))
			}
		}},
		{name: "urlencoded when picked", op: multipartOp, opts: []CallOption{CallMediaType(MediaForm), CallJSONStrings("name")}, check: func(t *testing.T, r recorded) {
			if r.header.Get("Content-Type") != MediaForm {
				t.Fatalf("Content-Type = %q", r.header.Get("Content-Type"))
			}
			v, err := url.ParseQuery(r.body)
			if err != nil {
				t.Fatal(err)
			}
			if v.Get("name") != `"a b"` || v.Get("count") != "3" || strings.Join(v["tags"], ",") != "x,y" {
				t.Errorf("values = %v", v)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScripted(t, step{body: okThing})
			c := newTestClient(t, srv.URL)
			if _, err := c.Call(context.Background(), tt.op, Request{Body: body}, tt.opts...); err != nil {
				t.Fatal(err)
			}
			tt.check(t, srv.got()[0])
		})
	}
}

func TestBodyErrorsBeforeSending(t *testing.T) {
	srv := newScripted(t, step{body: okThing})
	c := newTestClient(t, srv.URL)
	form := &Operation{ID: "addThing", Method: "POST", Path: "/things", RequestMediaType: MediaForm}
	tests := []struct {
		name string
		op   *Operation
		in   Request
		opts []CallOption
		want string
	}{
		{name: "file in urlencoded", op: form, in: Request{Body: map[string]any{"f": &File{Name: "a.pdf", Content: strings.NewReader("x")}}}, opts: []CallOption{CallMediaType(MediaForm)}, want: `body field "f" is a file`},
		{name: "form body not a map", op: form, in: Request{Body: []string{"x"}}, want: "must be a map[string]any"},
		{name: "missing path parameter", op: opRead, in: Request{}, want: "path parameter id has no value"},
		{name: "JSON that cannot be encoded", op: opWrite, in: Request{Body: map[string]any{"c": make(chan int)}}, want: "cannot be encoded as JSON"},
		{name: "media type on a JSON operation", op: opWrite, in: Request{Body: map[string]any{}}, opts: []CallOption{CallMediaType(MediaForm)}, want: "not a form"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Call(context.Background(), tt.op, tt.in, tt.opts...)
			if ce := errorsAs[*ConfigError](t, err); !strings.Contains(ce.Message, tt.want) {
				t.Errorf("message %q does not contain %q", ce.Message, tt.want)
			}
		})
	}
	if srv.count() != 0 {
		t.Errorf("requests = %d, want 0", srv.count())
	}
}

func TestParametersTravel(t *testing.T) {
	srv := newScripted(t, step{body: okThing})
	c, err := New(authModel(), WithBaseURL(srv.URL), WithLookupEnv(noEnv), WithAPIKey("ck1"), WithHeader("X-Trace", "client"))
	if err != nil {
		t.Fatal(err)
	}
	op := &Operation{ID: "findThings", Method: "GET", Path: "/things/{kind}", Security: [][]string{{"cookieKey"}}}
	in := Request{
		Path:   map[string]string{"kind": "pdf"},
		Query:  url.Values{"q": {"a b"}, "tag": {"x", "y"}},
		Header: map[string]string{"X-Trace": "param", "X-Page": "2"},
		Cookie: map[string]string{"theme": "dark", "lang": "de"},
	}
	if _, err := c.Call(context.Background(), op, in, CallHeader("X-Page", "3")); err != nil {
		t.Fatal(err)
	}
	r := srv.got()[0]
	if r.path != "/things/pdf" || r.query != "q=a+b&tag=x&tag=y" {
		t.Errorf("path %q query %q", r.path, r.query)
	}
	if r.header.Get("X-Page") != "3" || r.header.Get("X-Trace") != "param" {
		t.Errorf("X-Page %q (the call's header wins), X-Trace %q (a header parameter wins over the client's)", r.header.Get("X-Page"), r.header.Get("X-Trace"))
	}
	if got := r.header.Get("Cookie"); got != "lang=de; theme=dark; session=ck1" {
		t.Errorf("Cookie = %q", got)
	}
}

func TestAcceptHeader(t *testing.T) {
	srv := newScripted(t, step{body: okThing}, step{body: okThing}, step{body: "%PDF"})
	c := newTestClient(t, srv.URL)
	op := &Operation{ID: "getThing", Method: "GET", Path: "/things/1"}
	if _, err := c.Call(context.Background(), op, Request{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Call(context.Background(), op, Request{Header: map[string]string{"accept": "application/vnd.x+json"}}); err != nil {
		t.Fatal(err)
	}
	file := &Operation{ID: "getFile", Method: "GET", Path: "/files/1", Response: ResponseBinary}
	if _, err := c.CallDownload(context.Background(), file, Request{}, io.Discard); err != nil {
		t.Fatal(err)
	}
	got := srv.got()
	if a := got[0].header.Get("Accept"); a != "application/json, */*;q=0.8" {
		t.Errorf("a JSON operation: Accept = %q", a)
	}
	if a := got[1].header.Values("Accept"); len(a) != 1 || a[0] != "application/vnd.x+json" {
		t.Errorf("with an Accept parameter: Accept = %q", a)
	}
	if a := got[2].header.Get("Accept"); strings.Contains(a, "application/json") {
		t.Errorf("a binary operation: Accept = %q", a)
	}
}
