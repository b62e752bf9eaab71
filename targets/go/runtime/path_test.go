package sdkruntime

import (
	"context"
	"io"
	"testing"
)

const refusedRead = `readThing: path parameter id must not be empty, "." or ".."`

func TestFillPathRefusesEmptyAndDotSegments(t *testing.T) {
	for _, v := range []string{"", ".", ".."} {
		_, err := fillPath(opRead, map[string]string{"id": v})
		if ce := errorsAs[*ConfigError](t, err); ce.Message != refusedRead {
			t.Errorf("%q: message %q, want %q", v, ce.Message, refusedRead)
		}
	}
}

func TestFillPathLetsOtherValuesThroughEscaped(t *testing.T) {
	for given, want := range map[string]string{
		"...":    "/things/...",
		".a":     "/things/.a",
		"%2e%2e": "/things/%252e%252e",
		"%2E":    "/things/%252E",
		"../x":   "/things/..%2Fx",
		"0":      "/things/0",
	} {
		got, err := fillPath(opRead, map[string]string{"id": given})
		if err != nil || got != want {
			t.Errorf("%q: got %q, %v; want %q", given, got, err, want)
		}
	}
}

func TestFillPathNamesTheParameterAndLeavesTheValueOut(t *testing.T) {
	op := &Operation{ID: "getFile", Method: "GET", Path: "/a/{x}/{token}"}
	_, err := fillPath(op, map[string]string{"x": "1", "token": ".."})
	want := `getFile: path parameter token must not be empty, "." or ".."`
	if ce := errorsAs[*ConfigError](t, err); ce.Message != want {
		t.Errorf("message %q, want %q", ce.Message, want)
	}
}

// Over HTTP: an operation, a wait by job id and a download by token each refuse before anything reaches the server.
func TestEmptyOrDotPathParametersReachNoServer(t *testing.T) {
	srv := newScripted(t, step{body: okThing})
	c := newTestClient(t, srv.URL)
	ctx := context.Background()
	for _, v := range []string{"", ".", ".."} {
		_, err := c.Call(ctx, opRead, Request{Path: map[string]string{"id": v}})
		if ce := errorsAs[*ConfigError](t, err); ce.Message != refusedRead {
			t.Errorf("Call %q: message %q", v, ce.Message)
		}
	}
	_, err := c.Wait(ctx, "..")
	if ce := errorsAs[*ConfigError](t, err); ce.Message != `getJob: path parameter job_id must not be empty, "." or ".."` {
		t.Errorf("Wait: message %q", ce.Message)
	}
	_, err = c.Download(ctx, ".", io.Discard)
	if ce := errorsAs[*ConfigError](t, err); ce.Message != `downloadFile: path parameter token must not be empty, "." or ".."` {
		t.Errorf("Download: message %q", ce.Message)
	}
	if n := srv.count(); n != 0 {
		t.Errorf("requests = %d, want 0", n)
	}
}

func TestPercentEncodedDotsAreSentAsAPlainSegment(t *testing.T) {
	srv := newScripted(t, step{body: okThing})
	c := newTestClient(t, srv.URL)
	if _, err := c.Call(context.Background(), opRead, Request{Path: map[string]string{"id": "%2e%2e"}}); err != nil {
		t.Fatal(err)
	}
	if got := srv.got(); len(got) != 1 || got[0].rawPath != "/things/%252e%252e" {
		t.Errorf("requests %+v, want one to /things/%%252e%%252e", got)
	}
}
