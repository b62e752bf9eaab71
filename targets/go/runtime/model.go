package sdkruntime

// Model is what the runtime needs to know about one release of an API description. Generated code fills it;
// the runtime reads it and never changes it. It is the Go counterpart of the TypeScript runtime's ServiceModel.
type Model struct {
	// Release identifies the release of the description, for example "R20261120.0900".
	Release string
	// DescriptionHash is the sha256 hex of the description the client was generated from.
	DescriptionHash string
	// Title is the description's info.title; with Release it names the client in the User-Agent.
	Title string
	// Errors is the error table: stable error code to HTTP status and description.
	Errors map[string]ErrorSpec
	// Pipelines describes the pipelines of the job submission operation by slug.
	Pipelines map[string]Pipeline
	// Pricing is the price list of job submission; nil when the description states none.
	Pricing *Pricing
	// Servers are the description's servers; the first one is the default base address.
	Servers []Server
	// SecuritySchemes are the description's security schemes by name.
	SecuritySchemes map[string]SecurityScheme
	// Env names the environment variables read for a default token, base address and log level.
	Env EnvNames
	// RequestIDHeader is the response header that carries the request id; empty when the service sends none.
	RequestIDHeader string
	// Conventions are service-wide conventions the description states; nil for a plain description.
	Conventions *Conventions
	// Jobs names the operations that submit, poll and download jobs, with their field names; nil when the
	// description marks none, which makes the job helpers unavailable.
	Jobs *Jobs
	// Webhooks describes how deliveries are signed; nil when the description has no webhooks.
	Webhooks *Webhooks
}

// ErrorSpec is one row of the error table.
type ErrorSpec struct {
	// Status is the HTTP status the service answers with this code.
	Status int
	// Description is the description's text for the code, used when an answer carries no message.
	Description string
}

// EnvNames names environment variables; an empty name is not read.
type EnvNames struct {
	// Token is the variable holding a default bearer token (or API key).
	Token string
	// BaseURL is the variable holding a default base address.
	BaseURL string
	// Log is the variable holding the log level: debug, info, warn, error or off (see [WithLogLevel]).
	Log string
}

// Server is one entry of the description's servers.
type Server struct {
	// URL is the URL template, for example "https://{host}/v1".
	URL string
	// Variables are the template's variables by name.
	Variables map[string]ServerVariable
}

// ServerVariable is one variable of a server URL template.
type ServerVariable struct {
	// Default is the value used when the caller gives none.
	Default string
	// Enum lists the allowed values; empty means any value.
	Enum []string
}

// Security scheme types, as the description writes them.
const (
	SchemeHTTP          = "http"
	SchemeAPIKey        = "apiKey"
	SchemeOAuth2        = "oauth2"
	SchemeOpenIDConnect = "openIdConnect"
	SchemeMutualTLS     = "mutualTLS"
)

// SecurityScheme is a security scheme as the runtime applies it. oauth2 and openIdConnect tokens travel as
// bearer tokens; mutualTLS credentials travel with the connection (configure the *http.Client).
type SecurityScheme struct {
	// Type is one of SchemeHTTP, SchemeAPIKey, SchemeOAuth2, SchemeOpenIDConnect, SchemeMutualTLS.
	Type string
	// Scheme is the HTTP authentication scheme of an http scheme, for example "bearer" or "basic".
	Scheme string
	// In is where an apiKey travels: "header", "query" or "cookie".
	In string
	// Name is the header, query parameter or cookie name of an apiKey.
	Name string
}

// Conventions are service-wide conventions the description states.
type Conventions struct {
	// BasePathSuffix is a path the base address must end with; empty for none.
	BasePathSuffix string
	// Envelope names the fields of the JSON object every answer is wrapped in; nil for none.
	Envelope *Envelope
	// Tokens describes the token kinds of a security scheme; nil for none.
	Tokens *TokenKinds
}

// Envelope holds the field names of the JSON object every answer is wrapped in.
type Envelope struct {
	// Status is the field that says whether the answer is a success or an error.
	Status string
	// Success is the value of the status field on success.
	Success string
	// Error is the value of the status field on error.
	Error string
	// Code is the field holding the stable error code.
	Code string
	// Message is the field holding the error message.
	Message string
	// ProcessingTime is the field holding the processing time; empty for none.
	ProcessingTime string
	// Billing is the field holding the billing object; empty for none.
	Billing string
	// NextRequestSeconds is the path of fields to the seconds to wait before the next request; empty for none.
	NextRequestSeconds []string
}

