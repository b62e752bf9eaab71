package sdkruntime

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"time"
)

// Defaults of a client's options.
const (
	// DefaultTimeout is the overall deadline of one call, retries included: above the longest hold of a job
	// submission.
	DefaultTimeout = 600 * time.Second
	// DefaultJobTimeout is the overall deadline of a submission with its wait, and of Wait.
	DefaultJobTimeout = time.Hour
	// DefaultMaxRetries is the number of retries after the first attempt.
	DefaultMaxRetries = 3
	// DefaultBaseDelay is the first backoff step; each retry doubles it, with full jitter.
	DefaultBaseDelay = 500 * time.Millisecond
	// DefaultMaxDelay is the largest backoff step.
	DefaultMaxDelay = 20 * time.Second
	// DefaultMaxRetryAfter is the largest wait honoured from a Retry-After header.
	DefaultMaxRetryAfter = 60 * time.Second
	// DefaultPollMin and DefaultPollMax bound the jittered gap between polls.
	DefaultPollMin = 5 * time.Second
	// DefaultPollMax is the upper bound of the jittered gap between polls.
	DefaultPollMax = 10 * time.Second
)

// Credential is the credential of one security scheme: a token or API key, or a user name and password for an
// HTTP basic scheme. Build one with [Token], [TokenFunc] or [Basic].
type Credential struct {
	token    string
	source   func(context.Context) (string, error)
	username string
	password string
	basic    bool
}

// Token is a credential holding a bearer token or an API key (or, for another HTTP scheme, the whole
// Authorization header value).
func Token(token string) Credential { return Credential{token: token} }

// TokenFunc is a credential whose token (or API key) is asked for before every request, for tokens that rotate.
// After a 401 whose error code the model's token kinds list as renewable (any 401 when the model states no token
// kinds), the function is asked once more and the request sent again: the service refused it before doing
// anything. Each token it returns is redacted from errors like any other credential.
func TokenFunc(fn func(ctx context.Context) (string, error)) Credential {
	return Credential{source: fn}
}

// Basic is a credential holding a user name and password for an HTTP basic scheme.
func Basic(username, password string) Credential {
	return Credential{username: username, password: password, basic: true}
}

type settings struct {
	baseURL         string
	baseURLSet      bool
	serverVariables map[string]string
	token           *Credential
	apiKey          *Credential
	basic           *Credential
	credentials     map[string]Credential
	secrets         []string
	httpClient      *http.Client
	maxRetries      int
	baseDelay       time.Duration
	maxDelay        time.Duration
	maxRetryAfter   time.Duration
	timeout         time.Duration
	jobTimeout      time.Duration
	pollMin         time.Duration
	pollMax         time.Duration
	headers         http.Header
	userAgentSuffix string
	lookupEnv       func(string) (string, bool)
	pacing          bool
	logger          *slog.Logger
	logLevel        *slog.Level
}

// Option configures a [Client]; pass options to [New].
type Option func(*settings)

// WithBaseURL sets the service address, instead of the environment variable the model names or its first server.
func WithBaseURL(baseURL string) Option {
	return func(s *settings) { s.baseURL, s.baseURLSet = baseURL, true }
}

// WithServerVariables gives values for the first server's URL variables, instead of their defaults.
func WithServerVariables(values map[string]string) Option {
	return func(s *settings) { s.serverVariables = values }
}

// WithToken sets the bearer token (http bearer, oauth2 and openIdConnect schemes), which also serves as the API
// key when WithAPIKey is not given. Default: the environment variable the model names.
func WithToken(token string) Option {
	return func(s *settings) {
		c := Token(token)
		s.token = &c
	}
}

// WithTokenSource sets a function that returns the current bearer token before every request, instead of a fixed
// token (see [TokenFunc]).
func WithTokenSource(fn func(ctx context.Context) (string, error)) Option {
	return func(s *settings) {
		c := TokenFunc(fn)
		s.token = &c
	}
}

// WithAPIKey sets the key of the model's apiKey schemes (header, query or cookie).
func WithAPIKey(key string) Option {
	return func(s *settings) {
		c := Token(key)
		s.apiKey = &c
	}
}

