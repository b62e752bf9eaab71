package sdkruntime

import (
	"crypto/rand"
	"fmt"
	"net/http"
)

// idempotencyHeader puts the call's idempotency key among its headers, once per call, so that every retry of the
// call sends the same key and the server carries the call out once: a header of that name among the call's own
// (CallHeader), else the CallIdempotencyKey option's, else a new random UUID v4. It overrides a WithHeader header of
// that name: one key shared by every call would make the server carry out only the first. An
// operation that takes no key refuses the option rather than sending a header its server ignores.
func idempotencyHeader(op *Operation, cs *callSettings, headers map[string][]string) error {
	if cs.idempotencyKey != nil && op.IdempotencyKey == "" {
		return configError("%s: the operation takes no idempotency key (CallIdempotencyKey); nothing was sent", op.ID)
	}
	if cs.idempotencyKey != nil && *cs.idempotencyKey == "" {
		return configError("%s: CallIdempotencyKey: the key is empty; nothing was sent", op.ID)
	}
	if op.IdempotencyKey == "" {
		return nil
	}
	key := ""
	name := http.CanonicalHeaderKey(op.IdempotencyKey)
	for given, values := range headers {
		if http.CanonicalHeaderKey(given) == name {
			if len(values) > 0 && values[0] != "" {
				key = values[0]
			}
			delete(headers, given)
		}
	}
	if key == "" && cs.idempotencyKey != nil {
		key = *cs.idempotencyKey
	}
	if key == "" {
		var err error
		if key, err = newUUID(); err != nil {
			return configError("%s: no idempotency key could be made: %v", op.ID, err)
		}
	}
	headers[name] = []string{key}
	return nil
}

// newUUID returns a random UUID of version 4 (RFC 9562), from crypto/rand.
func newUUID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]), nil
}
