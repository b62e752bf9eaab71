// Unions of a generated client (oneOf and anyOf): a struct with one field per member, of which exactly one is
// set. The generated MarshalJSON and UnmarshalJSON call EncodeUnion and DecodeUnion with what the description
// says of each member; none of it knows a service.

package sdkruntime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// UnionMember describes one member of a union to DecodeUnion: what JSON values it takes and how to store one.
type UnionMember struct {
	// Field is the member's field of the union struct (OfCat), named in errors.
	Field string
	// Kind is the JSON kind the member takes: "string", "number", "integer", "boolean", "array" or "object"; ""
	// takes any value and leaves the choice to Decode.
	Kind string
	// Values are the JSON texts of the values an enum member allows; nil allows any value of Kind.
	Values []string
	// Required are the properties an object member requires.
	Required []string
	// Known are the properties an object member declares: a value with only these is an exact match.
	Known []string
	// Consts are the properties of an object member that allow one value, with its JSON text: present, they
	// must have it.
	Consts map[string]string
	// Tags are the discriminator values that pick this member, for a union with a discriminator.
	Tags []string
	// Decode decodes a value into the member's field; an error tries the next member.
	Decode func(data []byte) error
}

// UnionValue is one member's field of a union value, for EncodeUnion.
type UnionValue struct {
	// Field is the member's field of the union struct.
	Field string
	// Set says the field holds a value.
	Set bool
	// Value is the field's value.
	Value any
}

// UnionError is a value that is none of a union's members, or a union value with no member or several set.
type UnionError struct {
	// Union is the Go type of the union.
	Union string
	// Message says what is wrong.
	Message string
}

func (e *UnionError) Error() string { return e.Union + ": " + e.Message }

// EncodeUnion encodes the one member of a union value that is set. None set is JSON null for a union that allows
// null (nullable) and a *UnionError otherwise; several set is a *UnionError.
func EncodeUnion(union string, nullable bool, values ...UnionValue) ([]byte, error) {
	var set []UnionValue
	for _, v := range values {
		if v.Set {
			set = append(set, v)
		}
	}
	switch len(set) {
	case 1:
		return json.Marshal(set[0].Value)
	case 0:
		if nullable {
			return []byte("null"), nil
		}
		return nil, &UnionError{Union: union, Message: fmt.Sprintf("no member is set; set exactly one of %s", fieldList(values))}
	}
	fields := make([]string, len(set))
	for i, v := range set {
		fields[i] = v.Field
	}
	return nil, &UnionError{Union: union, Message: fmt.Sprintf("%d members are set (%s); set exactly one", len(set), strings.Join(fields, ", "))}
}

// DecodeUnion decodes a JSON value into the member of a union it is. With a discriminator (the name of a property
// of the object members), the property's value picks the member by its Tags. Without one, the members are tried
// in order: the first whose JSON kind, allowed values and required properties fit, preferring one that declares
// every property of an object, and whose Decode succeeds. JSON null sets no member. A value of no member is a
// *UnionError naming the union.
func DecodeUnion(union string, data []byte, discriminator string, members ...UnionMember) error {
	data = bytes.TrimSpace(data)
	if string(data) == "null" {
		return nil
	}
	kind, object, err := jsonKind(data)
	if err != nil {
		return &UnionError{Union: union, Message: "the value is not JSON: " + err.Error()}
	}
	// A value without the discriminator's property (descriptions do not always require it, GitHub's among them) is
	// told apart by its shape, as an undiscriminated union's.
	if _, tagged := object[discriminator]; discriminator != "" && tagged {
		return decodeTagged(union, data, discriminator, object, members)
	}
	var exact, loose []UnionMember
	for _, m := range members {
		if !fits(m, kind, data, object) {
			continue
		}
		if kind == "object" && m.Known != nil && !onlyKnown(object, m.Known) {
			loose = append(loose, m)
		} else {
			exact = append(exact, m)
		}
	}
	for _, m := range append(exact, loose...) {
		if m.Decode(data) == nil {
			return nil
		}
	}
	if discriminator != "" && kind == "object" {
		return &UnionError{Union: union, Message: fmt.Sprintf("the value %s has no string %q, which picks the member, and its shape is none of its members (%s)", excerpt(data), discriminator, memberList(members))}
	}
	return &UnionError{Union: union, Message: fmt.Sprintf("the value %s is none of its members (%s)", excerpt(data), memberList(members))}
}

