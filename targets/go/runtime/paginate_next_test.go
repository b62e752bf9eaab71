package sdkruntime

import (
	"context"
	"errors"
	"net/url"
	"reflect"
	"testing"
	"time"
)

var opCursor = &Operation{
	ID: "listEntries", Method: "GET", Path: "/entries", Idempotent: boolPtr(true),
	Pagination: &Pagination{Kind: PagingCursor, Cursor: "cursor", Next: "next_cursor", Items: "entries"},
}

var opLink = &Operation{
	ID: "listThings", Method: "GET", Path: "/things", Idempotent: boolPtr(true), Security: [][]string{{"bearerAuth"}},
	Pagination: &Pagination{Kind: PagingLink},
}

func TestCursorPagesThreePagesToTheEndWithTheCallHeader(t *testing.T) {
	s := newScripted(t,
		step{body: `{"entries":["a","b"],"next_cursor":"c2"}`},
		step{body: `{"entries":["c"],"next_cursor":"c3"}`},
		step{body: `{"entries":["d"],"next_cursor":null}`},
		step{body: `{"entries":["past"]}`},
	)
	c := newTestClient(t, s.URL)
	items, err := drain(Items(Pages[string, map[string]any](context.Background(), c, opCursor, withQuery("kind", "x"), CallHeader("X-Trace", "t1"))))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "c", "d"}; !reflect.DeepEqual(items, want) {
		t.Fatalf("items %v, want %v", items, want)
	}
	var cursors []string
	for _, r := range s.got() {
		q, _ := url.ParseQuery(r.query)
		cursors = append(cursors, q.Get("cursor"))
		if q.Get("kind") != "x" || r.header.Get("X-Trace") != "t1" {
			t.Errorf("request %q without the call's query or header", r.query)
		}
	}
	if want := []string{"", "c2", "c3"}; !reflect.DeepEqual(cursors, want) {
		t.Fatalf("cursors %v, want %v", cursors, want)
	}
}

func TestCursorStopsOnAnEmptyPageOrAnEmptyCursor(t *testing.T) {
	for _, body := range []string{`{"entries":[],"next_cursor":"again"}`, `{"entries":["a"],"next_cursor":""}`} {
		s := newScripted(t, step{body: body}, step{body: `{"entries":["past"]}`})
		if _, err := drain(Items(Pages[string, map[string]any](context.Background(), newTestClient(t, s.URL), opCursor, Request{}))); err != nil {
			t.Fatal(err)
		}
		if n := len(s.got()); n != 1 {
			t.Errorf("%s: %d requests, want 1", body, n)
		}
	}
}

func TestLinkPagesBelowTheBaseAddressWithCredentials(t *testing.T) {
	s := newScripted(t)
	s.steps = []step{
		{body: `[1,2]`, headers: map[string]string{"Link": `<` + s.URL + `/things?page=2>; rel="next", <` + s.URL + `/things?page=3>; rel="last"`}},
		{body: `[3]`, headers: map[string]string{"Link": `</things?page=3>; rel="next"`}},
		{body: `[4]`},
		{body: `[99]`},
	}
	c := newTestClient(t, s.URL)
	items, err := drain(Items(Pages[int, []int](context.Background(), c, opLink, withQuery("kind", "x"), CallHeader("X-Trace", "t2"))))
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 2, 3, 4}; !reflect.DeepEqual(items, want) {
		t.Fatalf("items %v, want %v", items, want)
	}
	var queries []string
	for _, r := range s.got() {
		queries = append(queries, r.query)
		if r.header.Get("Authorization") != "Bearer "+testToken || r.header.Get("X-Trace") != "t2" {
			t.Errorf("request %q without credentials or the call's header", r.query)
		}
	}
	if want := []string{"kind=x", "page=2", "page=3"}; !reflect.DeepEqual(queries, want) {
		t.Fatalf("queries %v, want %v", queries, want)
	}
}

func TestLinkToAnotherOriginIsRefusedBeforeSending(t *testing.T) {
	elsewhere := newScripted(t, step{body: `[2]`})
	s := newScripted(t, step{body: `[1]`, headers: map[string]string{"Link": `<` + elsewhere.URL + `/things?page=2>; rel="next"`}})
	items, err := drain(Items(Pages[int, []int](context.Background(), newTestClient(t, s.URL), opLink, Request{})))
	if !errors.Is(err, ErrForeignLink) {
		t.Fatalf("error %v, want ErrForeignLink", err)
	}
	if !reflect.DeepEqual(items, []int{1}) || len(elsewhere.got()) != 0 {
		t.Fatalf("items %v, %d requests elsewhere", items, len(elsewhere.got()))
	}
}

func TestNextPagesShareTheCallTimeout(t *testing.T) {
	s := newScripted(t, step{body: `{"entries":["a"],"next_cursor":"more"}`, delay: 150 * time.Millisecond})
	_, err := drain(Items(Pages[string, map[string]any](context.Background(), newTestClient(t, s.URL), opCursor, Request{}, CallTimeout(400*time.Millisecond))))
	var late *DeadlineExceededError
	if !errors.As(err, &late) || late.Deadline != 400*time.Millisecond {
		t.Fatalf("error %v, want a *DeadlineExceededError of the whole 400ms", err)
	}
	if n := len(s.got()); n < 2 || n > 3 {
		t.Fatalf("%d requests, want 2 or 3 within the deadline", n)
	}
}

func TestNextLink(t *testing.T) {
	cases := map[string]string{
		`<https://a.example/x?page=2>; rel="next"`:                                         "https://a.example/x?page=2",
		`<https://a.example/x?page=1>; rel="prev", <https://a.example/x?page=3>; rel=next`: "https://a.example/x?page=3",
		`<https://a.example/x?page=1>; rel="first"`:                                        "",
		``: "",
	}
	for header, want := range cases {
		if got := NextLink([]string{header}); got != want {
			t.Errorf("NextLink(%q) = %q, want %q", header, got, want)
		}
	}
}
