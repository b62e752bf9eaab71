package sdkruntime

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// authModel has one scheme of each kind.
func authModel() *Model {
	m := testModel()
	m.SecuritySchemes = map[string]SecurityScheme{
		"bearerAuth": {Type: SchemeHTTP, Scheme: "bearer"},
		"basicAuth":  {Type: SchemeHTTP, Scheme: "basic"},
		"headerKey":  {Type: SchemeAPIKey, In: "header", Name: "X-Api-Key"},
		"queryKey":   {Type: SchemeAPIKey, In: "query", Name: "api_key"},
		"cookieKey":  {Type: SchemeAPIKey, In: "cookie", Name: "session"},
		"oauth":      {Type: SchemeOAuth2},
	}
	return m
}

func TestCredentials(t *testing.T) {
	tests := []struct {
		name     string
		security [][]string
		opts     []Option
		check    func(t *testing.T, r recorded)
	}{
		{name: "bearer", security: [][]string{{"bearerAuth"}}, opts: []Option{WithToken("tkn-1")}, check: func(t *testing.T, r recorded) {
			if got := r.header.Get("Authorization"); got != "Bearer tkn-1" {
				t.Errorf("Authorization = %q", got)
			}
		}},
		{name: "oauth2 travels as bearer", security: [][]string{{"oauth"}}, opts: []Option{WithToken("tkn-2")}, check: func(t *testing.T, r recorded) {
			if got := r.header.Get("Authorization"); got != "Bearer tkn-2" {
				t.Errorf("Authorization = %q", got)
			}
		}},
		{name: "basic", security: [][]string{{"basicAuth"}}, opts: []Option{WithBasicAuth("ann", "pw:1")}, check: func(t *testing.T, r recorded) {
			want := "Basic " + base64.StdEncoding.EncodeToString([]byte("ann:pw:1"))
			if got := r.header.Get("Authorization"); got != want {
				t.Errorf("Authorization = %q, want %q", got, want)
			}
		}},
		{name: "api key in header", security: [][]string{{"headerKey"}}, opts: []Option{WithAPIKey("k-1")}, check: func(t *testing.T, r recorded) {
			if got := r.header.Get("X-Api-Key"); got != "k-1" || r.header.Get("Authorization") != "" {
				t.Errorf("X-Api-Key = %q, Authorization = %q", got, r.header.Get("Authorization"))
			}
		}},
		{name: "api key in query", security: [][]string{{"queryKey"}}, opts: []Option{WithAPIKey("k 2")}, check: func(t *testing.T, r recorded) {
			if r.query != "api_key=k+2" {
				t.Errorf("query = %q", r.query)
			}
		}},
		{name: "api key in cookie", security: [][]string{{"cookieKey"}}, opts: []Option{WithAPIKey("k3"), WithHeader("Cookie", "a=b")}, check: func(t *testing.T, r recorded) {
			if got := r.header.Get("Cookie"); got != "a=b; session=k3" {
				t.Errorf("Cookie = %q", got)
			}
		}},
		{name: "token stands in for an api key", security: [][]string{{"headerKey"}}, opts: []Option{WithToken("tkn-3")}, check: func(t *testing.T, r recorded) {
			if got := r.header.Get("X-Api-Key"); got != "tkn-3" {
				t.Errorf("X-Api-Key = %q", got)
			}
		}},
		{name: "first alternative the client has", security: [][]string{{"headerKey"}, {"bearerAuth"}}, opts: []Option{WithToken("tkn-4")}, check: func(t *testing.T, r recorded) {
			if got := r.header.Get("Authorization"); got != "Bearer tkn-4" || r.header.Get("X-Api-Key") != "" {
				t.Errorf("Authorization = %q, X-Api-Key = %q; a credential of its own kind wins", got, r.header.Get("X-Api-Key"))
			}
		}},
		{name: "both schemes of an alternative", security: [][]string{{"headerKey", "bearerAuth"}}, opts: []Option{WithToken("tkn-5"), WithAPIKey("k5")}, check: func(t *testing.T, r recorded) {
			if r.header.Get("Authorization") != "Bearer tkn-5" || r.header.Get("X-Api-Key") != "k5" {
				t.Errorf("headers = %v", r.header)
			}
		}},
		{name: "credential by scheme name wins", security: [][]string{{"bearerAuth"}}, opts: []Option{WithToken("tkn-6"), WithCredential("bearerAuth", Token("named-6"))}, check: func(t *testing.T, r recorded) {
			if got := r.header.Get("Authorization"); got != "Bearer named-6" {
				t.Errorf("Authorization = %q", got)
			}
		}},
		{name: "empty security sends nothing", security: [][]string{}, opts: []Option{WithToken("tkn-7"), WithAPIKey("k7")}, check: func(t *testing.T, r recorded) {
			if r.header.Get("Authorization") != "" || r.header.Get("X-Api-Key") != "" || r.query != "" {
				t.Errorf("credentials sent: %v %q", r.header, r.query)
			}
		}},
		{name: "optional security without credentials", security: [][]string{{"bearerAuth"}, {}}, check: func(t *testing.T, r recorded) {
			if r.header.Get("Authorization") != "" {
				t.Errorf("Authorization = %q", r.header.Get("Authorization"))
			}
		}},
		{name: "credentials win over caller headers", security: [][]string{{"bearerAuth"}}, opts: []Option{WithToken("tkn-8"), WithHeader("authorization", "Bearer other")}, check: func(t *testing.T, r recorded) {
			if got := r.header.Values("Authorization"); len(got) != 1 || got[0] != "Bearer tkn-8" {
				t.Errorf("Authorization = %q", got)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScripted(t, step{body: okThing})
			c, err := New(authModel(), append([]Option{WithBaseURL(srv.URL), WithLookupEnv(noEnv)}, tt.opts...)...)
			if err != nil {
				t.Fatal(err)
			}
			op := &Operation{ID: "readThing", Method: "GET", Path: "/things", Security: tt.security}
			if _, err := c.Call(context.Background(), op, Request{}); err != nil {
				t.Fatalf("Call: %v", err)
			}
			tt.check(t, srv.got()[0])
		})
	}
}

func TestMissingCredentialsBeforeAnyRequest(t *testing.T) {
	srv := newScripted(t, step{body: okThing})
	c, err := New(authModel(), WithBaseURL(srv.URL), WithLookupEnv(noEnv))
	if err != nil {
		t.Fatal(err)
	}
	op := &Operation{ID: "readThing", Method: "GET", Path: "/things", Security: [][]string{{"basicAuth"}, {"queryKey"}}}
	_, err = c.Call(context.Background(), op, Request{})
	m := errorsAs[*MissingCredentialsError](t, err)
	for _, want := range []string{"readThing", `"basicAuth"`, "WithBasicAuth", `"queryKey"`, "WithAPIKey"} {
		if !strings.Contains(m.Message, want) {
			t.Errorf("message %q does not name %s", m.Message, want)
		}
	}
	if srv.count() != 0 {
		t.Errorf("requests = %d, want 0", srv.count())
	}
}

func TestTokenFromEnvironment(t *testing.T) {
	srv := newScripted(t, step{body: okThing})
	env := map[string]string{"TESTSVC_TOKEN": "env-token-1", "TESTSVC_BASE_URL": srv.URL + "/"}
	c, err := New(testModel(), WithLookupEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok }))
	if err != nil {
		t.Fatal(err)
	}
	if c.BaseURL() != srv.URL {
		t.Errorf("BaseURL = %q", c.BaseURL())
	}
	if _, err := c.Call(context.Background(), opRead, Request{Path: map[string]string{"id": "1"}}); err != nil {
		t.Fatal(err)
	}
	if got := srv.got()[0].header.Get("Authorization"); got != "Bearer env-token-1" {
		t.Errorf("Authorization = %q", got)
	}
}