func decodeTagged(union string, data []byte, discriminator string, object map[string]json.RawMessage, members []UnionMember) error {
	raw, ok := object[discriminator]
	var tag string
	if !ok || json.Unmarshal(raw, &tag) != nil {
		return &UnionError{Union: union, Message: fmt.Sprintf("the value %s has no string %q, which picks the member", excerpt(data), discriminator)}
	}
	var tags []string
	for _, m := range members {
		for _, t := range m.Tags {
			if t == tag {
				if err := m.Decode(data); err != nil {
					return &UnionError{Union: union, Message: fmt.Sprintf("%q %q picks %s, which cannot hold the value: %v", discriminator, tag, m.Field, err)}
				}
				return nil
			}
		}
		tags = append(tags, m.Tags...)
	}
	return &UnionError{Union: union, Message: fmt.Sprintf("%q is %q, which is none of %s", discriminator, tag, strings.Join(tags, ", "))}
}

// fits says whether a value of the JSON kind may be the member, before decoding it.
func fits(m UnionMember, kind string, data []byte, object map[string]json.RawMessage) bool {
	switch m.Kind {
	case "":
	case "number":
		if kind != "number" {
			return false
		}
	case "integer":
		var f float64
		if kind != "number" || json.Unmarshal(data, &f) != nil || f != math.Trunc(f) {
			return false
		}
	default:
		if kind != m.Kind {
			return false
		}
	}
	if m.Values != nil && !allowed(data, m.Values) {
		return false
	}
	for _, r := range m.Required {
		if _, ok := object[r]; !ok {
			return false
		}
	}
	for name, value := range m.Consts {
		if raw, ok := object[name]; ok && !allowed(raw, []string{value}) {
			return false
		}
	}
	return true
}

// allowed says whether a value equals one of the JSON texts, compared as decoded values.
func allowed(data []byte, values []string) bool {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return false
	}
	for _, text := range values {
		var w any
		if json.Unmarshal([]byte(text), &w) == nil && fmt.Sprint(v) == fmt.Sprint(w) && fmt.Sprintf("%T", v) == fmt.Sprintf("%T", w) {
			return true
		}
	}
	return false
}

func onlyKnown(object map[string]json.RawMessage, known []string) bool {
	for name := range object {
		found := false
		for _, k := range known {
			if k == name {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// jsonKind is the JSON kind of a value, and its properties when it is an object.
func jsonKind(data []byte) (string, map[string]json.RawMessage, error) {
	if !json.Valid(data) {
		var v any
		return "", nil, json.Unmarshal(data, &v)
	}
	switch data[0] {
	case '{':
		var object map[string]json.RawMessage
		if err := json.Unmarshal(data, &object); err != nil {
			return "", nil, err
		}
		return "object", object, nil
	case '[':
		return "array", nil, nil
	case '"':
		return "string", nil, nil
	case 't', 'f':
		return "boolean", nil, nil
	}
	return "number", nil, nil
}

func fieldList(values []UnionValue) string {
	fields := make([]string, len(values))
	for i, v := range values {
		fields[i] = v.Field
	}
	return strings.Join(fields, ", ")
}

func memberList(members []UnionMember) string {
	fields := make([]string, len(members))
	for i, m := range members {
		fields[i] = m.Field
	}
	return strings.Join(fields, ", ")
}

// excerpt is a value's JSON text for an error, cut after 80 bytes.
func excerpt(data []byte) string {
	if len(data) > 80 {
		return string(data[:80]) + "..."
	}
	return string(data)
}

// Into returns a UnionMember Decode that decodes into a new value and stores its address in *field.
func Into[T any](field **T) func([]byte) error {
	return func(data []byte) error {
		var v T
		if err := json.Unmarshal(data, &v); err != nil {
			return err
		}
		*field = &v
		return nil
	}
}

// IntoValue returns a UnionMember Decode that decodes into *field (a slice, a map or raw JSON), left as it was on
// an error.
func IntoValue[T any](field *T) func([]byte) error {
	return func(data []byte) error {
		var v T
		if err := json.Unmarshal(data, &v); err != nil {
			return err
		}
		*field = v
		return nil
	}
}
