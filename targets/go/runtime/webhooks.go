package sdkruntime

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
	"unicode/utf8"
)

// WebhookErrorKind tells why a delivery was refused.
type WebhookErrorKind int

// Reasons a delivery is refused. A missing, malformed or wrong signature means the sender is not trusted
// (answer 401); the others concern a delivery that is signed but unusable (answer 400).
const (
	// WebhookMissingHeader: a required header is absent.
	WebhookMissingHeader WebhookErrorKind = iota + 1
	// WebhookMalformedHeader: a header does not have the required form, or appears more than once.
	WebhookMalformedHeader
	// WebhookSignatureMismatch: no secret gives the signature of the body.
	WebhookSignatureMismatch
	// WebhookInvalidPayload: the signed body is not a JSON object with an event id and type.
	WebhookInvalidPayload
	// WebhookHeaderMismatch: an unsigned header disagrees with the signed body.
	WebhookHeaderMismatch
	// WebhookStale: the signed timestamp lies outside the replay window, or is missing or unreadable.
	WebhookStale
)

// WebhookError reports a refused webhook delivery.
type WebhookError struct {
	jobTag
	// Kind tells why.
	Kind WebhookErrorKind
	// Header is the header concerned; "" when none is.
	Header string
	// Detail says what is wrong.
	Detail string
	// Err is the underlying error (a JSON error for an invalid payload); nil otherwise.
	Err error
}

// Error returns the error's text; credentials never appear in it.
func (e *WebhookError) Error() string {
	if e.Header != "" {
		return fmt.Sprintf("sdkruntime: webhook refused: %s: %s", e.Header, e.Detail)
	}
	return "sdkruntime: webhook refused: " + e.Detail
}

// Unwrap returns the underlying error.
func (e *WebhookError) Unwrap() error { return e.Err }

// WebhookEvent is a verified delivery.
type WebhookEvent struct {
	// EventID is the body's event id (equal to the event id header); the deduplication key.
	EventID string
	// EventType is the body's event type.
	EventType string
	// SubscriptionID is the subscription id header; "" when absent.
	SubscriptionID string
	// Known is true when EventType is one of the model's event types.
	Known bool
	// SecretIndex is the index of the secret that matched (watch it during a rotation).
	SecretIndex int
	// Body is the signed body, unchanged; decode it into the generated event type.
	Body json.RawMessage
}

// DefaultWebhookMaxAge is the replay window VerifyWebhook applies when VerifyOptions.MaxAge is 0: a delivery's
// signed timestamp may lie at most this far from the receiver's clock, before or after it.
const DefaultWebhookMaxAge = 300 * time.Second

// NoMaxAge as VerifyOptions.MaxAge turns the replay window off.
const NoMaxAge time.Duration = -1

// VerifyOptions tunes VerifyWebhook.
type VerifyOptions struct {
	// MaxAge is the replay window: a delivery whose signed timestamp lies further than this from the clock, in the
	// past or the future, or is missing, is refused (WebhookStale). 0 means DefaultWebhookMaxAge when the model
	// has a TimestampField (and no check when it has none); a negative value (NoMaxAge) turns the check off. A
	// positive value needs the model's TimestampField.
	MaxAge time.Duration
	// Now is the clock of the age check; nil means time.Now.
	Now func() time.Time
}