func TestRedirects(t *testing.T) {
	foreign := newScripted(t, step{body: okThing})
	tests := []struct {
		name        string
		toForeign   bool
		wantForeign bool
	}{
		{name: "another origin drops credentials", toForeign: true},
		{name: "same origin keeps them"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			main := newScripted(t)
			main.handler = func(w http.ResponseWriter, r *http.Request, n int) bool {
				if n > 0 {
					w.Header().Set("Content-Type", "application/json")
					_, _ = w.Write([]byte(okThing))
					return true
				}
				target := "/landed"
				if tt.toForeign {
					target = foreign.URL + "/signed/out.pdf"
				}
				http.Redirect(w, r, target, http.StatusFound)
				return true
			}
			c, err := New(authModel(), WithBaseURL(main.URL), WithLookupEnv(noEnv), WithToken("tok-redirect-1"), WithAPIKey("key-redirect-1"), WithHeader("X-Trace", "t1"))
			if err != nil {
				t.Fatal(err)
			}
			op := &Operation{ID: "readThing", Method: "GET", Path: "/things", Security: [][]string{{"bearerAuth", "headerKey"}, {"cookieKey"}}}
			if _, err := c.Call(context.Background(), op, Request{}); err != nil {
				t.Fatalf("Call: %v", err)
			}
			var landed recorded
			if tt.toForeign {
				reqs := foreign.got()
				landed = reqs[len(reqs)-1]
			} else {
				landed = main.got()[1]
			}
			hasCreds := landed.header.Get("Authorization") != "" || landed.header.Get("X-Api-Key") != ""
			if hasCreds == tt.toForeign {
				t.Errorf("credentials sent after the redirect: %v (Authorization %q, X-Api-Key %q)", hasCreds, landed.header.Get("Authorization"), landed.header.Get("X-Api-Key"))
			}
			if landed.header.Get("X-Trace") != "t1" {
				t.Error("ordinary headers should follow the redirect")
			}
		})
	}
}

