// The generated Go client of test/matrix's wire3-fragment-path.yaml against a local server: a path key with a
// #fragment (Microsoft's `/x#overload=stream`) is sent as the path before `#`, with the query after it, since a
// fragment never reaches the server. Run by targets/go/test/fragment-path.test.ts, which copies this file into a
// module beside the generated one.
package e2e

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	fragment "example.com/wire3-fragment-sdk-go"
)

func TestFragmentPathIsSentWithoutItsFragment(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		got = append(got, r.Method+" "+r.RequestURI+" "+r.Header.Get("Content-Type"))
		if r.Method == http.MethodPatch {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"size":1}`)
	}))
	t.Cleanup(srv.Close)
	c, err := fragment.New(fragment.WithBaseURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.ThumbnailFromStream(ctx, &fragment.ThumbnailFromStreamParams{Width: 64, Body: strings.NewReader("png")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ThumbnailFromURL(ctx, &fragment.ThumbnailFromURLParams{Width: 32, Body: &fragment.ThumbnailFromURLParamsBody{URL: "https://x.test/a.png"}}); err != nil {
		t.Fatal(err)
	}
	note := "n"
	if _, err := c.PatchItemsIDOverloadPatch(ctx, &fragment.PatchItemsIDOverloadPatchParams{ID: "a b", Note: &note}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"POST /thumbnail?width=64 application/octet-stream",
		"POST /thumbnail?width=32 application/json",
		"PATCH /items/a%20b?note=n ",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("requests:\n got %q\nwant %q", got, want)
	}
}
