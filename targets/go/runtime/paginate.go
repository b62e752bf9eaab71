package sdkruntime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Pagination names how a read pages, as the description states or shows it: by a size and an offset (Kind
// empty), by a cursor (Kind PagingCursor) or by the next link of the answer's Link header (Kind PagingLink).
type Pagination struct {
	// Kind is "" for a read by limit and offset, PagingCursor or PagingLink.
	Kind string
	// Limit is the query parameter of the page size.
	Limit string
	// Offset is the query parameter of the number of items to skip.
	Offset string
	// Items is the answer's array field that holds a page's items; empty for a Link read whose answer is the array.
	Items string
	// Total is the answer's field that holds the number of items in all; empty when the answer reports none.
	Total string
	// Cursor is the query parameter that carries a cursor read's cursor.
	Cursor string
	// Next is the answer's field that holds a cursor read's next cursor (absent, null or empty on the last page).
	Next string
}

// The kinds of Pagination besides limit and offset.
const (
	PagingCursor = "cursor"
	PagingLink   = "link"
)

// DefaultPageSize is the page size of a paged read whose request sets none.
const DefaultPageSize = 100

// Page is one page of a paged read: its items, the whole answer and the answer's meta, with the page size and
// offset it was asked for with and the answer's total when it carries one.
type Page[T, D any] struct {
	Items  []T
	Data   D
	Meta   Meta
	Limit  int
	Offset int
	// Total is nil when the description names no total field or the answer carries no number there.
	Total *float64
	// Next is a cursor or Link read's next cursor or URL; empty on the last page.
	Next string
}

// errWholeIteration is the cause of a paged read's own deadline (CallTimeout, or the client's timeout when it is
// the only one), which bounds the whole iteration rather than each page.
var errWholeIteration = errors.New("sdkruntime: the deadline of the paged read passed")

// Pages reads the pages of a paged operation, from the offset in's query sets (default 0) with its page size
// (default DefaultPageSize), until a page comes back short or empty or the items read reach the answer's total.
// The result has the type of iter.Seq2[*Page[T, D], error]: range over it with Go 1.23 or later, or call it with
// a yield function. An error ends the iteration after it is yielded; so does yield returning false.
//
// ctx's deadline and a CallTimeout among opts bound the whole iteration, not each page: no page is asked for once
// either has passed, and the error is a *DeadlineExceededError. Without either, each page has the client's timeout.
// Each iteration starts over from the first page.
func Pages[T, D any](ctx context.Context, c *Client, op *Operation, in Request, opts ...CallOption) func(yield func(*Page[T, D], error) bool) {
	return func(yield func(*Page[T, D], error) bool) {
		if c == nil || op == nil || op.Pagination == nil {
			name := "Pages"
			if op != nil {
				name = op.ID
			}
			yield(nil, configError("%s: the description states no paging for it (x-paperoffice-pagination)", name))
			return
		}
		if ctx == nil {
			yield(nil, configError("the context is nil; pass context.Background() or a context of your own"))
			return
		}
		names := op.Pagination
		if names.Kind != "" {
			nextPages(ctx, c, op, in, opts, yield)
			return
		}
		limit := numberOr(in.Query.Get(names.Limit), DefaultPageSize)
		if limit <= 0 || limit != math.Trunc(limit) || limit > math.MaxInt32 {
			yield(nil, configError("%s: the page size (%s) must be a positive integer, got %v", op.ID, names.Limit, limit))
			return
		}
		offset := int(numberOr(in.Query.Get(names.Offset), 0))
		whole := collect(opts).timeout
		if whole < 0 {
			yield(nil, configError("CallTimeout: %s is not a positive duration", whole))
			return
		}
		if whole > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadlineCause(ctx, time.Now().Add(whole), errWholeIteration)
			defer cancel()
		}
		for {
			req := in
			req.Query = cloneValues(in.Query)
			req.Query.Set(names.Limit, strconv.Itoa(int(limit)))
			req.Query.Set(names.Offset, strconv.Itoa(offset))
			page, n, err := readPage[T, D](ctx, c, op, req, opts)
			if err != nil {
				var late *DeadlineExceededError
				if whole > 0 && errors.As(err, &late) && late.Deadline == 0 && errors.Is(context.Cause(ctx), errWholeIteration) {
					late.Deadline = whole
				}
				yield(nil, err)
				return
			}
			page.Limit, page.Offset = int(limit), offset
			if !yield(page, nil) {
				return
			}
			offset += n
			if n == 0 || n < int(limit) || (page.Total != nil && float64(offset) >= *page.Total) {
				return
			}
		}
	}
}

