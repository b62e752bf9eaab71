package sdkruntime

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// item and listing are shaped as generated types are: declared fields with json tags, Extra, and JSON methods
// over DecodeObject and EncodeObject.
type item struct {
	Name    string                     `json:"name"`
	Schemas []string                   `json:"schemas,omitempty"`
	File    *File                      `json:"-"`
	Extra   map[string]json.RawMessage `json:"-"`
}

func (v *item) UnmarshalJSON(data []byte) error {
	type plain item
	return DecodeObject(data, (*plain)(v), &v.Extra)
}

func (v item) MarshalJSON() ([]byte, error) {
	type plain item
	return EncodeObject(plain(v), v.Extra)
}

type listing struct {
	Items []item                     `json:"items"`
	Total *int64                     `json:"total,omitempty"`
	Extra map[string]json.RawMessage `json:"-"`
}

func (v *listing) UnmarshalJSON(data []byte) error {
	type plain listing
	return DecodeObject(data, (*plain)(v), &v.Extra)
}

type variant struct {
	Size  int64                      `json:"size"`
	Extra map[string]json.RawMessage `json:"-"`
}

func (v *variant) UnmarshalJSON(data []byte) error {
	type plain variant
	return DecodeObject(data, (*plain)(v), &v.Extra, "kind")
}

func (v variant) MarshalJSON() ([]byte, error) {
	type plain variant
	return EncodeObject(plain(v), v.Extra, "kind", "big")
}

func TestDecodeObjectKeepsUndeclaredMembers(t *testing.T) {
	var v item
	if err := json.Unmarshal([]byte(`{"name":"a","added":{"x":1},"file":"f.pdf"}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.Name != "a" {
		t.Fatalf("declared fields: %+v", v)
	}
	want := map[string]json.RawMessage{"added": json.RawMessage(`{"x":1}`), "file": json.RawMessage(`"f.pdf"`)}
	if !reflect.DeepEqual(v.Extra, want) {
		t.Fatalf("extra = %s, want %s", v.Extra, want)
	}
	var none item
	if err := json.Unmarshal([]byte(`{"name":"b"}`), &none); err != nil || none.Extra != nil {
		t.Fatalf("extra of a declared-only object = %v (err %v), want nil", none.Extra, err)
	}
}

func TestDecodeObjectReadsAnAnswerThatBreaksItsSchemaAsFarAsItGoes(t *testing.T) {
	// schemas is declared a list; the answer sends a string. The member after it in the same object, and the
	// objects after it, are still read.
	var v listing
	data := `{"items":[{"name":"a","schemas":"urn:x","later":true},{"name":"b","schemas":["urn:y"]}],"total":2}`
	if err := json.Unmarshal([]byte(data), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Items) != 2 || v.Total == nil || *v.Total != 2 {
		t.Fatalf("listing: %+v", v)
	}
	first := v.Items[0]
	if first.Name != "a" || first.Schemas != nil {
		t.Fatalf("first item: %+v", first)
	}
	if string(first.Extra["schemas"]) != `"urn:x"` || string(first.Extra["later"]) != "true" {
		t.Fatalf("the member that does not fit is kept as received: %s", first.Extra)
	}
	if v.Items[1].Name != "b" || !reflect.DeepEqual(v.Items[1].Schemas, []string{"urn:y"}) || v.Items[1].Extra != nil {
		t.Fatalf("second item: %+v", v.Items[1])
	}
	// Sent again, the member that did not fit goes out as it came.
	out, err := json.Marshal(first)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]json.RawMessage
	if err := json.Unmarshal(out, &back); err != nil || string(back["schemas"]) != `"urn:x"` {
		t.Fatalf("re-encoded: %s (err %v)", out, err)
	}
}

func TestDecodeObjectRefusesWhatIsNoObject(t *testing.T) {
	var v item
	var typeErr *json.UnmarshalTypeError
	if err := json.Unmarshal([]byte(`["a"]`), &v); !errors.As(err, &typeErr) {
		t.Fatalf("a list for an object: err = %v, want a *json.UnmarshalTypeError", err)
	}
	// An object whose member is a list of the wrong items keeps that member whole.
	var l listing
	if err := json.Unmarshal([]byte(`{"items":["a"],"total":1}`), &l); err != nil {
		t.Fatal(err)
	}
	if l.Items != nil || string(l.Extra["items"]) != `["a"]` || l.Total == nil {
		t.Fatalf("listing: %+v", l)
	}
	if err := json.Unmarshal([]byte(`null`), &v); err != nil || v.Name != "" {
		t.Fatalf("null: %+v (err %v)", v, err)
	}
	var config *ConfigError
	var extra map[string]json.RawMessage
	if err := DecodeObject([]byte(`{}`), v, &extra); !errors.As(err, &config) {
		t.Fatalf("a struct value, not a pointer: err = %v, want a *ConfigError", err)
	}
}

func TestEncodeObjectAddsExtraAndTheDiscriminator(t *testing.T) {
	v := variant{Size: 4, Extra: map[string]json.RawMessage{"size": json.RawMessage(`99`), "note": json.RawMessage(`"n"`), "kind": json.RawMessage(`"small"`)}}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != `{"kind":"big","note":"n","size":4}` {
		t.Fatalf("encoded: %s", out)
	}
	var back variant
	if err := json.Unmarshal([]byte(`{"kind":"big","size":5,"note":"n"}`), &back); err != nil {
		t.Fatal(err)
	}
	if back.Size != 5 || !reflect.DeepEqual(back.Extra, map[string]json.RawMessage{"note": json.RawMessage(`"n"`)}) {
		t.Fatalf("decoded: %+v", back)
	}
	if _, err := EncodeObject(struct{}{}, nil, "odd"); err == nil {
		t.Fatal("an odd list of fixed names and values: no error")
	}
	if out, err := EncodeObject(struct {
		A int `json:"a"`
	}{1}, nil); err != nil || string(out) != `{"a":1}` {
		t.Fatalf("without extra: %s (err %v)", out, err)
	}
}

func TestCallIntoReadsAnAnswerThatBreaksItsSchema(t *testing.T) {
	op := &Operation{ID: "listThings", Method: "GET", Path: "/things"}
	// A single object where a list is declared: accepted, with Unfit telling where it broke.
	srv := newScripted(t, step{body: `{"name":"a"}`}, step{body: `{"items":[{"name":"a","schemas":"urn:x"}]}`}, step{body: `{"items":`})
	c := newTestClient(t, srv.URL)
	var list []item
	meta, err := c.CallInto(context.Background(), op, Request{}, &list)
	if err != nil {
		t.Fatalf("an answer of another shape: err = %v", err)
	}
	if meta.Unfit == nil || list != nil {
		t.Fatalf("unfit = %v, data = %v", meta.Unfit, list)
	}
	// A member that does not fit is kept in its object's Extra and leaves Unfit unset.
	var l listing
	meta, err = c.CallInto(context.Background(), op, Request{}, &l)
	if err != nil || meta.Unfit != nil || len(l.Items) != 1 || string(l.Items[0].Extra["schemas"]) != `"urn:x"` {
		t.Fatalf("listing = %+v, unfit = %v, err = %v", l, meta.Unfit, err)
	}
	// A body that is not JSON stays an error.
	var malformed *MalformedResponseError
	if _, err := c.CallInto(context.Background(), op, Request{}, &l); !errors.As(err, &malformed) {
		t.Fatalf("a body that is not JSON: err = %v, want a *MalformedResponseError", err)
	}
}