func TestCallerCheckRedirectStillRuns(t *testing.T) {
	main := newScripted(t)
	main.handler = func(w http.ResponseWriter, r *http.Request, n int) bool {
		http.Redirect(w, r, "/elsewhere", http.StatusFound)
		return true
	}
	calls := 0
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { calls++; return http.ErrUseLastResponse }}
	c := newTestClient(t, main.URL, WithHTTPClient(hc))
	_, err := c.Call(context.Background(), opRead, Request{Path: map[string]string{"id": "1"}})
	if s := errorsAs[*ServiceError](t, err); s.Status != http.StatusFound {
		t.Errorf("Status = %d", s.Status)
	}
	if calls != 1 || main.count() != 1 {
		t.Errorf("caller's CheckRedirect ran %d times, %d requests", calls, main.count())
	}
	if hc.CheckRedirect == nil {
		t.Error("the caller's client was changed")
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	suffixModel := testModel()
	suffixModel.Conventions.BasePathSuffix = "/v1"
	unknownScheme := testModel()
	unknownScheme.SecuritySchemes["x"] = SecurityScheme{Type: "magic"}
	served := testModel()
	served.Servers = []Server{{URL: "https://{region}.example.test/v1", Variables: map[string]ServerVariable{"region": {Default: "eu", Enum: []string{"eu", "us"}}}}}
	tests := []struct {
		name  string
		model *Model
		opts  []Option
		want  string
	}{
		{name: "nil model", want: "model is nil"},
		{name: "no base URL", model: testModel(), want: "WithBaseURL is required"},
		{name: "relative base URL", model: testModel(), opts: []Option{WithBaseURL("/api")}, want: "absolute http(s)"},
		{name: "query in base URL", model: testModel(), opts: []Option{WithBaseURL("https://x.test/api?a=1")}, want: "without query"},
		{name: "base path rule", model: suffixModel, opts: []Option{WithBaseURL("https://x.test/api")}, want: "must end in /v1"},
		{name: "unknown scheme type", model: unknownScheme, opts: []Option{WithBaseURL("https://x.test")}, want: `unknown type "magic"`},
		{name: "credential for unknown scheme", model: testModel(), opts: []Option{WithBaseURL("https://x.test"), WithCredential("nope", Token("a"))}, want: `no security scheme "nope"`},
		{name: "negative retries", model: testModel(), opts: []Option{WithBaseURL("https://x.test"), WithMaxRetries(-1)}, want: "WithMaxRetries"},
		{name: "server variable outside enum", model: served, opts: []Option{WithServerVariables(map[string]string{"region": "mars"})}, want: "must be one of"},
		{name: "unknown server variable", model: served, opts: []Option{WithServerVariables(map[string]string{"zone": "a"})}, want: `no variable "zone"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.model, append([]Option{WithLookupEnv(noEnv)}, tt.opts...)...)
			if ce := errorsAs[*ConfigError](t, err); !strings.Contains(ce.Message, tt.want) {
				t.Errorf("message %q does not contain %q", ce.Message, tt.want)
			}
		})
	}
	c, err := New(served, WithLookupEnv(noEnv), WithServerVariables(map[string]string{"region": "us"}))
	if err != nil || c.BaseURL() != "https://us.example.test/v1" {
		t.Errorf("BaseURL = %v, %v", c, err)
	}
}

func TestUserAgent(t *testing.T) {
	tests := []struct {
		title, release, suffix, want string
	}{
		{"Café Orders API", "R20261120.0900", "", "cafe-orders-api-sdk-go/R20261120.0900"},
		{"", "", "", "api-sdk-go/0"},
		{"  Docs // Service  ", "1.2.3", "my-app/2 (ünïx)", "docs-service-sdk-go/1.2.3 my-app/2 (unix)"},
		{"日本 API", "v 1", "", "api-sdk-go/v-1"},
	}
	for _, tt := range tests {
		if got := UserAgent(&Model{Title: tt.title, Release: tt.release}, tt.suffix); got != tt.want {
			t.Errorf("UserAgent(%q, %q, %q) = %q, want %q", tt.title, tt.release, tt.suffix, got, tt.want)
		}
	}
	srv := newScripted(t, step{body: okThing})
	c := newTestClient(t, srv.URL, WithHeader("User-Agent", "mine"))
	if _, err := c.Call(context.Background(), opRead, Request{Path: map[string]string{"id": "1"}}); err != nil {
		t.Fatal(err)
	}
	if got := srv.got()[0].header.Get("User-Agent"); got != "test-documents-api-sdk-go/R20261120.0900" {
		t.Errorf("User-Agent = %q", got)
	}
}

func TestPriceJob(t *testing.T) {
	m := testModel()
	base := 10.0
	small := 0.5
	m.Pipelines["pdf-merge"] = Pipeline{BaseCredits: &base}
	m.Pipelines["tiny"] = Pipeline{BaseCredits: &small}
	m.Pricing = &Pricing{LaneMultipliers: map[string]float64{"standard": 1, "express": 2.5}, DefaultLane: "standard", MinimumCharge: 1}
	tests := []struct {
		pipeline, lane string
		want           float64
		err            string
	}{
		{"pdf-merge", "", 10, ""},
		{"pdf-merge", "express", 25, ""},
		{"tiny", "", 1, ""},
		{"pdf-merge", "warp", 0, `unknown processing lane "warp"; known: express, standard`},
		{"nope", "", 0, `no base price for pipeline "nope"`},
	}
	for _, tt := range tests {
		got, err := PriceJob(m, tt.pipeline, tt.lane)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("PriceJob(%q, %q) error = %v, want %q", tt.pipeline, tt.lane, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("PriceJob(%q, %q) = %v, %v; want %v", tt.pipeline, tt.lane, got, err, tt.want)
		}
	}
}

func TestTokenFunctionRenewal(t *testing.T) {
	renewModel := func() *Model {
		m := testModel()
		m.Conventions.Tokens = &TokenKinds{Scheme: "bearerAuth", Brand: "svc_", RenewOn: []string{"INVALID_TOKEN"}}
		return m
	}
	tests := []struct {
		name         string
		model        *Model
		first        step
		wantRequests int
		wantCalls    int
		wantErr      bool
	}{
		{name: "a renewable 401 asks again once", model: renewModel(), first: step{status: 401, body: `{"status":"error","code":"INVALID_TOKEN","message":"expired"}`}, wantRequests: 2, wantCalls: 2},
		{name: "another 401 code is the caller's", model: renewModel(), first: step{status: 401, body: `{"status":"error","code":"AUTH_REQUIRED","message":"no"}`}, wantRequests: 1, wantCalls: 1, wantErr: true},
		{name: "any 401 without token kinds", model: testModel(), first: step{status: 401, body: `{}`}, wantRequests: 2, wantCalls: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScripted(t, tt.first, step{body: okThing})
			calls := 0
			source := func(ctx context.Context) (string, error) {
				calls++
				return fmt.Sprintf("rotating-token-%d", calls), nil
			}
			c, err := New(tt.model, WithBaseURL(srv.URL), WithLookupEnv(noEnv), WithTokenSource(source))
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Call(context.Background(), opRead, Request{Path: map[string]string{"id": "1"}})
			if (err != nil) != tt.wantErr {
				t.Fatalf("Call error = %v, want error %v", err, tt.wantErr)
			}
			if srv.count() != tt.wantRequests || calls != tt.wantCalls {
				t.Errorf("requests = %d, token calls = %d; want %d and %d", srv.count(), calls, tt.wantRequests, tt.wantCalls)
			}
			reqs := srv.got()
			if got := reqs[len(reqs)-1].header.Get("Authorization"); got != fmt.Sprintf("Bearer rotating-token-%d", calls) {
				t.Errorf("last Authorization = %q", got)
			}
		})
	}
}

func TestTokenFunctionFailure(t *testing.T) {
	srv := newScripted(t, step{status: 400, body: `{"status":"error","code":"INVALID_REQUEST","message":"echo rotating-secret-token-77"}`})
	calls := 0
	c, err := New(testModel(), WithBaseURL(srv.URL), WithLookupEnv(noEnv), WithTokenSource(func(context.Context) (string, error) {
		calls++
		if calls == 1 {
			return "rotating-secret-token-77", nil
		}
		return "", errors.New("vault unreachable")
	}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Call(context.Background(), opRead, Request{Path: map[string]string{"id": "1"}})
	// A token the function returned is redacted like any other credential.
	assertNoSecret(t, err, "rotating-secret-token-77")
	_, err = c.Call(context.Background(), opRead, Request{Path: map[string]string{"id": "1"}})
	ce := errorsAs[*CredentialError](t, err)
	if ce.Scheme != "bearerAuth" || !strings.Contains(ce.Error(), "vault unreachable") {
		t.Errorf("CredentialError = %v", ce)
	}
	if srv.count() != 1 {
		t.Errorf("requests = %d; a failed token function sends nothing", srv.count())
	}
}