// SignWebhook returns the signature header value of a body: the model's prefix and the lowercase hex
// HMAC-SHA256 of the raw body under the secret's UTF-8 bytes.
func SignWebhook(model *Webhooks, rawBody []byte, secret string) (string, error) {
	if model == nil {
		return "", configError("SignWebhook: the model has no webhooks")
	}
	if secret == "" {
		return "", configError("SignWebhook: the secret is empty")
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(rawBody)
	return model.SignaturePrefix + hex.EncodeToString(mac.Sum(nil)), nil
}

// VerifyWebhook verifies a delivery and returns its event. The signature is checked first, against the
// unmodified raw body, with a constant-time comparison for each secret in turn (several during a rotation);
// only then is the body parsed and cross-checked with the unsigned headers. Pass the body exactly as received.
// It returns a *WebhookError on any refusal and a *ConfigError when the model or the secrets are unusable.
func VerifyWebhook(model *Webhooks, rawBody []byte, header http.Header, secrets []string, opts VerifyOptions) (*WebhookEvent, error) {
	if model == nil || model.SignatureHeader == "" || model.EventIDHeader == "" || model.EventIDField == "" || model.EventTypeField == "" {
		return nil, configError("VerifyWebhook: the model's webhooks need SignatureHeader, EventIDHeader, EventIDField and EventTypeField")
	}
	if len(secrets) == 0 {
		return nil, configError("VerifyWebhook: at least one webhook secret is required")
	}
	for i, s := range secrets {
		if s == "" {
			return nil, configError("VerifyWebhook: webhook secret %d is empty", i)
		}
	}
	if opts.MaxAge > 0 && model.TimestampField == "" {
		return nil, configError("VerifyWebhook: MaxAge needs the model's TimestampField")
	}
	maxAge := opts.MaxAge
	if maxAge == 0 && model.TimestampField != "" {
		maxAge = DefaultWebhookMaxAge
	}
	signature, err := singleHeader(header, model.SignatureHeader)
	if err != nil {
		return nil, err
	}
	if signature == "" {
		return nil, &WebhookError{Kind: WebhookMissingHeader, Header: model.SignatureHeader, Detail: "the header is missing"}
	}
	mac, ok := parseSignature(signature, model.SignaturePrefix)
	if !ok {
		return nil, &WebhookError{Kind: WebhookMalformedHeader, Header: model.SignatureHeader, Detail: fmt.Sprintf("expected %s followed by 64 lowercase hex digits", model.SignaturePrefix)}
	}
	index := -1
	for i, secret := range secrets {
		h := hmac.New(sha256.New, []byte(secret))
		h.Write(rawBody)
		if hmac.Equal(h.Sum(nil), mac) && index < 0 {
			index = i
		}
	}
	if index < 0 {
		return nil, &WebhookError{Kind: WebhookSignatureMismatch, Header: model.SignatureHeader, Detail: "the signature does not match the body"}
	}

	// From here on the body is authentic.
	eventIDHeader, err := singleHeader(header, model.EventIDHeader)
	if err != nil {
		return nil, err
	}
	if eventIDHeader == "" {
		return nil, &WebhookError{Kind: WebhookMissingHeader, Header: model.EventIDHeader, Detail: "the header is missing"}
	}
	if !utf8.Valid(rawBody) {
		return nil, &WebhookError{Kind: WebhookInvalidPayload, Detail: "the body is not UTF-8"}
	}
	var body map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(rawBody))
	if err := dec.Decode(&body); err != nil || body == nil {
		return nil, &WebhookError{Kind: WebhookInvalidPayload, Detail: "the body is not a JSON object", Err: err}
	}
	env := envelope(body)
	eventID, ok := env.str(model.EventIDField)
	if !ok || eventID == "" {
		return nil, &WebhookError{Kind: WebhookInvalidPayload, Detail: model.EventIDField + " is missing or not a string"}
	}
	eventType, ok := env.str(model.EventTypeField)
	if !ok || eventType == "" {
		return nil, &WebhookError{Kind: WebhookInvalidPayload, Detail: model.EventTypeField + " is missing or not a string"}
	}
	if eventID != eventIDHeader {
		return nil, &WebhookError{Kind: WebhookHeaderMismatch, Header: model.EventIDHeader, Detail: "does not equal the body's " + model.EventIDField}
	}
	if model.EventTypeHeader != "" {
		v, err := singleHeader(header, model.EventTypeHeader)
		if err != nil {
			return nil, err
		}
		if v != "" && v != eventType {
			return nil, &WebhookError{Kind: WebhookHeaderMismatch, Header: model.EventTypeHeader, Detail: "does not equal the body's " + model.EventTypeField}
		}
	}
	subscription := ""
	if model.SubscriptionIDHeader != "" {
		subscription, err = singleHeader(header, model.SubscriptionIDHeader)
		if err != nil {
			return nil, err
		}
		if raw, ok := body[model.SubscriptionIDField]; ok && subscription != "" && model.SubscriptionIDField != "" {
			var s string
			var n json.Number
			inBody, comparable := "", false
			if json.Unmarshal(raw, &s) == nil {
				inBody, comparable = s, true
			} else if json.Unmarshal(raw, &n) == nil {
				inBody, comparable = n.String(), true
			}
			if comparable && inBody != subscription {
				return nil, &WebhookError{Kind: WebhookHeaderMismatch, Header: model.SubscriptionIDHeader, Detail: "does not equal the body's " + model.SubscriptionIDField}
			}
		}
	}
	if maxAge > 0 {
		if err := checkAge(env, model.TimestampField, maxAge, opts.Now); err != nil {
			return nil, err
		}
	}
	return &WebhookEvent{
		EventID:        eventID,
		EventType:      eventType,
		SubscriptionID: subscription,
		Known:          contains(model.EventTypes, eventType),
		SecretIndex:    index,
		Body:           append(json.RawMessage(nil), rawBody...),
	}, nil
}

