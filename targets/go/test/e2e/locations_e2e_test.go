// The generated Go client of the hostile "locations" description (header, cookie and query parameters, and fields
// named like Object.prototype's members), sending to a local server; run by targets/go/test/hostile.test.ts, which
// copies this file into a module beside the generated one.
package e2e

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	locations "example.com/locations-sdk-go"
)

func TestParametersTravelWhereTheyAreDeclared(t *testing.T) {
	var got *http.Request
	var body map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		data, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(data, &body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"ok":true}`)
	}))
	defer srv.Close()
	c, err := locations.New(locations.WithBaseURL(srv.URL), locations.WithToken("t"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Send(context.Background(), &locations.SendParams{
		XRequestID:  "r-1",
		XTags:       []string{"a", "b"},
		Session:     locations.Ptr("s-1"),
		Proto:       locations.Ptr("p"),
		Constructor: locations.Ptr("c"),
		Body:        &locations.SendParamsBody{Proto: locations.Ptr("bp"), Constructor: locations.Ptr("bc"), ToString: locations.Ptr("bt")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.Header.Get("X-Request-Id") != "r-1" || got.Header.Get("X-Tags") != "a,b" {
		t.Errorf("headers %v", got.Header)
	}
	if cookie, err := got.Cookie("session"); err != nil || cookie.Value != "s-1" {
		t.Errorf("cookie session: %v %v", cookie, err)
	}
	if q := got.URL.Query(); q.Get("__proto__") != "p" || q.Get("constructor") != "c" {
		t.Errorf("query %v", q)
	}
	if body["__proto__"] != "bp" || body["constructor"] != "bc" || body["toString"] != "bt" {
		t.Errorf("body %v", body)
	}
}