// TokenKinds describes the kinds of tokens of one security scheme, told apart by "<brand><prefix>".
type TokenKinds struct {
	// Scheme is the security scheme the tokens belong to.
	Scheme string
	// Brand is the common start of every token, for example "svc_".
	Brand string
	// Kinds are the token kinds.
	Kinds []TokenKind
	// RenewOn lists 401 error codes after which a token is asked for again.
	RenewOn []string
}

// TokenKind is one kind of token.
type TokenKind struct {
	// Prefix follows the brand in tokens of this kind.
	Prefix string
	// Name names the kind, for example "secret".
	Name string
	// ServerOnly is true for kinds that must not reach end users.
	ServerOnly bool
}

// Jobs names the operations that submit, poll and download jobs, and the fields they use.
type Jobs struct {
	// Submit describes the job submission operation.
	Submit JobSubmit
	// Poll describes the operation that reads a job's state.
	Poll JobPoll
	// Download describes the operation that downloads a result file by token; nil for none.
	Download *JobDownload
}

// JobSubmit describes the job submission operation.
type JobSubmit struct {
	// Operation is the submission operation. It is never sent twice, whatever its Idempotent flag says.
	Operation Operation
	// PipelineParameter is the path parameter naming the pipeline; empty when the path has none.
	PipelineParameter string
	// JobID is the answer field holding the job id.
	JobID string
	// PollURL is the answer field holding the poll address; empty for none.
	PollURL string
	// StillRunningStatus is the HTTP status meaning "the hold ran out, the job goes on" (for example 202); 0 for none.
	StillRunningStatus int
	// NoWait is the body field and value that ask the service not to hold the request; nil for none.
	NoWait *NoWait
	// SelectorPattern is a regular expression a pipeline slug must match; empty accepts any non-empty slug.
	SelectorPattern string
	// SelectorRefusal is the error code the service answers for a slug the pattern rejects; empty for none.
	SelectorRefusal string
}

// NoWait is a body field and the value that asks the service to answer at once instead of holding the request.
type NoWait struct {
	// Field is the body field.
	Field string
	// Value is the field's value: a string, number or bool.
	Value any
}

// JobPoll describes the operation that reads a job's state.
type JobPoll struct {
	// Operation is the poll operation.
	Operation Operation
	// JobIDParameter is the path parameter that takes the job id.
	JobIDParameter string
	// Status is the answer field holding the job status.
	Status string
	// Completed is the job status value of a finished job.
	Completed string
	// Payload lists the answer fields that may hold the result; the first one holding a value is the result.
	Payload []string
}

// JobDownload describes the operation that downloads a result file by token.
type JobDownload struct {
	// Operation is the download operation.
	Operation Operation
	// TokenParameter is the path parameter that takes the download token.
	TokenParameter string
}

// Pipeline describes one pipeline of the job submission operation.
type Pipeline struct {
	// PayloadAfterPolling is the payload field that holds the finished payload after polling.
	PayloadAfterPolling string
	// BaseCredits is the pipeline's base price; nil when the price list does not state it.
	BaseCredits *float64
	// JSONStrings lists body fields of this pipeline that travel as JSON text.
	JSONStrings []string
	// Variants lists the fields each variant takes, for the check before sending: a body with a field that no
	// variant it may be of takes is refused. Empty: any field is sent as it is.
	Variants []VariantFields
}

// VariantFields holds the body fields of one variant of a pipeline.
type VariantFields struct {
	// Name is the variant's name in the description.
	Name string
	// DiscriminatorProperty and DiscriminatorValue are the body field and value that choose the variant; both ""
	// when the description states none.
	DiscriminatorProperty, DiscriminatorValue string
	// Open is true when the variant's parameters are not shown, and so any field goes.
	Open bool
	// Fields lists every field the variant takes.
	Fields []string
}

