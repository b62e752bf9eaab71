// The generated Go clients of two descriptions of test/matrix against a local server: a body that offers JSON
// beside both forms travels as JSON (as the Python and TypeScript clients send it), and a header parameter named
// User-Agent is sent as the caller gave it, the client's own User-Agent going where no parameter sets one. Run by
// targets/go/test/request-choice.test.ts, which copies this file into a module beside the generated ones.
package e2e

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	agent "example.com/wire2-agent-sdk-go"
	jsonform "example.com/wire2-json-form-sdk-go"
)

type request struct {
	header http.Header
	body   string
}

// serveJSON answers every request with JSON and records it.
func serveJSON(t *testing.T) (*httptest.Server, *[]request) {
	t.Helper()
	var got []request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		got = append(got, request{header: r.Header.Clone(), body: string(data)})
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"ok":true,"name":"a","redirect_uris":[]}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &got
}

func TestBodyOfferingJSONAndFormsTravelsAsJSON(t *testing.T) {
	srv, got := serveJSON(t)
	c, err := jsonform.New(jsonform.WithBaseURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	body := &jsonform.App{Name: "a", RedirectUris: []string{"https://x.test/cb"}}
	if _, err := c.CreateApp(context.Background(), &jsonform.CreateAppParams{Body: body}); err != nil {
		t.Fatal(err)
	}
	r := (*got)[0]
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type = %q, body %q", ct, r.body)
	}
	var sent map[string]any
	if err := json.Unmarshal([]byte(r.body), &sent); err != nil {
		t.Fatalf("body %q: %v", r.body, err)
	}
	want := map[string]any{"name": "a", "redirect_uris": []any{"https://x.test/cb"}}
	if !reflect.DeepEqual(sent, want) {
		t.Errorf("body = %v, want %v", sent, want)
	}
}

func TestUserAgentParameterIsSentAsGiven(t *testing.T) {
	srv, got := serveJSON(t)
	c, err := agent.New(agent.WithBaseURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetEcho(context.Background(), &agent.GetEchoParams{UserAgent: "SiriKit/1.0", XTrace: agent.Ptr("t1")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetPlain(context.Background()); err != nil {
		t.Fatal(err)
	}
	if ua := (*got)[0].header.Values("User-Agent"); len(ua) != 1 || ua[0] != "SiriKit/1.0" {
		t.Errorf("with the parameter: User-Agent = %q", ua)
	}
	if trace := (*got)[0].header.Get("X-Trace"); trace != "t1" {
		t.Errorf("X-Trace = %q", trace)
	}
	if ua := (*got)[1].header.Get("User-Agent"); !strings.HasPrefix(ua, "wire2-agent-sdk-go/") {
		t.Errorf("without the parameter: User-Agent = %q", ua)
	}
}