// Items reads every item of a paged operation's pages (see Pages), page after page. The result has the type of
// iter.Seq2[T, error].
func Items[T, D any](pages func(yield func(*Page[T, D], error) bool)) func(yield func(T, error) bool) {
	return func(yield func(T, error) bool) {
		pages(func(page *Page[T, D], err error) bool {
			if err != nil {
				var zero T
				yield(zero, err)
				return false
			}
			for _, item := range page.Items {
				if !yield(item, nil) {
					return false
				}
			}
			return true
		})
	}
}

// readPage sends one page's request and reads its items (how many the answer held, whatever their type), its total
// and the whole answer. An answer without the items array is a *MalformedResponseError.
func readPage[T, D any](ctx context.Context, c *Client, op *Operation, req Request, opts []CallOption) (*Page[T, D], int, error) {
	res, err := c.Call(ctx, op, req, opts...)
	if err != nil {
		return nil, 0, err
	}
	page := &Page[T, D]{Meta: res.Meta}
	names := op.Pagination
	var fields map[string]json.RawMessage
	var raw []json.RawMessage
	if json.Unmarshal(res.Data, &fields) != nil || json.Unmarshal(fields[names.Items], &raw) != nil || raw == nil {
		return nil, 0, &MalformedResponseError{
			Status: res.Meta.Status,
			Body:   c.redact.text(snippet(res.Data)),
			Err:    &pageShapeError{text: fmt.Sprintf("%s: the page at %s=%s has no array field %q", op.ID, names.Offset, req.Query.Get(names.Offset), names.Items)},
		}
	}
	// JSON that does not fit the Go types (an answer that breaks its schema) is read as far as it goes, as CallInto
	// reads it, with Meta.Unfit telling where it broke.
	unfit := func(err error) {
		var typeErr *json.UnmarshalTypeError
		if err != nil && errors.As(err, &typeErr) && page.Meta.Unfit == nil {
			page.Meta.Unfit = &redactedError{text: c.redact.text(err.Error()), err: err}
		}
	}
	unfit(json.Unmarshal(res.Data, &page.Data))
	page.Items = make([]T, len(raw))
	for i, item := range raw {
		unfit(json.Unmarshal(item, &page.Items[i]))
	}
	if reported := fields[names.Total]; names.Total != "" && len(reported) > 0 && string(reported) != "null" {
		var total float64
		if json.Unmarshal(reported, &total) == nil {
			page.Total = &total
		}
	}
	return page, len(raw), nil
}

// pageShapeError is a JSON page without the items array the description names.
type pageShapeError struct{ text string }

func (e *pageShapeError) Error() string { return e.text }

func numberOr(text string, fallback float64) float64 {
	if text == "" {
		return fallback
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return fallback
	}
	return v
}

func cloneValues(v map[string][]string) map[string][]string {
	out := make(map[string][]string, len(v)+2)
	for k, list := range v {
		out[k] = append([]string(nil), list...)
	}
	return out
}

// nextPages reads the pages of a cursor or Link read (see Pages): the first with in as it is, each next one with
// the answer's cursor set, or at the answer's next link, which must be at the operation's origin. Paging stops when
// an answer gives no next cursor or link, or after an empty page.
func nextPages[T, D any](ctx context.Context, c *Client, op *Operation, in Request, opts []CallOption, yield func(*Page[T, D], error) bool) {
	names := op.Pagination
	whole := collect(opts).timeout
	if whole < 0 {
		yield(nil, configError("CallTimeout: %s is not a positive duration", whole))
		return
	}
	if whole > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadlineCause(ctx, time.Now().Add(whole), errWholeIteration)
		defer cancel()
	}
	next := ""
	for {
		req, pageOpts := in, opts
		switch {
		case next != "" && names.Kind == PagingCursor:
			req.Query = cloneValues(in.Query)
			req.Query.Set(names.Cursor, next)
		case next != "":
			// The link holds the next page's whole query.
			req.Query = nil
			pageOpts = append(opts[:len(opts):len(opts)], func(s *callSettings) { s.nextURL = next })
		}
		page, n, err := readNextPage[T, D](ctx, c, op, req, pageOpts)
		if err != nil {
			var late *DeadlineExceededError
			if whole > 0 && errors.As(err, &late) && late.Deadline == 0 && errors.Is(context.Cause(ctx), errWholeIteration) {
				late.Deadline = whole
			}
			yield(nil, err)
			return
		}
		if !yield(page, nil) || page.Next == "" || n == 0 {
			return
		}
		next = page.Next
	}
}

