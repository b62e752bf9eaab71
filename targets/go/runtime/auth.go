package sdkruntime

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// auth applies the credentials of the model's security schemes to requests.
type auth struct {
	schemes     map[string]SecurityScheme
	names       []string
	token       *Credential
	apiKey      *Credential
	basic       *Credential
	credentials map[string]Credential
	// headerNames are the headers credentials may travel in; a redirect to another origin drops them.
	headerNames []string
	red         *redactor
	// renewOn lists the 401 codes after which token functions are asked again; nil means after any 401.
	renewOn []string
}

// applied is what one request carries for its security.
type applied struct {
	headers map[string]string
	query   map[string]string
	cookies []string
}

type resolved struct {
	scheme     string
	model      *SecurityScheme
	credential Credential
}

func newAuth(model *Model, s *settings, red *redactor) (*auth, error) {
	a := &auth{
		schemes:     model.SecuritySchemes,
		token:       s.token,
		apiKey:      s.apiKey,
		basic:       s.basic,
		credentials: s.credentials,
		headerNames: []string{"Authorization", "Proxy-Authorization", "Cookie"},
		red:         red,
	}
	if model.Conventions != nil && model.Conventions.Tokens != nil {
		a.renewOn = append([]string{}, model.Conventions.Tokens.RenewOn...)
	}
	for name, scheme := range model.SecuritySchemes {
		a.names = append(a.names, name)
		switch scheme.Type {
		case SchemeHTTP, SchemeOAuth2, SchemeOpenIDConnect, SchemeMutualTLS:
		case SchemeAPIKey:
			switch scheme.In {
			case "header":
				a.headerNames = append(a.headerNames, scheme.Name)
			case "query", "cookie":
			default:
				return nil, configError("model: security scheme %q: apiKey location %q is not header, query or cookie", name, scheme.In)
			}
			if scheme.Name == "" {
				return nil, configError("model: security scheme %q: apiKey has no name", name)
			}
		default:
			return nil, configError("model: security scheme %q has unknown type %q", name, scheme.Type)
		}
	}
	sort.Strings(a.names)
	for name := range s.credentials {
		if _, ok := model.SecuritySchemes[name]; !ok {
			return nil, configError("WithCredential: the description has no security scheme %q", name)
		}
	}
	note := func(c Credential) error {
		if c.basic {
			if c.username == "" && c.password == "" {
				return configError("basic credentials need a user name or a password")
			}
			red.add(c.password)
			red.add(base64.StdEncoding.EncodeToString([]byte(c.username + ":" + c.password)))
			return nil
		}
		if c.source != nil {
			return nil
		}
		if c.token == "" {
			return configError("a token or API key is empty")
		}
		red.add(c.token)
		return nil
	}
	for _, p := range []*Credential{s.token, s.apiKey} {
		if p != nil {
			if err := note(*p); err != nil {
				return nil, err
			}
		}
	}
	if s.basic != nil {
		if err := note(*s.basic); err != nil {
			return nil, err
		}
	}
	for _, c := range s.credentials {
		if err := note(c); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// apply returns the credentials of one request: the first alternative whose credentials the client has. An
// empty alternative, or no alternatives, means none is needed. A required credential the client lacks is a
// *MissingCredentialsError.
func (a *auth) apply(ctx context.Context, security [][]string, operation string) (*applied, error) {
	out := &applied{headers: map[string]string{}, query: map[string]string{}}
	optional := len(security) == 0
	for _, alt := range security {
		if len(alt) == 0 {
			optional = true
		}
	}
	if len(security) == 0 {
		return out, nil
	}
	// A credential given for its kind wins over the token standing in for an API key.
	for _, loose := range []bool{false, true} {
		for _, alt := range security {
			if len(alt) == 0 {
				continue
			}
			all := make([]resolved, 0, len(alt))
			for _, name := range alt {
				r, ok := a.resolve(name, loose)
				if !ok {
					break
				}
				all = append(all, r)
			}
			if len(all) == len(alt) {
				if err := a.build(ctx, all, out, operation); err != nil {
					return nil, err
				}
				return out, nil
			}
		}
	}
	if optional {
		return out, nil
	}
	wanted := make([]string, 0, len(security))
	for _, alt := range security {
		parts := make([]string, 0, len(alt))
		for _, name := range alt {
			parts = append(parts, a.describe(name))
		}
		wanted = append(wanted, strings.Join(parts, " and "))
	}
	msg := operation + " needs credentials: "
	if len(wanted) == 1 {
		msg += wanted[0]
	} else {
		msg += "one of " + strings.Join(wanted, "; or ")
	}
	return nil, &MissingCredentialsError{Operation: operation, Message: msg}
}

func (a *auth) resolve(name string, loose bool) (resolved, bool) {
	if c, ok := a.credentials[name]; ok {
		m := a.schemes[name]
		return resolved{scheme: name, model: &m, credential: c}, true
	}
	m, known := a.schemes[name]
	if !known {
		if a.token != nil {
			return resolved{scheme: name, credential: *a.token}, true
		}
		return resolved{}, false
	}
	var c *Credential
	switch m.Type {
	case SchemeHTTP:
		switch strings.ToLower(m.Scheme) {
		case "basic":
			c = a.basic
		case "bearer":
			c = a.token
		}
	case SchemeAPIKey:
		c = a.apiKey
		if c == nil && loose {
			c = a.token
		}
	case SchemeOAuth2, SchemeOpenIDConnect:
		c = a.token
	case SchemeMutualTLS:
		// The client certificate travels with the connection (the *http.Client's transport), not the request.
		c = &Credential{}
	}
	if c == nil {
		return resolved{}, false
	}
	return resolved{scheme: name, model: &m, credential: *c}, true
}

func (a *auth) describe(name string) string {
	m, ok := a.schemes[name]
	var how string
	switch {
	case !ok:
		how = "pass WithToken"
	case m.Type == SchemeAPIKey:
		how = fmt.Sprintf("API key in %s %q: pass WithAPIKey", m.In, m.Name)
	case m.Type == SchemeHTTP && strings.EqualFold(m.Scheme, "basic"):
		how = "HTTP basic: pass WithBasicAuth"
	case m.Type == SchemeHTTP && !strings.EqualFold(m.Scheme, "bearer"):
		how = fmt.Sprintf("HTTP %s: pass WithCredential(%q, Token(<header value>))", m.Scheme, name)
	case m.Type == SchemeHTTP:
		how = "bearer token: pass WithToken"
	default:
		how = m.Type + " token, sent as a bearer token: pass WithToken"
	}
	return fmt.Sprintf("security scheme %q (%s, or WithCredential(%q, ...))", name, how, name)
}

func (a *auth) build(ctx context.Context, chosen []resolved, out *applied, operation string) error {
	for _, r := range chosen {
		c := r.credential
		m := r.model
		token := c.token
		if c.source != nil && !c.basic {
			t, err := c.source(ctx)
			if err != nil {
				return &CredentialError{Operation: operation, Scheme: r.scheme, Err: &redactedError{text: a.red.text(err.Error()), err: err}}
			}
			if t == "" {
				return &CredentialError{Operation: operation, Scheme: r.scheme, Err: errNoToken}
			}
			a.red.add(t)
			token = t
		}
		switch {
		case m != nil && m.Type == SchemeMutualTLS:
		case c.basic:
			out.headers["Authorization"] = "Basic " + base64.StdEncoding.EncodeToString([]byte(c.username+":"+c.password))
		case m != nil && m.Type == SchemeAPIKey:
			switch m.In {
			case "header":
				out.headers[m.Name] = token
			case "query":
				out.query[m.Name] = token
			default:
				out.cookies = append(out.cookies, url.QueryEscape(m.Name)+"="+url.QueryEscape(token))
			}
		case m != nil && m.Type == SchemeHTTP && !strings.EqualFold(m.Scheme, "bearer"):
			// Another HTTP scheme (digest, a custom one): the credential is the whole header value.
			out.headers["Authorization"] = token
		default:
			out.headers["Authorization"] = "Bearer " + token
		}
	}
	return nil
}

var errNoToken = errors.New("the token function returned no token")

// rotates reports whether some credential comes from a function that may return a new token when asked again.
func (a *auth) rotates() bool {
	for _, c := range []*Credential{a.token, a.apiKey} {
		if c != nil && c.source != nil {
			return true
		}
	}
	for _, c := range a.credentials {
		if c.source != nil {
			return true
		}
	}
	return false
}

// renews reports whether a 401 with this code asks for a new token.
func (a *auth) renews(code string) bool {
	return a.renewOn == nil || contains(a.renewOn, code)
}

// setOn puts the credentials on a request; they win over headers of the same name.
func (ap *applied) setOn(req *http.Request) {
	for name, value := range ap.headers {
		req.Header.Set(name, value)
	}
	if len(ap.cookies) > 0 {
		parts := []string{}
		if before := req.Header.Get("Cookie"); before != "" {
			parts = append(parts, before)
		}
		req.Header.Set("Cookie", strings.Join(append(parts, ap.cookies...), "; "))
	}
	if len(ap.query) > 0 {
		q := req.URL.Query()
		for name, value := range ap.query {
			q.Set(name, value)
		}
		req.URL.RawQuery = q.Encode()
	}
}

// strip removes every header a credential may travel in, for a redirect to another origin. A query credential
// does not follow a redirect: the new URL comes from the Location header.
func (a *auth) strip(req *http.Request) {
	for _, name := range a.headerNames {
		req.Header.Del(name)
	}
}

// isCredentialHeader reports whether credentials may travel in the header of this name.
func (a *auth) isCredentialHeader(name string) bool {
	for _, n := range a.headerNames {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}
