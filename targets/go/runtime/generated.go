// What the code of a generated client calls besides Call, CallInto and the jobs: the answer type of its methods,
// parameters and bodies put into a Request, and the checks made before anything is sent. None of it knows a service.

package sdkruntime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Response is the answer of an operation of a generated client: its decoded body and what the runtime tells
// about it.
type Response[T any] struct {
	// Data is the decoded body.
	Data T
	// Meta describes the answer: status, headers, processing time, billing, request id.
	Meta Meta
}

// Ptr returns a pointer to v, for optional fields: Ptr("en_US").
func Ptr[T any](v T) *T { return &v }

// Decode decodes a JSON value (a job's payload, say) into a value of type T.
func Decode[T any](data json.RawMessage) (T, error) {
	var out T
	err := json.Unmarshal(data, &out)
	return out, err
}

// DecodeOptional decodes a JSON value that may be absent (a job's payload, an answer's billing object) into a new
// value of type T, named typeName in the error; nil, nil when data is empty.
func DecodeOptional[T any](data json.RawMessage, typeName string) (*T, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	var out T
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("the value does not decode as %s: %w", typeName, err)
	}
	return &out, nil
}

// DecodeOptionalValue is DecodeOptional for a type that is nil-able itself (a slice, a map, raw JSON): its zero
// value when data is empty.
func DecodeOptionalValue[T any](data json.RawMessage, typeName string) (T, error) {
	var out T
	if len(bytes.TrimSpace(data)) == 0 {
		return out, nil
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return out, fmt.Errorf("the value does not decode as %s: %w", typeName, err)
	}
	return out, nil
}

// SetPath sets a path parameter; nil sets none, a list is joined with commas (style simple).
func (r *Request) SetPath(name string, v any) {
	if values := paramValues(v); values != nil {
		if r.Path == nil {
			r.Path = map[string]string{}
		}
		r.Path[name] = strings.Join(values, ",")
	}
}

// SetQuery adds a query parameter, once per item of a list (style form, exploded); nil adds none.
func (r *Request) SetQuery(name string, v any) {
	for _, value := range paramValues(v) {
		if r.Query == nil {
			r.Query = map[string][]string{}
		}
		r.Query[name] = append(r.Query[name], value)
	}
}

// SetHeader sets a header parameter; nil sets none, a list is joined with commas.
func (r *Request) SetHeader(name string, v any) {
	if values := paramValues(v); values != nil {
		if r.Header == nil {
			r.Header = map[string]string{}
		}
		r.Header[name] = strings.Join(values, ",")
	}
}

// SetCookie sets a cookie parameter; nil sets none, a list is joined with commas.
func (r *Request) SetCookie(name string, v any) {
	if values := paramValues(v); values != nil {
		if r.Cookie == nil {
			r.Cookie = map[string]string{}
		}
		r.Cookie[name] = strings.Join(values, ",")
	}
}

// paramValues is the text of a parameter's value: none when it is nil, one per item of a list; a union is the
// text of its member that is set (a string as it is, never JSON-quoted); a value of another kind (an object) is
// its JSON text.
func paramValues(v any) []string {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return nil
		}
		rv = rv.Elem()
	}
	if rv.IsValid() {
		if u, ok := rv.Interface().(unionValue); ok {
			return paramValues(u.AsAny())
		}
	}
	switch rv.Kind() {
	case reflect.Invalid:
		return nil
	case reflect.String:
		return []string{rv.String()}
	case reflect.Bool:
		return []string{strconv.FormatBool(rv.Bool())}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return []string{strconv.FormatInt(rv.Int(), 10)}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return []string{strconv.FormatUint(rv.Uint(), 10)}
	case reflect.Float32, reflect.Float64:
		return []string{strconv.FormatFloat(rv.Float(), 'f', -1, 64)}
	case reflect.Slice:
		if rv.IsNil() {
			return nil
		}
		if raw, ok := rv.Interface().(json.RawMessage); ok {
			return []string{string(raw)}
		}
		var out []string
		for i := 0; i < rv.Len(); i++ {
			out = append(out, paramValues(rv.Index(i).Interface())...)
		}
		return out
	}
	data, err := json.Marshal(rv.Interface())
	if err != nil {
		return []string{fmt.Sprint(rv.Interface())}
	}
	return []string{string(data)}
}

// unionValue is a union of a generated client: AsAny is the value of its member that is set, nil for none.
type unionValue interface{ AsAny() any }

// FormOf encodes a body as the fields of a form: its JSON encoding, numbers kept as written. Nested values travel
// as JSON text; files are added with AddFile and AddFiles.
func FormOf(body any) (map[string]any, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	form := map[string]any{}
	if err := dec.Decode(&form); err != nil {
		return nil, err
	}
	if form == nil {
		form = map[string]any{}
	}
	return form, nil
}

// AddFile adds a file part to a form when the file is set.
func AddFile(form map[string]any, name string, file *File) {
	if file != nil {
		form[name] = file
	}
}

// AddFiles adds file parts to a form, one per file.
func AddFiles(form map[string]any, name string, files []*File) {
	if len(files) == 0 {
		return
	}
	parts := make([]any, len(files))
	for i, f := range files {
		parts[i] = f
	}
	form[name] = parts
}

// JobForm checks a job's body and encodes it with encode, which runs only when body is neither nil nor a nil
// pointer; nothing is sent when it fails (a *ConfigError).
func JobForm(body any, encode func() (map[string]any, error)) (map[string]any, error) {
	rv := reflect.ValueOf(body)
	if body == nil || rv.Kind() == reflect.Pointer && rv.IsNil() {
		return nil, &ConfigError{Message: "the job's body is nil; nothing was sent"}
	}
	form, err := encode()
	if err != nil {
		var config *ConfigError
		if errors.As(err, &config) {
			return nil, err
		}
		return nil, &ConfigError{Message: "the job's body cannot be encoded: " + err.Error()}
	}
	return form, nil
}

// ExactlyOne refuses an "exactly one of" group with none or several members set (a *ConfigError).
func ExactlyOne(group string, present ...bool) error {
	n := 0
	for _, p := range present {
		if p {
			n++
		}
	}
	if n != 1 {
		return &ConfigError{Message: fmt.Sprintf("exactly one of %s must be set, %d are; nothing was sent", group, n)}
	}
	return nil
}

// JobVariant refuses a nil variant given to a typed wait (call names it): the variant tells how its payload decodes.
func JobVariant(variant any, call string) error {
	rv := reflect.ValueOf(variant)
	if variant == nil || rv.Kind() == reflect.Pointer && rv.IsNil() {
		return &ConfigError{Message: call + ": the variant is nil; pass a value of the variant submitted (its zero value will do), which tells how the payload decodes"}
	}
	return nil
}