// readNextPage sends one page's request of a cursor or Link read and reads its items, its next cursor or link and
// the whole answer. An answer without the items array is a *MalformedResponseError.
func readNextPage[T, D any](ctx context.Context, c *Client, op *Operation, req Request, opts []CallOption) (*Page[T, D], int, error) {
	res, err := c.Call(ctx, op, req, opts...)
	if err != nil {
		return nil, 0, err
	}
	page := &Page[T, D]{Meta: res.Meta}
	names := op.Pagination
	var fields map[string]json.RawMessage
	var raw []json.RawMessage
	list := res.Data
	if names.Items != "" {
		if json.Unmarshal(res.Data, &fields) != nil {
			fields = nil
		}
		list = fields[names.Items]
	}
	if json.Unmarshal(list, &raw) != nil || raw == nil {
		where := "answer"
		if names.Items != "" {
			where = fmt.Sprintf("field %q", names.Items)
		}
		return nil, 0, &MalformedResponseError{
			Status: res.Meta.Status,
			Body:   c.redact.text(snippet(res.Data)),
			Err:    &pageShapeError{text: fmt.Sprintf("%s: a page has no array %s", op.ID, where)},
		}
	}
	unfit := func(err error) {
		var typeErr *json.UnmarshalTypeError
		if err != nil && errors.As(err, &typeErr) && page.Meta.Unfit == nil {
			page.Meta.Unfit = &redactedError{text: c.redact.text(err.Error()), err: err}
		}
	}
	unfit(json.Unmarshal(res.Data, &page.Data))
	page.Items = make([]T, len(raw))
	for i, item := range raw {
		unfit(json.Unmarshal(item, &page.Items[i]))
	}
	if names.Kind == PagingCursor {
		var cursor *string
		if json.Unmarshal(fields[names.Next], &cursor) == nil && cursor != nil {
			page.Next = *cursor
		}
	} else {
		page.Next = NextLink(res.Meta.Header.Values("Link"))
	}
	return page, len(raw), nil
}

// ErrForeignLink is what a paged read's next link to another origin than the operation's is: it is not followed,
// so that the client's credentials go nowhere else.
var ErrForeignLink = errors.New("sdkruntime: the next link is at another origin")

var (
	linkValue = regexp.MustCompile(`<([^>]*)>([^,<]*)`)
	linkRel   = regexp.MustCompile(`(?i);\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))`)
)

// NextLink is the URL of the rel="next" link of Link header values (RFC 8288); "" when there is none.
func NextLink(values []string) string {
	for _, value := range values {
		for _, m := range linkValue.FindAllStringSubmatch(value, -1) {
			rel := linkRel.FindStringSubmatch(m[2])
			if rel == nil {
				continue
			}
			for _, r := range strings.Fields(strings.ToLower(rel[1] + rel[2])) {
				if r == "next" {
					return m[1]
				}
			}
		}
	}
	return ""
}

// followLink is the URL a next link leads to, resolved against the page's own URL; another origin is refused.
func followLink(op *Operation, at *url.URL, link string) (*url.URL, error) {
	next, err := at.Parse(link)
	if err != nil {
		return nil, fmt.Errorf("%s: the next link %q is no URL: %w", op.ID, link, err)
	}
	if !strings.EqualFold(next.Scheme, at.Scheme) || !strings.EqualFold(next.Host, at.Host) {
		return nil, fmt.Errorf("%s: the next link goes to %s://%s, not to the operation's origin %s://%s; it is not followed: %w",
			op.ID, next.Scheme, next.Host, at.Scheme, at.Host, ErrForeignLink)
	}
	return next, nil
}
