package sdkruntime

import (
	"context"
	"strings"
	"testing"
	"time"
)

// variantClient is a test client whose pipeline pdf-merge has two variants chosen by "mode", and pdf-open one whose
// parameters are not shown.
func variantClient(t *testing.T, baseURL string) *Client {
	t.Helper()
	m := testModel()
	m.Pipelines["pdf-merge"] = Pipeline{PayloadAfterPolling: "result", Variants: []VariantFields{
		{Name: "pages", DiscriminatorProperty: "mode", DiscriminatorValue: "pages", Fields: []string{"mode", "files", "order"}},
		{Name: "bookmarks", DiscriminatorProperty: "mode", DiscriminatorValue: "bookmarks", Fields: []string{"mode", "files", "depth"}},
	}}
	m.Pipelines["pdf-open"] = Pipeline{PayloadAfterPolling: "result", Variants: []VariantFields{{Name: "default", Open: true}}}
	c, err := New(m, WithBaseURL(baseURL), WithToken(testToken), WithRetryDelays(time.Millisecond, 5*time.Millisecond), WithLookupEnv(noEnv), WithPollInterval(5*time.Millisecond, 10*time.Millisecond))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

func TestSubmitRefusesAMisspeltBodyFieldBeforeSending(t *testing.T) {
	srv := newScripted(t, step{body: heldCompleted})
	c := variantClient(t, srv.URL)
	_, err := c.Submit(context.Background(), "pdf-merge", map[string]any{"mode": "pages", "files": "a", "oder": "1"})
	config := errorsAs[*ConfigError](t, err)
	want := `submitJob: unknown field "oder" in the body for pipeline "pdf-merge" (mode "pages"); nothing was sent. Did you mean "order" for "oder"?`
	if config.Message != want {
		t.Errorf("message = %q\nwant      %q", config.Message, want)
	}
	_, err = c.Start(context.Background(), "pdf-merge", map[string]any{"mode": "pages", "depth": 2, "zzz": true})
	config = errorsAs[*ConfigError](t, err)
	if !strings.Contains(config.Message, `unknown fields "depth", "zzz" in the body for pipeline "pdf-merge"`) {
		t.Errorf("message = %q; want both fields named", config.Message)
	}
	if srv.count() != 0 {
		t.Errorf("requests = %d, want 0", srv.count())
	}
}

func TestSubmitSendsDeclaredFieldsAndAnyFieldOfAnOpenVariant(t *testing.T) {
	srv := newScripted(t, step{body: heldCompleted})
	c := variantClient(t, srv.URL)
	bodies := []struct {
		pipeline string
		body     map[string]any
	}{
		{"pdf-merge", map[string]any{"mode": "bookmarks", "files": "a", "depth": 2, "no_wait": true}},
		{"pdf-merge", map[string]any{"order": "1", "depth": 2, "gone": nil}},
		{"pdf-open", map[string]any{"anything": "goes"}},
	}
	for _, b := range bodies {
		if _, err := c.Submit(context.Background(), b.pipeline, b.body); err != nil {
			t.Errorf("Submit(%s, %v): %v", b.pipeline, b.body, err)
		}
	}
	if srv.count() != len(bodies) {
		t.Errorf("requests = %d, want %d", srv.count(), len(bodies))
	}
}
