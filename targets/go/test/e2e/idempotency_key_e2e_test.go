// The generated Go client of test/matrix's idempotency-key description against a local server, the rule the
// TypeScript and Python clients follow too: an operation that takes a key sends one per call (CallIdempotencyKey,
// else a random UUID v4), the same on every retry, so that even a billed write is sent again after a 500; the next
// call sends a new key; an operation without one refuses the option before sending. Run by
// targets/go/test/idempotency-key.test.ts, which copies this file into a module beside the generated one.
package e2e

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	keys "example.com/wire4-keys-sdk-go"
	"github.com/paperoffice/sdk-runtime-go"
)

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// planned answers the statuses of plan in order, then 200, and records each request's headers.
type planned struct {
	mu      sync.Mutex
	plan    []int
	headers []http.Header
}

func serve(t *testing.T, plan ...int) (*keys.Client, *planned) {
	t.Helper()
	p := &planned{plan: plan}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		p.mu.Lock()
		p.headers = append(p.headers, r.Header.Clone())
		status := 200
		if len(p.plan) > 0 {
			status, p.plan = p.plan[0], p.plan[1:]
		}
		p.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		if status == 200 {
			_, _ = io.WriteString(w, `{"id":"r1"}`)
			return
		}
		_, _ = io.WriteString(w, `{"code":"INTERNAL_ERROR","message":"boom"}`)
	}))
	t.Cleanup(srv.Close)
	c, err := keys.New(keys.WithBaseURL(srv.URL), keys.WithRetryDelays(time.Millisecond, 2*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return c, p
}

func (p *planned) values(name string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, h := range p.headers {
		out = append(out, h.Get(name))
	}
	return out
}

func TestIdempotencyKeyIsOnePerCallAndTheSameOnEveryRetry(t *testing.T) {
	c, p := serve(t, 500, 503)
	body := &keys.CreateChargeParams{Body: &keys.Charge{Amount: 1}}
	if _, err := c.CreateCharge(context.Background(), body); err != nil {
		t.Fatalf("after a 500 and a 503: %v", err)
	}
	if _, err := c.CreateCharge(context.Background(), body); err != nil {
		t.Fatal(err)
	}
	got := p.values("Idempotency-Key")
	if len(got) != 4 || !uuidV4.MatchString(got[0]) || got[1] != got[0] || got[2] != got[0] {
		t.Fatalf("keys = %q, want one UUID v4 on the three attempts of the first call", got)
	}
	if !uuidV4.MatchString(got[3]) || got[3] == got[0] {
		t.Errorf("the next call's key = %q, want a new one", got[3])
	}
}

func TestIdempotencyKeyOfTheCallerIsSentAsGiven(t *testing.T) {
	c, p := serve(t, 500)
	body := &keys.CreateRefundParams{Body: &keys.Charge{Amount: 1}}
	if _, err := c.CreateRefund(context.Background(), body, keys.CallIdempotencyKey("order-42")); err != nil {
		t.Fatalf("a billed write with a key after a 500: %v", err)
	}
	if _, err := c.CreateRefund(context.Background(), body, keys.CallHeader("x-request-key", "from-header")); err != nil {
		t.Fatal(err)
	}
	if got := p.values("X-Request-Key"); strings.Join(got, ",") != "order-42,order-42,from-header" {
		t.Errorf("X-Request-Key = %q", got)
	}
	if got := p.values("Idempotency-Key"); got[0] != "" {
		t.Errorf("Idempotency-Key = %q on an operation whose key goes in X-Request-Key", got[0])
	}
}

func TestIdempotencyKeyIsRefusedByAnOperationWithoutOne(t *testing.T) {
	c, p := serve(t)
	body := &keys.CreateNoteParams{Body: &keys.Charge{Amount: 1}}
	_, err := c.CreateNote(context.Background(), body, keys.CallIdempotencyKey("k"))
	var cfg *sdkruntime.ConfigError
	if !errors.As(err, &cfg) || !strings.Contains(cfg.Message, "createNote: the operation takes no idempotency key") {
		t.Fatalf("err = %v, want a *sdkruntime.ConfigError naming the operation", err)
	}
	if n := len(p.values("Idempotency-Key")); n != 0 {
		t.Fatalf("%d requests sent, want none", n)
	}
	if _, err := c.CreateNote(context.Background(), body); err != nil {
		t.Fatal(err)
	}
	if got := p.values("Idempotency-Key"); len(got) != 1 || got[0] != "" {
		t.Errorf("without the option: Idempotency-Key = %q", got)
	}
}