// Pricing is the price list of job submission: base credits times lane multiplier, at least MinimumCharge.
type Pricing struct {
	// LaneMultipliers maps each processing lane to its multiplier.
	LaneMultipliers map[string]float64
	// DefaultLane is the lane used when none is named.
	DefaultLane string
	// MinimumCharge is the least a job costs; 0 for none.
	MinimumCharge float64
}

// Media types of request bodies the runtime encodes itself. Any other media type sends the body as it is.
const (
	MediaJSON      = "application/json"
	MediaMultipart = "multipart/form-data"
	MediaForm      = "application/x-www-form-urlencoded"
)

// Response kinds of an operation.
const (
	ResponseJSON   = "json"
	ResponseBinary = "binary"
)

// Job roles of an operation.
const (
	JobRoleSubmit   = "submit"
	JobRolePoll     = "poll"
	JobRoleDownload = "download"
)

// Operation is one operation of the description, as the generated client describes it to the runtime.
type Operation struct {
	// ID is the operationId; it names the operation in errors and never holds request data.
	ID string
	// Method is the HTTP method in upper case.
	Method string
	// Path is the path template below the base address, for example "/things/{id}".
	Path string
	// RequestMediaType is the media type of the request body; empty when the operation takes none.
	RequestMediaType string
	// Urlencoded is true when the operation takes only MediaForm: a form body goes urlencoded unless the call
	// picks multipart. When false a form operation sends multipart (clients generated before this field name
	// MediaForm for operations that take both forms).
	Urlencoded bool
	// JSONMediaType is the Content-Type of a JSON body where the operation declares another JSON media type
	// than MediaJSON (application/merge-patch+json); empty means MediaJSON.
	JSONMediaType string
	// Response is ResponseJSON or ResponseBinary; empty means ResponseJSON.
	Response string
	// Idempotent says whether the operation may be sent again after a failure that may have reached the
	// server. nil means true for GET, HEAD, PUT, DELETE, OPTIONS and TRACE and false otherwise. A job submission
	// is never sent again, whatever this says.
	Idempotent *bool
	// Billed is true when each call is charged.
	Billed bool
	// IdempotencyKey is the request header the operation takes an idempotency key in; empty means none. Each call
	// sends one ([CallIdempotencyKey], else a random UUID v4 made for the call), the same one on every retry, and
	// so may be sent again after a failure that may have reached the server, billed or not.
	IdempotencyKey string
	// Job is the part the operation plays in jobs: JobRoleSubmit, JobRolePoll, JobRoleDownload or empty.
	Job string
	// Security lists alternatives of security scheme names, any one of which is enough. An empty alternative,
	// or no alternatives at all, means none is needed and nothing is sent. The generator writes the effective
	// security of each operation (the description's global security when the operation states none).
	Security [][]string
	// Pagination names how the operation pages, when the description states it (see Pages); nil otherwise.
	Pagination *Pagination
	// Servers are the operation's own servers (operation- or path-level); empty for none. The call goes to the
	// first, variables at their defaults, a relative one resolved below the client's base address, unless the
	// client's base address was given (WithBaseURL or the environment variable), which applies to every operation.
	Servers []Server
}

// Webhooks describes how the service signs webhook deliveries: header names, body field names and the
// signature form, all from the description.
type Webhooks struct {
	// SignatureHeader carries the signature, for example "X-Service-Signature".
	SignatureHeader string
	// SignaturePrefix precedes the lowercase hex HMAC-SHA256 in the signature header, for example "sha256=".
	SignaturePrefix string
	// EventIDHeader carries the event id; it must equal the body's EventIDField.
	EventIDHeader string
	// EventTypeHeader carries the event type; when present it must equal the body's EventTypeField. Empty for none.
	EventTypeHeader string
	// SubscriptionIDHeader carries the subscription id; when present it must equal the body's
	// SubscriptionIDField. Empty for none.
	SubscriptionIDHeader string
	// EventIDField is the body field holding the event id.
	EventIDField string
	// EventTypeField is the body field holding the event type.
	EventTypeField string
	// SubscriptionIDField is the body field holding the subscription id; empty for none.
	SubscriptionIDField string
	// TimestampField is the body field holding the RFC 3339 time the delivery was signed; empty for none.
	TimestampField string
	// EventTypes are the event types the description names; others are reported as unknown.
	EventTypes []string
}
