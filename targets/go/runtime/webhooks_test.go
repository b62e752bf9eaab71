package sdkruntime

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// hooks uses field and header names unlike any default, to show they come from the model.
var hooks = &Webhooks{
	SignatureHeader:      "X-Acme-Sig",
	SignaturePrefix:      "v1=",
	EventIDHeader:        "X-Acme-Delivery",
	EventTypeHeader:      "X-Acme-Kind",
	SubscriptionIDHeader: "X-Acme-Sub",
	EventIDField:         "delivery",
	EventTypeField:       "kind",
	SubscriptionIDField:  "sub",
	TimestampField:       "sent_at",
	EventTypes:           []string{"job.completed"},
}

func TestVerifyWebhook(t *testing.T) {
	now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	body := []byte(`{"delivery":"evt_1","kind":"job.completed","sub":42,"sent_at":"2026-11-20T08:59:30Z","job_id":"job_b1"}`)
	sign := func(b []byte, secret string) string {
		s, err := SignWebhook(hooks, b, secret)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	headers := func(sig string) http.Header {
		h := http.Header{}
		h.Set("X-Acme-Sig", sig)
		h.Set("X-Acme-Delivery", "evt_1")
		h.Set("X-Acme-Kind", "job.completed")
		h.Set("X-Acme-Sub", "42")
		return h
	}
	good := sign(body, "whsec-1")
	tests := []struct {
		name    string
		body    []byte
		header  http.Header
		secrets []string
		maxAge  time.Duration
		kind    WebhookErrorKind
		check   func(t *testing.T, ev *WebhookEvent)
	}{
		{name: "good", body: body, header: headers(good), secrets: []string{"whsec-1"}, maxAge: time.Minute, check: func(t *testing.T, ev *WebhookEvent) {
			if ev.EventID != "evt_1" || ev.EventType != "job.completed" || !ev.Known || ev.SubscriptionID != "42" || ev.SecretIndex != 0 || string(ev.Body) != string(body) {
				t.Errorf("event = %+v", ev)
			}
		}},
		{name: "second secret during rotation", body: body, header: headers(good), secrets: []string{"whsec-0", "whsec-1"}, check: func(t *testing.T, ev *WebhookEvent) {
			if ev.SecretIndex != 1 {
				t.Errorf("SecretIndex = %d", ev.SecretIndex)
			}
		}},
		{name: "bad signature", body: body, header: headers(sign(body, "whsec-other")), secrets: []string{"whsec-1"}, kind: WebhookSignatureMismatch},
		{name: "body changed", body: []byte(strings.Replace(string(body), "job_b1", "job_b2", 1)), header: headers(good), secrets: []string{"whsec-1"}, kind: WebhookSignatureMismatch},
		{name: "stale", body: body, header: headers(good), secrets: []string{"whsec-1"}, maxAge: 10 * time.Second, kind: WebhookStale},
		{name: "uppercase hex refused", body: body, header: headers("v1=" + strings.ToUpper(good[3:])), secrets: []string{"whsec-1"}, kind: WebhookMalformedHeader},
		{name: "wrong prefix", body: body, header: headers("sha256=" + good[3:]), secrets: []string{"whsec-1"}, kind: WebhookMalformedHeader},
		{name: "missing signature", body: body, header: func() http.Header { h := headers(good); h.Del("X-Acme-Sig"); return h }(), secrets: []string{"whsec-1"}, kind: WebhookMissingHeader},
		{name: "two signatures", body: body, header: func() http.Header { h := headers(good); h.Add("X-Acme-Sig", good); return h }(), secrets: []string{"whsec-1"}, kind: WebhookMalformedHeader},
		{name: "event id header differs", body: body, header: func() http.Header { h := headers(good); h.Set("X-Acme-Delivery", "evt_2"); return h }(), secrets: []string{"whsec-1"}, kind: WebhookHeaderMismatch},
		{name: "subscription header differs", body: body, header: func() http.Header { h := headers(good); h.Set("X-Acme-Sub", "43"); return h }(), secrets: []string{"whsec-1"}, kind: WebhookHeaderMismatch},
		{name: "signed body not an event", body: []byte(`[1,2]`), header: headers(sign([]byte(`[1,2]`), "whsec-1")), secrets: []string{"whsec-1"}, kind: WebhookInvalidPayload},
		{name: "unknown event type", body: []byte(`{"delivery":"evt_1","kind":"job.new","sent_at":"2026-11-20T08:59:30Z"}`), header: func() http.Header {
			h := headers(sign([]byte(`{"delivery":"evt_1","kind":"job.new","sent_at":"2026-11-20T08:59:30Z"}`), "whsec-1"))
			h.Del("X-Acme-Kind")
			return h
		}(), secrets: []string{"whsec-1"}, check: func(t *testing.T, ev *WebhookEvent) {
			if ev.Known || ev.EventType != "job.new" {
				t.Errorf("event = %+v", ev)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := VerifyWebhook(hooks, tt.body, tt.header, tt.secrets, VerifyOptions{MaxAge: tt.maxAge, Now: clock})
			if tt.kind == 0 {
				if err != nil {
					t.Fatalf("VerifyWebhook: %v", err)
				}
				tt.check(t, ev)
				return
			}
			if ev != nil {
				t.Errorf("event returned with an error: %+v", ev)
			}
			if w := errorsAs[*WebhookError](t, err); w.Kind != tt.kind {
				t.Errorf("Kind = %s, want %s (%v)", w.Kind, tt.kind, err)
			}
		})
	}
}

func TestVerifyWebhookReplayWindow(t *testing.T) {
	sentAt := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	body := []byte(`{"delivery":"evt_1","kind":"job.completed","sent_at":"2026-11-20T09:00:00Z"}`)
	undated := []byte(`{"delivery":"evt_1","kind":"job.completed"}`)
	headers := func(b []byte) http.Header {
		s, err := SignWebhook(hooks, b, "whsec-1")
		if err != nil {
			t.Fatal(err)
		}
		h := http.Header{}
		h.Set("X-Acme-Sig", s)
		h.Set("X-Acme-Delivery", "evt_1")
		return h
	}
	at := func(offset time.Duration) func() time.Time { return func() time.Time { return sentAt.Add(offset) } }
	tests := []struct {
		name   string
		body   []byte
		opts   VerifyOptions
		detail string // "" when the delivery is accepted
	}{
		{name: "default window, 299 s later", body: body, opts: VerifyOptions{Now: at(299 * time.Second)}},
		{name: "default window, 299 s earlier", body: body, opts: VerifyOptions{Now: at(-299 * time.Second)}},
		{name: "default window, 301 s later", body: body, opts: VerifyOptions{Now: at(301 * time.Second)}, detail: "the body's sent_at is 301 s old, outside the replay window of 300 s"},
		{name: "default window, 400 s earlier", body: body, opts: VerifyOptions{Now: at(-400 * time.Second)}, detail: "the body's sent_at is 400 s in the future, outside the replay window of 300 s"},
		{name: "no timestamp", body: undated, opts: VerifyOptions{}, detail: "the body's sent_at is missing or not an ISO 8601 time"},
		{name: "configured window", body: body, opts: VerifyOptions{MaxAge: time.Minute, Now: at(61 * time.Second)}, detail: "outside the replay window of 60 s"},
		{name: "wider window", body: body, opts: VerifyOptions{MaxAge: time.Hour, Now: at(50 * time.Minute)}},
		{name: "window off", body: body, opts: VerifyOptions{MaxAge: NoMaxAge, Now: at(1000 * time.Hour)}},
		{name: "window off, no timestamp", body: undated, opts: VerifyOptions{MaxAge: NoMaxAge}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := VerifyWebhook(hooks, tt.body, headers(tt.body), []string{"whsec-1"}, tt.opts)
			if tt.detail == "" {
				if err != nil {
					t.Fatalf("VerifyWebhook: %v", err)
				}
				return
			}
			w := errorsAs[*WebhookError](t, err)
			if w.Kind != WebhookStale || !strings.Contains(w.Error(), tt.detail) {
				t.Errorf("error = %v (%s), want WebhookStale with %q", err, w.Kind, tt.detail)
			}
		})
	}
	// Without a timestamp field in the model there is no default window.
	noStamp := *hooks
	noStamp.TimestampField = ""
	if _, err := VerifyWebhook(&noStamp, undated, headers(undated), []string{"whsec-1"}, VerifyOptions{}); err != nil {
		t.Errorf("VerifyWebhook without a timestamp field: %v", err)
	}
}

func TestVerifyWebhookConfig(t *testing.T) {
	_, err := VerifyWebhook(hooks, []byte(`{}`), http.Header{}, nil, VerifyOptions{})
	errorsAs[*ConfigError](t, err)
	_, err = VerifyWebhook(&Webhooks{}, []byte(`{}`), http.Header{}, []string{"s"}, VerifyOptions{})
	errorsAs[*ConfigError](t, err)
	noStamp := *hooks
	noStamp.TimestampField = ""
	_, err = VerifyWebhook(&noStamp, []byte(`{}`), http.Header{}, []string{"s"}, VerifyOptions{MaxAge: time.Minute})
	errorsAs[*ConfigError](t, err)
}
