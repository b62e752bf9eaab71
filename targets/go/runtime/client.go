package sdkruntime

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

// Client sends the operations of one service. Create it with [New]; it is safe for concurrent use.
type Client struct {
	model   *Model
	baseURL string
	base    *url.URL
	// baseURLGiven: the base address came from WithBaseURL or the environment variable, and applies to every
	// operation, those with servers of their own too.
	baseURLGiven  bool
	http          *http.Client
	auth          *auth
	redact        *redactor
	maxRetries    int
	baseDelay     time.Duration
	maxDelay      time.Duration
	maxRetryAfter time.Duration
	timeout       time.Duration
	jobTimeout    time.Duration
	pollMin       time.Duration
	pollMax       time.Duration
	headers       http.Header
	userAgent     string
	selector      *regexp.Regexp
	pacing        bool
	logger        *slog.Logger
	logLevel      slog.Level
	// given holds the options the client was made with, for WithOptions.
	given []Option
	// paceMu guards nextAllowed, the earliest time of the next request when pacing is on.
	paceMu      sync.Mutex
	nextAllowed time.Time
}

// New creates a client for the service the model describes. It checks the model and the options once and
// returns a *ConfigError naming what is wrong; nothing is sent.
func New(model *Model, opts ...Option) (*Client, error) {
	if model == nil {
		return nil, configError("New: the model is nil")
	}
	s := settings{
		maxRetries:    DefaultMaxRetries,
		baseDelay:     DefaultBaseDelay,
		maxDelay:      DefaultMaxDelay,
		maxRetryAfter: DefaultMaxRetryAfter,
		timeout:       DefaultTimeout,
		jobTimeout:    DefaultJobTimeout,
		pollMin:       DefaultPollMin,
		pollMax:       DefaultPollMax,
		lookupEnv:     os.LookupEnv,
	}
	for _, opt := range opts {
		if opt != nil {
			opt(&s)
		}
	}
	if err := checkSettings(&s); err != nil {
		return nil, err
	}
	env := func(name string) string {
		if name == "" {
			return ""
		}
		v, ok := s.lookupEnv(name)
		if !ok {
			return ""
		}
		return strings.TrimSpace(v)
	}
	baseURL, err := resolveBaseURL(model, &s, env)
	if err != nil {
		return nil, err
	}
	base, _ := url.Parse(baseURL)
	if s.token == nil {
		if t := env(model.Env.Token); t != "" {
			c := Token(t)
			s.token = &c
		}
	}
	red := newRedactor()
	if model.Conventions != nil {
		red.setBrand(model.Conventions.Tokens)
	}
	for _, secret := range s.secrets {
		red.add(secret)
	}
	a, err := newAuth(model, &s, red)
	if err != nil {
		return nil, err
	}
	logger, logLevel, err := resolveLogging(model, &s, env)
	if err != nil {
		return nil, err
	}
	c := &Client{
		model:         model,
		baseURL:       baseURL,
		base:          base,
		baseURLGiven:  s.baseURLSet || env(model.Env.BaseURL) != "",
		auth:          a,
		redact:        red,
		maxRetries:    s.maxRetries,
		baseDelay:     s.baseDelay,
		maxDelay:      s.maxDelay,
		maxRetryAfter: s.maxRetryAfter,
		timeout:       s.timeout,
		jobTimeout:    s.jobTimeout,
		pollMin:       s.pollMin,
		pollMax:       s.pollMax,
		headers:       s.headers.Clone(),
		userAgent:     UserAgent(model, s.userAgentSuffix),
		pacing:        s.pacing,
		logger:        logger,
		logLevel:      logLevel,
		given:         append([]Option(nil), opts...),
	}
	if model.Jobs != nil && model.Jobs.Submit.SelectorPattern != "" {
		re, err := regexp.Compile(model.Jobs.Submit.SelectorPattern)
		if err != nil {
			return nil, configError("model: Jobs.Submit.SelectorPattern %q is not a valid regular expression: %v", model.Jobs.Submit.SelectorPattern, err)
		}
		c.selector = re
	}
	c.http = c.wrapHTTPClient(s.httpClient)
	return c, nil
}

// WithOptions returns a copy of the client with opts applied after the options it was made with: an option given
// again replaces the earlier value, and [WithHeader] adds its header to the client's. The copy shares the HTTP
// client (and so its connections) and has a state of its own (pacing). The options are checked as [New] checks
// them.
func (c *Client) WithOptions(opts ...Option) (*Client, error) {
	return New(c.model, append(append([]Option(nil), c.given...), opts...)...)
}

func checkSettings(s *settings) error {
	switch {
	case s.maxRetries < 0:
		return configError("WithMaxRetries: %d is negative; pass 0 or more", s.maxRetries)
	case s.baseDelay < 0 || s.maxDelay < s.baseDelay:
		return configError("WithRetryDelays: need 0 <= base <= max, got %s and %s", s.baseDelay, s.maxDelay)
	case s.maxRetryAfter < 0:
		return configError("WithMaxRetryAfter: %s is negative", s.maxRetryAfter)
	case s.timeout <= 0:
		return configError("WithTimeout: %s is not a positive duration", s.timeout)
	case s.jobTimeout <= 0:
		return configError("WithJobTimeout: %s is not a positive duration", s.jobTimeout)
	case s.pollMin < 0 || s.pollMax < s.pollMin:
		return configError("WithPollInterval: need 0 <= min <= max, got %s and %s", s.pollMin, s.pollMax)
	case s.lookupEnv == nil:
		return configError("WithLookupEnv: the function is nil")
	}
	return nil
}

