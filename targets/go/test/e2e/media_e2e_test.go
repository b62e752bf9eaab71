// The generated Go clients of the media descriptions of test/matrix against a local server: a body declared only as
// application/x-www-form-urlencoded travels urlencoded, and a JSON schema under */* or application/* is decoded
// into its type, while a binary schema, or none, under */* stays a download. Run by targets/go/test/media.test.ts,
// which copies this file into a module beside the generated ones.
package e2e

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"

	mediaform "example.com/media-form-sdk-go"
	mediajsonsuffix "example.com/media-json-suffix-sdk-go"
	mediastar "example.com/media-star-sdk-go"
)

type received struct {
	contentType string
	body        string
}

// serve answers JSON under application/json and bytes under application/octet-stream, and records each request.
func serve(t *testing.T) (*httptest.Server, *[]received) {
	t.Helper()
	answers := map[string][2]string{
		"/charges":     {"application/json", `{"id":"ch_1"}`},
		"/info.0.json": {"application/json", `{"num":614,"title":"Woodpecker"}`},
		"/comics":      {"application/json", `[{"num":1},{"num":2}]`},
		"/raw":         {"application/octet-stream", `{"not":"parsed"}`},
		"/untyped":     {"application/octet-stream", "%PDF-1.7"},
		"/things/1":    {"application/vnd.things+json", `{"name":"b"}`},
		"/legacy":      {"text/json", `{"name":"old"}`},
	}
	var got []received
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		got = append(got, received{contentType: r.Header.Get("Content-Type"), body: string(data)})
		answer, ok := answers[r.URL.Path]
		if !ok {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Header().Set("Content-Type", answer[0])
		_, _ = io.WriteString(w, answer[1])
	}))
	t.Cleanup(srv.Close)
	return srv, &got
}

func TestUrlencodedOnlyBodyTravelsUrlencoded(t *testing.T) {
	srv, got := serve(t)
	c, err := mediaform.New(mediaform.WithBaseURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.CreateCharge(context.Background(), &mediaform.CreateChargeParams{Body: &mediaform.CreateChargeParamsBody{
		Amount:      100,
		Description: mediaform.Ptr("a b&c=d"),
		Expand:      []string{"x", "y"},
		Metadata:    map[string]string{"order": "7"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Data.ID == nil || *res.Data.ID != "ch_1" {
		t.Errorf("data %+v", res.Data)
	}
	r := (*got)[0]
	if r.contentType != "application/x-www-form-urlencoded" {
		t.Fatalf("Content-Type = %q, body %q", r.contentType, r.body)
	}
	values, err := url.ParseQuery(r.body)
	if err != nil {
		t.Fatal(err)
	}
	want := url.Values{"amount": {"100"}, "description": {"a b&c=d"}, "expand": {"x", "y"}, "metadata[order]": {"7"}}
	if !reflect.DeepEqual(values, want) {
		t.Errorf("fields %v, want %v", values, want)
	}
}

func TestBothFormsKeepMultipart(t *testing.T) {
	srv, got := serve(t)
	c, err := mediaform.New(mediaform.WithBaseURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddNote(context.Background(), &mediaform.AddNoteParams{Body: &mediaform.Note{Text: "hi"}}); err != nil {
		t.Fatal(err)
	}
	if r := (*got)[0]; !strings.HasPrefix(r.contentType, "multipart/form-data; boundary=") || !strings.Contains(r.body, `name="text"`) {
		t.Errorf("Content-Type %q, body %q", r.contentType, r.body)
	}
}

func TestJSONUnderMediaRangesIsDecoded(t *testing.T) {
	srv, _ := serve(t)
	c, err := mediastar.New(mediastar.WithBaseURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	comic, err := c.GetComic(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if comic.Data.Num != 614 || comic.Data.Title == nil || *comic.Data.Title != "Woodpecker" {
		t.Errorf("comic %+v", comic.Data)
	}
	list, err := c.ListComics(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Data) != 2 || list.Data[1].Num != 2 {
		t.Errorf("comics %+v", list.Data)
	}
}

func TestBinaryUnderStarStaysADownload(t *testing.T) {
	srv, _ := serve(t)
	c, err := mediastar.New(mediastar.WithBaseURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	var raw, untyped bytes.Buffer
	if _, err := c.GetRaw(context.Background(), &raw); err != nil {
		t.Fatal(err)
	}
	info, err := c.GetUntyped(context.Background(), &untyped)
	if err != nil {
		t.Fatal(err)
	}
	if raw.String() != `{"not":"parsed"}` || untyped.String() != "%PDF-1.7" || info.ContentType != "application/octet-stream" {
		t.Errorf("raw %q, untyped %q, %q", raw.String(), untyped.String(), info.ContentType)
	}
}

func TestMergePatchTravelsAsItsMediaType(t *testing.T) {
	srv, got := serve(t)
	c, err := mediajsonsuffix.New(mediajsonsuffix.WithBaseURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.PatchThing(context.Background(), &mediajsonsuffix.PatchThingParams{ID: "1", Body: &mediajsonsuffix.Thing{Name: mediajsonsuffix.Ptr("b")}})
	if err != nil {
		t.Fatal(err)
	}
	if r := (*got)[0]; r.contentType != "application/merge-patch+json" || r.body != `{"name":"b"}` {
		t.Errorf("Content-Type %q, body %q", r.contentType, r.body)
	}
	if res.Data.Name == nil || *res.Data.Name != "b" {
		t.Errorf("data %+v", res.Data)
	}
	legacy, err := c.GetLegacy(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if legacy.Data.Name == nil || *legacy.Data.Name != "old" {
		t.Errorf("legacy %+v", legacy.Data)
	}
}