// WithBasicAuth sets the user name and password of the model's HTTP basic schemes.
func WithBasicAuth(username, password string) Option {
	return func(s *settings) {
		c := Basic(username, password)
		s.basic = &c
	}
}

// WithCredential sets the credential of one security scheme by its name in the model; it wins over WithToken,
// WithAPIKey and WithBasicAuth for that scheme.
func WithCredential(scheme string, credential Credential) Option {
	return func(s *settings) {
		if s.credentials == nil {
			s.credentials = map[string]Credential{}
		}
		s.credentials[scheme] = credential
	}
}

// WithSecrets names further strings to keep out of every error, like the credentials always are.
func WithSecrets(secrets ...string) Option {
	return func(s *settings) { s.secrets = append(s.secrets, secrets...) }
}

// WithHTTPClient sets the *http.Client requests go through (default: a new client without a timeout of its own,
// since deadlines come from the context and the runtime). The runtime uses a copy of it whose CheckRedirect first
// removes credentials from a redirect to another origin, then calls the client's own CheckRedirect. A Timeout of
// the given client also bounds each request, the hold of a job submission included.
func WithHTTPClient(client *http.Client) Option {
	return func(s *settings) { s.httpClient = client }
}

// WithMaxRetries sets the number of retries after the first attempt (default 3); 0 disables retries.
func WithMaxRetries(n int) Option {
	return func(s *settings) { s.maxRetries = n }
}

// WithRetryDelays sets the first backoff step and the largest one (defaults 500 ms and 20 s).
func WithRetryDelays(base, max time.Duration) Option {
	return func(s *settings) { s.baseDelay, s.maxDelay = base, max }
}

// WithMaxRetryAfter sets the largest wait honoured from a Retry-After header (default 60 s).
func WithMaxRetryAfter(d time.Duration) Option {
	return func(s *settings) { s.maxRetryAfter = d }
}

// WithTimeout sets the overall deadline of one call, retries included (default 600 s). A shorter deadline of
// the call's context wins.
func WithTimeout(d time.Duration) Option {
	return func(s *settings) { s.timeout = d }
}

// WithJobTimeout sets the overall deadline of a submission with its wait, and of Wait (default 1 h).
func WithJobTimeout(d time.Duration) Option {
	return func(s *settings) { s.jobTimeout = d }
}

// WithPollInterval sets the range the gap between polls is drawn from (default 5 to 10 s).
func WithPollInterval(min, max time.Duration) Option {
	return func(s *settings) { s.pollMin, s.pollMax = min, max }
}

// WithHeader adds a header to every request. Credentials and the User-Agent set by the runtime win over it.
func WithHeader(name, value string) Option {
	return func(s *settings) {
		if s.headers == nil {
			s.headers = http.Header{}
		}
		s.headers.Add(name, value)
	}
}

// WithUserAgentSuffix appends text to the User-Agent header.
func WithUserAgentSuffix(suffix string) Option {
	return func(s *settings) { s.userAgentSuffix = suffix }
}

// WithLookupEnv sets the function environment variables are read with (default os.LookupEnv); pass one that
// finds nothing to ignore the environment.
func WithLookupEnv(lookup func(string) (string, bool)) Option {
	return func(s *settings) { s.lookupEnv = lookup }
}

// WithPacing makes the client wait out the seconds the service asks for before the next request (the model's
// Envelope.NextRequestSeconds path) instead of meeting a 429. The wait never outlasts a call's deadline.
func WithPacing(on bool) Option {
	return func(s *settings) { s.pacing = on }
}

// WithLogger sets the logger of requests (debug, with their headers), answers (info: status, request id,
// duration), retries with their reason and delay (warn), job polls and token renewals (info). Entries carry the
// call's context and name the operation, method and path template, never the URL; credential headers and secrets
// show as [redacted]. Default: a text handler on stderr when a level is set ([WithLogLevel] or the environment
// variable the model names), else none.
func WithLogger(logger *slog.Logger) Option {
	return func(s *settings) { s.logger = logger }
}

