package sdkruntime

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// DecodeObject decodes a JSON object into the struct plain points to and puts the object's members that no field
// takes into *extra (nil when there are none). It is what a generated type's UnmarshalJSON calls, with plain a
// pointer to the type's fields without its JSON methods.
//
// A member is taken by the field whose json tag names it exactly. A member whose value does not fit its field's
// type leaves the field at its zero value and is kept in *extra as it was received: an answer that breaks its
// schema is read as far as it goes, and nothing of it is lost. Members named in ignore (a variant's
// discriminator, which its type writes itself) are kept out of *extra. A JSON null leaves everything as it is.
func DecodeObject(data []byte, plain any, extra *map[string]json.RawMessage, ignore ...string) error {
	rv := reflect.ValueOf(plain)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return configError("DecodeObject needs a non-nil pointer to a struct, not %T", plain)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return err
	}
	if members == nil {
		return nil
	}
	target := rv.Elem()
	fields := jsonFields(target.Type())
	var rest map[string]json.RawMessage
	for name, raw := range members {
		if index, ok := fields[name]; ok {
			field := target.Field(index)
			value := reflect.New(field.Type())
			if json.Unmarshal(raw, value.Interface()) == nil {
				field.Set(value.Elem())
				continue
			}
		} else if contains(ignore, name) {
			continue
		}
		if rest == nil {
			rest = map[string]json.RawMessage{}
		}
		rest[name] = raw
	}
	*extra = rest
	return nil
}

// EncodeObject encodes a struct's fields (value, a generated type without its JSON methods), then adds the members
// of extra that no field wrote and the fixed name and value pairs (a variant's discriminator). It is what a
// generated type's MarshalJSON calls. A field tagged omitzero that is zero (an absent [Nullable]) is left out, as
// encoding/json does from Go 1.24 on, whichever release builds the module.
func EncodeObject(value any, extra map[string]json.RawMessage, fixed ...string) ([]byte, error) {
	if len(fixed)%2 != 0 {
		return nil, configError("EncodeObject needs name and value pairs, got %d strings", len(fixed))
	}
	data, err := json.Marshal(value)
	if err != nil {
		return nil, err
	}
	absent := zeroOmitted(value)
	if len(extra) == 0 && len(fixed) == 0 && len(absent) == 0 {
		return data, nil
	}
	all := map[string]json.RawMessage{}
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, fmt.Errorf("sdkruntime: EncodeObject: %T does not encode as a JSON object: %w", value, err)
	}
	for _, name := range absent {
		delete(all, name)
	}
	for name, raw := range extra {
		if _, written := all[name]; !written {
			all[name] = raw
		}
	}
	for i := 0; i+1 < len(fixed); i += 2 {
		text, err := json.Marshal(fixed[i+1])
		if err != nil {
			return nil, err
		}
		all[fixed[i]] = text
	}
	return json.Marshal(all)
}

// structFields caches, per struct type, the index of the field each JSON member name goes to.
var structFields sync.Map

// jsonFields maps the member names of a struct's json tags to their field's index; fields tagged "-", unexported
// fields and embedded ones take no member.
func jsonFields(t reflect.Type) map[string]int {
	if cached, ok := structFields.Load(t); ok {
		return cached.(map[string]int)
	}
	fields := map[string]int{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() || f.Anonymous {
			continue
		}
		tag, ok := f.Tag.Lookup("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if !ok || name == "" {
			name = f.Name
		}
		fields[name] = i
	}
	structFields.Store(t, fields)
	return fields
}

// omitZero caches, per struct type, the fields tagged omitzero: their index and member name.
var omitZero sync.Map

type omitField struct {
	index int
	name  string
}

// zeroOmitted names the members of value's fields tagged omitzero that are zero: by their IsZero method when they
// have one, else when they hold their type's zero value.
func zeroOmitted(value any) []string {
	rv := reflect.ValueOf(value)
	if rv.Kind() != reflect.Struct {
		return nil
	}
	var fields []omitField
	if cached, ok := omitZero.Load(rv.Type()); ok {
		fields = cached.([]omitField)
	} else {
		t := rv.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			name, options, _ := strings.Cut(tag, ",")
			if !f.IsExported() || f.Anonymous || tag == "-" || !contains(strings.Split(options, ","), "omitzero") {
				continue
			}
			if name == "" {
				name = f.Name
			}
			fields = append(fields, omitField{index: i, name: name})
		}
		omitZero.Store(t, fields)
	}
	var names []string
	for _, f := range fields {
		field := rv.Field(f.index)
		zero := field.IsZero()
		// A nil pointer is zero without asking it (its IsZero may not take nil), as in encoding/json.
		if z, ok := field.Interface().(interface{ IsZero() bool }); ok && !(field.Kind() == reflect.Pointer && field.IsNil()) {
			zero = z.IsZero()
		}
		if zero {
			names = append(names, f.name)
		}
	}
	return names
}
