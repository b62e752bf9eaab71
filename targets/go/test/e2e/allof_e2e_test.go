// The generated Go client of test/matrix/descriptions/go-allof-recursion.yaml (recursion through allOf, generated as
// example.com/allof-sdk-go) sending to a local server; run by targets/go/test/shapes.test.ts, which copies this file
// into a module beside the generated one.
package e2e

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	allof "example.com/allof-sdk-go"
)

func TestAnAllOfOfOneReferenceIsTheNamedType(t *testing.T) {
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"name":"a","condition":{"name":"b","condition":{"name":"c"}},"bindings":[{"name":"d"}],"weighted":{"weight":2,"condition":{"name":"e"}}}`)
	}))
	defer srv.Close()
	c, err := allof.New(allof.WithBaseURL(srv.URL), allof.WithToken("t"))
	if err != nil {
		t.Fatal(err)
	}
	// Condition and the bindings are Property itself, not copies of it: a Property fits them.
	inner := allof.Property{Name: allof.Ptr("b")}
	res, err := c.PutProperty(context.Background(), &allof.PutPropertyParams{Body: &allof.PutPropertyParamsBody{
		Name:      allof.Ptr("a"),
		Condition: &inner,
		Bindings:  []allof.Property{inner},
		Weighted:  &allof.PropertyWeighted{Weight: allof.Ptr(1.5), Condition: &inner},
		Note:      allof.Ptr("n"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	var sent map[string]any
	if err := json.Unmarshal(body, &sent); err != nil {
		t.Fatal(err)
	}
	weighted, _ := sent["weighted"].(map[string]any)
	if sent["note"] != "n" || weighted["weight"] != 1.5 || len(sent["bindings"].([]any)) != 1 {
		t.Fatalf("sent %s", body)
	}
	var got allof.Property = res.Data
	if got.Condition == nil || got.Condition.Condition == nil || *got.Condition.Condition.Name != "c" {
		t.Fatalf("condition = %+v", got.Condition)
	}
	if len(got.Bindings) != 1 || *got.Bindings[0].Name != "d" || got.Weighted == nil || *got.Weighted.Weight != 2 || *got.Weighted.Condition.Name != "e" {
		t.Fatalf("answer = %+v", got)
	}
}