// BaseURL returns the service address the client sends to, without a trailing slash.
func (c *Client) BaseURL() string { return c.baseURL }

// Model returns the model the client was created with.
func (c *Client) Model() *Model { return c.model }

func resolveBaseURL(model *Model, s *settings, env func(string) string) (string, error) {
	var given, source string
	var server *Server
	if len(model.Servers) > 0 {
		server = &model.Servers[0]
	}
	if s.serverVariables != nil && server == nil {
		return "", configError("WithServerVariables: the description declares no servers")
	}
	switch fromEnv := env(model.Env.BaseURL); {
	case s.baseURLSet:
		given, source = s.baseURL, "WithBaseURL"
	case fromEnv != "":
		given, source = fromEnv, "the environment variable "+model.Env.BaseURL
	case server != nil:
		filled, err := fillServer(server, s.serverVariables)
		if err != nil {
			return "", err
		}
		given, source = filled, fmt.Sprintf("the description's server %q", server.URL)
	default:
		return "", configError("WithBaseURL is required: the description declares no servers")
	}
	suffix := ""
	if model.Conventions != nil {
		suffix = model.Conventions.BasePathSuffix
	}
	return checkBaseURL(given, source, suffix)
}

// operationBase is the base address one call of op goes to, and its origin, whose credentials the call carries:
// the call's CallBaseURL when given; else the client's when it was given (WithBaseURL or the environment
// variable), which then applies to every operation so that a mock or proxy sees them all; else the operation's
// first own server, variables at their defaults, a relative one resolved below the client's base address.
func (c *Client) operationBase(op *Operation, override string) (string, *url.URL, error) {
	given, source := override, "CallBaseURL"
	if override == "" {
		if c.baseURLGiven || len(op.Servers) == 0 {
			return c.baseURL, c.base, nil
		}
		server := &op.Servers[0]
		filled, err := fillServer(server, nil)
		if err != nil {
			return "", nil, err
		}
		given, source = filled, fmt.Sprintf("the server %q of operation %s", server.URL, op.ID)
		// Below the base address as a folder: "uploads" is under its path, "/uploads" at its origin.
		if ref, err := url.Parse(filled); err == nil {
			if folder, err := url.Parse(c.baseURL + "/"); err == nil {
				given = folder.ResolveReference(ref).String()
			}
		}
	}
	base, err := checkBaseURL(given, source, "")
	if err != nil {
		return "", nil, err
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", nil, configError("%s: %s gives %q, which is no URL: %v", op.ID, source, given, err)
	}
	return base, u, nil
}

var serverVariable = regexp.MustCompile(`\{([^{}]+)\}`)

func fillServer(server *Server, values map[string]string) (string, error) {
	names := make([]string, 0, len(values))
	for name := range values {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		variable, ok := server.Variables[name]
		if !ok {
			return "", configError("WithServerVariables: the server %q has no variable %q", server.URL, name)
		}
		if len(variable.Enum) > 0 && !contains(variable.Enum, values[name]) {
			return "", configError("WithServerVariables: %s must be one of %q, got %q", name, variable.Enum, values[name])
		}
	}
	return serverVariable.ReplaceAllStringFunc(server.URL, func(whole string) string {
		name := whole[1 : len(whole)-1]
		if v, ok := values[name]; ok {
			return v
		}
		if v, ok := server.Variables[name]; ok {
			return v.Default
		}
		return whole
	}), nil
}

func checkBaseURL(given, source, suffix string) (string, error) {
	rule := ""
	if suffix != "" {
		rule = " ending in " + suffix
	}
	hint := ""
	if source != "WithBaseURL" {
		hint = "; pass WithBaseURL"
	}
	text := strings.TrimSpace(given)
	u, err := url.Parse(text)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return "", configError("the base URL must be an absolute http(s) address%s, without query or fragment: %s gives %q%s", rule, source, given, hint)
	}
	if serverVariable.MatchString(u.Host + u.Path) {
		return "", configError("the base URL has an unfilled server variable: %s gives %q%s", source, given, hint)
	}
	base := strings.TrimRight(text, "/")
	if suffix != "" && !strings.HasSuffix(base, suffix) {
		return "", configError("the base URL must end in %s (the description's base-path rule): %s gives %q%s", suffix, source, given, hint)
	}
	return base, nil
}

// wrapHTTPClient returns a copy of the caller's client (or a new one) whose redirects never carry credentials
// to another origin.
func (c *Client) wrapHTTPClient(given *http.Client) *http.Client {
	var hc http.Client
	if given != nil {
		hc = *given
	}
	theirs := hc.CheckRedirect
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		if !sameOrigin(req.URL, via[0].URL) {
			c.auth.strip(req)
		}
		if theirs != nil {
			return theirs(req, via)
		}
		return nil
	}
	return &hc
}

// sameOrigin compares scheme, host and port (default ports made explicit).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && portOf(a) == portOf(b)
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

func contains(list []string, v string) bool {
	for _, item := range list {
		if item == v {
			return true
		}
	}
	return false
}
