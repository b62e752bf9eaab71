package sdkruntime

import (
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// redactionMark replaces every secret.
const redactionMark = "[redacted]"

// anywhereFromLength is the length from which a secret is redacted even inside a longer word; shorter ones only
// where they stand alone, so that the token "t" leaves the server's "no pet" alone.
const anywhereFromLength = 12

// bearerPattern finds a credential after a "Bearer" scheme name: token68 text of at least 8 characters. It is
// redacted only when the run of token68 characters that follows holds a digit or a symbol (see redactBearer).
var bearerPattern = regexp.MustCompile(`(?i)\b(Bearer\s+)([A-Za-z0-9._~+/-]{8,}=*)`)

// redactor removes secrets from texts. It is safe for concurrent use.
type redactor struct {
	mu      sync.RWMutex
	secrets map[string]struct{}
	brand   *regexp.Regexp
}

func newRedactor() *redactor {
	return &redactor{secrets: map[string]struct{}{}}
}

// add remembers a secret, and its query-encoded forms when they differ.
func (r *redactor) add(secret string) {
	if secret == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.secrets[secret] = struct{}{}
	for _, encoded := range []string{url.QueryEscape(secret), url.PathEscape(secret)} {
		if encoded != secret {
			r.secrets[encoded] = struct{}{}
		}
	}
}

// setBrand sets the branded token pattern from the model's token kinds.
func (r *redactor) setBrand(kinds *TokenKinds) {
	if kinds == nil || kinds.Brand == "" || len(kinds.Kinds) == 0 {
		return
	}
	prefixes := make([]string, 0, len(kinds.Kinds))
	for _, k := range kinds.Kinds {
		prefixes = append(prefixes, regexp.QuoteMeta(k.Prefix))
	}
	r.brand = regexp.MustCompile(regexp.QuoteMeta(kinds.Brand) + `(?:` + strings.Join(prefixes, "|") + `)[A-Za-z0-9._~-]+`)
}

// text returns the text with every secret, bearer credential and branded token replaced by the mark.
func (r *redactor) text(text string) string {
	if r == nil {
		return text
	}
	r.mu.RLock()
	secrets := make([]string, 0, len(r.secrets))
	for s := range r.secrets {
		secrets = append(secrets, s)
	}
	r.mu.RUnlock()
	return redactSecrets(text, secrets, r.brand)
}

// value returns a deep copy of a decoded JSON value with every string redacted.
func (r *redactor) value(v any) any {
	switch t := v.(type) {
	case string:
		return r.text(t)
	case []any:
		out := make([]any, len(t))
		for i, item := range t {
			out[i] = r.value(item)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, item := range t {
			out[k] = r.value(item)
		}
		return out
	default:
		return v
	}
}

// redactSecrets replaces each secret where it is not part of a longer word (anywhere when it is at least
// anywhereFromLength characters long), then bearer credentials, then branded tokens. Longest secrets go first, so
// that a secret inside another is not replaced before the longer one.
func redactSecrets(text string, secrets []string, brand *regexp.Regexp) string {
	sorted := make([]string, 0, len(secrets))
	for _, s := range secrets {
		if s != "" {
			sorted = append(sorted, s)
		}
	}
	sort.Slice(sorted, func(i, j int) bool {
		if len(sorted[i]) != len(sorted[j]) {
			return len(sorted[i]) > len(sorted[j])
		}
		return sorted[i] < sorted[j]
	})
	out := text
	for _, secret := range sorted {
		if utf8.RuneCountInString(secret) >= anywhereFromLength {
			out = strings.ReplaceAll(out, secret, redactionMark)
		} else {
			out = replaceBounded(out, secret)
		}
	}
	out = redactBearer(out)
	if brand != nil {
		out = brand.ReplaceAllString(out, redactionMark)
	}
	return out
}

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// replaceBounded replaces the secret where the characters around it do not extend a word it starts or ends with.
func replaceBounded(text, secret string) string {
	first, _ := utf8.DecodeRuneInString(secret)
	last, _ := utf8.DecodeLastRuneInString(secret)
	firstWord, lastWord := isWordRune(first), isWordRune(last)
	var b strings.Builder
	from := 0
	for at := 0; at <= len(text); {
		i := strings.Index(text[at:], secret)
		if i < 0 {
			break
		}
		pos := at + i
		end := pos + len(secret)
		at = pos + 1
		if pos < from {
			continue
		}
		if firstWord && pos > 0 {
			before, _ := utf8.DecodeLastRuneInString(text[:pos])
			if isWordRune(before) {
				continue
			}
		}
		if lastWord && end < len(text) {
			after, _ := utf8.DecodeRuneInString(text[end:])
			if isWordRune(after) {
				continue
			}
		}
		b.WriteString(text[from:pos])
		b.WriteString(redactionMark)
		from = end
	}
	b.WriteString(text[from:])
	return b.String()
}

func isToken68(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("._~+/=-", c) >= 0
}

// redactBearer replaces the credential after "Bearer " when the token68 run there holds a digit or a symbol
// (ordinary prose such as "Bearer authentication" is left alone).
func redactBearer(text string) string {
	matches := bearerPattern.FindAllStringSubmatchIndex(text, -1)
	if matches == nil {
		return text
	}
	var b strings.Builder
	from := 0
	for _, m := range matches {
		credStart, credEnd := m[4], m[5]
		runEnd := credStart
		for runEnd < len(text) && isToken68(text[runEnd]) {
			runEnd++
		}
		hasNonLetter := false
		for _, c := range []byte(text[credStart:runEnd]) {
			if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
				hasNonLetter = true
				break
			}
		}
		if !hasNonLetter {
			continue
		}
		b.WriteString(text[from:credStart])
		b.WriteString(redactionMark)
		from = credEnd
	}
	b.WriteString(text[from:])
	return b.String()
}
