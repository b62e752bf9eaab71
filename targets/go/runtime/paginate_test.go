package sdkruntime

import (
	"context"
	"errors"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"
)

var opList = &Operation{
	ID: "listEntries", Method: "GET", Path: "/entries", Idempotent: boolPtr(true),
	Pagination: &Pagination{Limit: "page_size", Offset: "from", Items: "entries", Total: "count"},
}

type entryPage struct {
	Entries []string `json:"entries"`
	Count   *int     `json:"count"`
}

func pageBody(count string, items ...string) string {
	quoted := make([]string, len(items))
	for i, item := range items {
		quoted[i] = `"` + item + `"`
	}
	body := `{"status":"success","entries":[` + strings.Join(quoted, ",") + `]`
	if count != "" {
		body += `,"count":` + count
	}
	return body + "}"
}

// drain collects what a sequence yields until it ends or yields an error, without range-over-func (the module is on
// Go 1.22).
func drain[T any](seq func(yield func(T, error) bool)) ([]T, error) {
	var got []T
	var failed error
	seq(func(v T, err error) bool {
		if err != nil {
			failed = err
			return false
		}
		got = append(got, v)
		return true
	})
	return got, failed
}

func withQuery(pairs ...string) Request {
	q := url.Values{}
	for i := 0; i+1 < len(pairs); i += 2 {
		q.Set(pairs[i], pairs[i+1])
	}
	return Request{Query: q}
}

func TestPagesItemsAcrossThreePagesUntilTheTotal(t *testing.T) {
	s := newScripted(t, step{body: pageBody("6", "a", "b")}, step{body: pageBody("6", "c", "d")}, step{body: pageBody("6", "e", "f")}, step{body: pageBody("", "past")})
	c := newTestClient(t, s.URL)
	items, err := drain(Items(Pages[string, entryPage](context.Background(), c, opList, withQuery("page_size", "2", "kind", "x"))))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "c", "d", "e", "f"}; !reflect.DeepEqual(items, want) {
		t.Fatalf("items %v, want %v", items, want)
	}
	var offsets []string
	for _, r := range s.got() {
		q, _ := url.ParseQuery(r.query)
		if q.Get("page_size") != "2" || q.Get("kind") != "x" || len(q["from"]) != 1 {
			t.Errorf("request query %q", r.query)
		}
		offsets = append(offsets, q.Get("from"))
	}
	if want := []string{"0", "2", "4"}; !reflect.DeepEqual(offsets, want) {
		t.Fatalf("offsets %v, want %v", offsets, want)
	}
}

func TestPagesStopAtAShortOrEmptyPageWithTheirMeta(t *testing.T) {
	s := newScripted(t, step{body: pageBody("", "a", "b")}, step{body: pageBody("", "c")}, step{body: pageBody("", "past")})
	pages, err := drain(Pages[string, entryPage](context.Background(), newTestClient(t, s.URL), opList, withQuery("page_size", "2", "from", "10")))
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 2 || s.count() != 2 {
		t.Fatalf("%d pages from %d requests, want 2 and 2", len(pages), s.count())
	}
	if p := pages[1]; p.Offset != 12 || p.Limit != 2 || p.Total != nil || p.Meta.Status != 200 || !reflect.DeepEqual(p.Data.Entries, []string{"c"}) {
		t.Fatalf("second page %+v", p)
	}
	empty := newScripted(t, step{body: pageBody("9", "a", "b")}, step{body: pageBody("9")}, step{body: pageBody("9", "past")})
	items, err := drain(Items(Pages[string, entryPage](context.Background(), newTestClient(t, empty.URL), opList, withQuery("page_size", "2"))))
	if err != nil || !reflect.DeepEqual(items, []string{"a", "b"}) || empty.count() != 2 {
		t.Fatalf("items %v, %v after %d requests", items, err, empty.count())
	}
}

func TestPagesRefuseBeforeSending(t *testing.T) {
	s := newScripted(t, step{body: pageBody("", "a")})
	c := newTestClient(t, s.URL)
	_, err := drain(Pages[string, entryPage](context.Background(), c, opList, withQuery("page_size", "0")))
	var config *ConfigError
	if !errors.As(err, &config) || !strings.Contains(err.Error(), "listEntries: the page size (page_size) must be a positive integer") {
		t.Fatalf("error %v", err)
	}
	_, err = drain(Pages[string, entryPage](context.Background(), c, opRead, Request{}))
	if !errors.As(err, &config) || !strings.Contains(err.Error(), "states no paging") {
		t.Fatalf("error %v", err)
	}
	if s.count() != 0 {
		t.Fatalf("%d requests sent", s.count())
	}
	bad := newScripted(t, step{body: `{"status":"success","rows":[]}`})
	_, err = drain(Pages[string, entryPage](context.Background(), newTestClient(t, bad.URL), opList, Request{}))
	var malformed *MalformedResponseError
	if !errors.As(err, &malformed) || !strings.Contains(err.Error(), `the page at from=0 has no array field "entries"`) {
		t.Fatalf("error %v", err)
	}
}

func TestPagesDeadlineBoundsTheWholeIteration(t *testing.T) {
	slow := 400 * time.Millisecond
	for _, how := range []string{"CallTimeout", "context"} {
		t.Run(how, func(t *testing.T) {
			s := newScripted(t, step{body: pageBody("", "a", "b"), delay: slow}, step{body: pageBody("", "c", "d"), delay: slow}, step{body: pageBody("", "e", "f"), delay: slow}, step{body: pageBody("", "g")})
			ctx := context.Background()
			var opts []CallOption
			if how == "context" {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, 1000*time.Millisecond)
				defer cancel()
			} else {
				opts = append(opts, CallTimeout(1000*time.Millisecond))
			}
			start := time.Now()
			items, err := drain(Items(Pages[string, entryPage](ctx, newTestClient(t, s.URL), opList, withQuery("page_size", "2"), opts...)))
			var late *DeadlineExceededError
			if !errors.As(err, &late) {
				t.Fatalf("error %v after items %v, want the deadline", err, items)
			}
			if how == "CallTimeout" && late.Deadline != 1000*time.Millisecond {
				t.Errorf("deadline %s, want the whole iteration's 1s", late.Deadline)
			}
			if !reflect.DeepEqual(items, []string{"a", "b", "c", "d"}) || s.count() != 3 {
				t.Errorf("items %v from %d requests, want the first two pages' from 3", items, s.count())
			}
			if elapsed := time.Since(start); elapsed > 1000*time.Millisecond+lateMargin {
				t.Errorf("ended after %s", elapsed)
			}
		})
	}
}