// WithLogLevel logs entries of this level and above ([LevelOff]: none). Default: the level the environment
// variable the model names holds (debug, info, warn, error or off), else every level when [WithLogger] is given
// (its handler decides) and none without it.
func WithLogLevel(level slog.Level) Option {
	return func(s *settings) { s.logLevel = &level }
}

// CallOption configures one call.
type CallOption func(*callSettings)

type callSettings struct {
	baseURL     string
	timeout     time.Duration
	maxRetries  *int
	headers     http.Header
	query       url.Values
	extraBody   map[string]any
	mediaType   string
	jsonStrings []string
	pollMin     time.Duration
	pollMax     time.Duration
	pollSet     bool
	onProgress  func(JobProgress)
	// idempotencyKey is nil when no CallIdempotencyKey was given.
	idempotencyKey *string
	// nextURL is a paged read's next link: the call goes there instead, when it is at the operation's origin.
	nextURL string
}

// CallTimeout sets the overall deadline of this call, retries and polls included, instead of the client's.
func CallTimeout(d time.Duration) CallOption {
	return func(c *callSettings) { c.timeout = d }
}

// CallBaseURL sends this call to baseURL instead of the operation's own server or the client's base address.
func CallBaseURL(baseURL string) CallOption {
	return func(c *callSettings) { c.baseURL = baseURL }
}

// CallMaxRetries sets the retries after the first attempt of each request of this call.
func CallMaxRetries(n int) CallOption {
	return func(c *callSettings) { c.maxRetries = &n }
}

// CallHeader adds a header to the requests of this call.
func CallHeader(name, value string) CallOption {
	return func(c *callSettings) {
		if c.headers == nil {
			c.headers = http.Header{}
		}
		c.headers.Add(name, value)
	}
}

// CallQuery sets a query parameter of this call's requests, replacing one of the same name the operation sends.
func CallQuery(name, value string) CallOption {
	return func(c *callSettings) {
		if c.query == nil {
			c.query = url.Values{}
		}
		c.query.Set(name, value)
	}
}

// CallBodyField sets a member of this call's JSON body (or a field of its form body), over the body's own: for
// fields the model does not show. A call whose body is not a JSON object (or a form) is refused with a
// *ConfigError before anything is sent; a call without a body sends an object of these fields.
func CallBodyField(name string, value any) CallOption {
	return func(c *callSettings) {
		if c.extraBody == nil {
			c.extraBody = map[string]any{}
		}
		c.extraBody[name] = value
	}
}

// CallMediaType picks the body encoding (MediaMultipart or MediaForm) of an operation sent as a form (one whose
// body offers JSON is sent as JSON); without it such an operation sends multipart, or urlencoded when it takes
// only that (Operation.Urlencoded).
func CallMediaType(mediaType string) CallOption {
	return func(c *callSettings) { c.mediaType = mediaType }
}

// CallJSONStrings names body fields that travel as JSON text in a form body, besides the pipeline's own.
func CallJSONStrings(fields ...string) CallOption {
	return func(c *callSettings) { c.jsonStrings = append(c.jsonStrings, fields...) }
}

// CallPollInterval sets the range the gap between polls of this wait is drawn from.
func CallPollInterval(min, max time.Duration) CallOption {
	return func(c *callSettings) { c.pollMin, c.pollMax, c.pollSet = min, max, true }
}

// CallOnProgress sets a function called whenever the job status of a wait changes.
func CallOnProgress(fn func(JobProgress)) CallOption {
	return func(c *callSettings) { c.onProgress = fn }
}

// CallIdempotencyKey sets the idempotency key of this call, for an operation that takes one
// (Operation.IdempotencyKey): it is sent on every attempt of the call. Without it each call sends a new random
// UUID v4; give the same key again to send a call again without it being carried out twice. A call of an
// operation that takes no key is refused with a *ConfigError before anything is sent.
func CallIdempotencyKey(key string) CallOption {
	return func(c *callSettings) { c.idempotencyKey = &key }
}