// checkAge refuses a signed timestamp outside now +/- maxAge, naming the field and the age (the same rule in
// every language's runtime).
func checkAge(env envelope, field string, maxAge time.Duration, clock func() time.Time) error {
	now := time.Now
	if clock != nil {
		now = clock
	}
	stamp, ok := env.str(field)
	sentAt, err := time.Parse(time.RFC3339Nano, stamp)
	if !ok || err != nil {
		return &WebhookError{Kind: WebhookStale, Detail: "the body's " + field + " is missing or not an ISO 8601 time, so the delivery's age cannot be checked"}
	}
	window := fmt.Sprintf("outside the replay window of %d s", int64(maxAge.Round(time.Second)/time.Second))
	age := now().Sub(sentAt)
	if age > maxAge {
		return &WebhookError{Kind: WebhookStale, Detail: fmt.Sprintf("the body's %s is %d s old, %s", field, int64(age.Round(time.Second)/time.Second), window)}
	}
	if -age > maxAge {
		return &WebhookError{Kind: WebhookStale, Detail: fmt.Sprintf("the body's %s is %d s in the future, %s", field, int64((-age).Round(time.Second)/time.Second), window)}
	}
	return nil
}

// parseSignature returns the MAC of "<prefix><64 lowercase hex digits>".
func parseSignature(value, prefix string) ([]byte, bool) {
	if len(value) != len(prefix)+64 || value[:len(prefix)] != prefix {
		return nil, false
	}
	digits := value[len(prefix):]
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return nil, false
		}
	}
	mac, err := hex.DecodeString(digits)
	return mac, err == nil
}

// singleHeader returns the one value of a header ("" when absent); several values make it malformed.
func singleHeader(header http.Header, name string) (string, error) {
	values := header.Values(name)
	if len(values) > 1 {
		return "", &WebhookError{Kind: WebhookMalformedHeader, Header: name, Detail: "more than one value"}
	}
	if len(values) == 0 {
		return "", nil
	}
	return values[0], nil
}

// String returns the kind's name, for messages.
func (k WebhookErrorKind) String() string {
	switch k {
	case WebhookMissingHeader:
		return "missing header"
	case WebhookMalformedHeader:
		return "malformed header"
	case WebhookSignatureMismatch:
		return "signature mismatch"
	case WebhookInvalidPayload:
		return "invalid payload"
	case WebhookHeaderMismatch:
		return "header mismatch"
	case WebhookStale:
		return "stale delivery"
	default:
		return fmt.Sprintf("WebhookErrorKind(%d)", int(k))
	}
}
