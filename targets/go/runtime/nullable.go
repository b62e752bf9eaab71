package sdkruntime

import (
	"bytes"
	"encoding/json"
)

// Nullable is a field the description allows to be null: absent, null or a value, told apart. Generated types
// use it for every nullable field whose type cannot hold a null itself, so that an answer's null is not read as
// "" or 0 and a request can send null (to clear a field with PATCH, say).
//
// The zero value is absent. An optional field is tagged omitzero: an absent one is left out of the JSON,
// [Null] sends null and [Value] sends the value. EncodeObject leaves absent fields out whichever Go release
// builds the module (encoding/json knows omitzero from Go 1.24 on). A required field is always sent: absent or
// null as null. Reading JSON, null gives [Nullable.IsNull] and a member that is not there leaves the field absent.
//
// Compare with IsSet, IsNull and Get rather than ==: two Nullables holding equal values need not be ==.
type Nullable[T any] struct {
	// value is nil for null; a pointer, so that a type may hold a Nullable of itself.
	value *T
	set   bool
}

// Null returns an explicit null: the field is sent as null.
func Null[T any]() Nullable[T] { return Nullable[T]{set: true} }

// Value returns a field set to v: Value("en_US").
func Value[T any](v T) Nullable[T] { return Nullable[T]{value: &v, set: true} }

// IsSet reports whether the field is null or holds a value, that is, not absent.
func (n Nullable[T]) IsSet() bool { return n.set }

// IsNull reports whether the field is an explicit null.
func (n Nullable[T]) IsNull() bool { return n.set && n.value == nil }

// Get returns the value and true, or T's zero value and false when the field is null or absent.
func (n Nullable[T]) Get() (T, bool) {
	if n.value == nil {
		var zero T
		return zero, false
	}
	return *n.value, true
}

// IsZero reports whether the field is absent; it is what the omitzero tag asks.
func (n Nullable[T]) IsZero() bool { return !n.set }

// MarshalJSON encodes the value, or null when the field is null or absent.
func (n Nullable[T]) MarshalJSON() ([]byte, error) {
	if n.value == nil {
		return []byte("null"), nil
	}
	return json.Marshal(*n.value)
}

// UnmarshalJSON reads null as an explicit null and anything else as a value of T.
func (n *Nullable[T]) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		*n = Null[T]()
		return nil
	}
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*n = Value(v)
	return nil
}
