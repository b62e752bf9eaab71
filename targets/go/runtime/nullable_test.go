package sdkruntime

import (
	"encoding/json"
	"reflect"
	"testing"
)

// patch is shaped as a generated type with nullable fields: Note optional (omitzero), Due required, Parent a
// nullable field of the type itself.
type patch struct {
	Title  *string                    `json:"title,omitempty"`
	Note   Nullable[string]           `json:"note,omitzero"`
	Due    Nullable[int64]            `json:"due"`
	Parent Nullable[patch]            `json:"parent,omitzero"`
	Extra  map[string]json.RawMessage `json:"-"`
}

func (v *patch) UnmarshalJSON(data []byte) error {
	type plain patch
	return DecodeObject(data, (*plain)(v), &v.Extra)
}

func (v patch) MarshalJSON() ([]byte, error) {
	type plain patch
	return EncodeObject(plain(v), v.Extra)
}

func TestNullableTellsAbsentNullAndValueApart(t *testing.T) {
	var absent Nullable[string]
	if absent.IsSet() || absent.IsNull() || !absent.IsZero() {
		t.Fatalf("zero value: set %v, null %v, zero %v; want absent", absent.IsSet(), absent.IsNull(), absent.IsZero())
	}
	null := Null[string]()
	if !null.IsSet() || !null.IsNull() || null.IsZero() {
		t.Fatalf("Null: set %v, null %v, zero %v", null.IsSet(), null.IsNull(), null.IsZero())
	}
	if v, ok := null.Get(); ok || v != "" {
		t.Fatalf("Null's Get = %q, %v", v, ok)
	}
	empty := Value("")
	if !empty.IsSet() || empty.IsNull() || empty.IsZero() {
		t.Fatalf(`Value(""): set %v, null %v, zero %v`, empty.IsSet(), empty.IsNull(), empty.IsZero())
	}
	if v, ok := empty.Get(); !ok || v != "" {
		t.Fatalf(`Value("")'s Get = %q, %v`, v, ok)
	}
}

func TestNullableRoundTripsThroughJSON(t *testing.T) {
	for _, c := range []struct {
		name string
		in   Nullable[[]string]
		json string
	}{
		{"null", Null[[]string](), `null`},
		{"value", Value([]string{"a"}), `["a"]`},
		{"empty value", Value([]string{}), `[]`},
	} {
		out, err := json.Marshal(c.in)
		if err != nil || string(out) != c.json {
			t.Fatalf("%s: encoded %s (err %v), want %s", c.name, out, err, c.json)
		}
		var back Nullable[[]string]
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !reflect.DeepEqual(back, c.in) {
			t.Fatalf("%s: decoded %+v, want %+v", c.name, back, c.in)
		}
	}
	var wrong Nullable[int64]
	if err := json.Unmarshal([]byte(`"x"`), &wrong); err == nil || wrong.IsSet() {
		t.Fatalf("a string for an integer: err %v, set %v", err, wrong.IsSet())
	}
}

func TestEncodeObjectSendsNullAndLeavesAbsentFieldsOut(t *testing.T) {
	for _, c := range []struct {
		name string
		in   patch
		json string
	}{
		// Due is required: sent as null when absent.
		{"absent", patch{}, `{"due":null}`},
		{"null", patch{Note: Null[string](), Due: Null[int64]()}, `{"due":null,"note":null}`},
		{"values", patch{Note: Value(""), Due: Value[int64](0)}, `{"due":0,"note":""}`},
		{"nested", patch{Due: Value[int64](1), Parent: Value(patch{Note: Null[string]()})}, `{"due":1,"parent":{"due":null,"note":null}}`},
		// A member of Extra named as an absent field is sent: the field writes nothing.
		{"extra", patch{Due: Value[int64](1), Extra: map[string]json.RawMessage{"note": json.RawMessage(`"kept"`)}}, `{"due":1,"note":"kept"}`},
	} {
		out, err := json.Marshal(c.in)
		if err != nil || string(out) != c.json {
			t.Fatalf("%s: encoded %s (err %v), want %s", c.name, out, err, c.json)
		}
	}
}

func TestDecodeObjectReadsNullAsNull(t *testing.T) {
	var v patch
	if err := json.Unmarshal([]byte(`{"title":"t","note":null,"due":null,"parent":{"due":3}}`), &v); err != nil {
		t.Fatal(err)
	}
	if !v.Note.IsNull() || !v.Due.IsNull() || v.Extra != nil {
		t.Fatalf("note %+v, due %+v, extra %s: want both null", v.Note, v.Due, v.Extra)
	}
	parent, ok := v.Parent.Get()
	if due, set := parent.Due.Get(); !ok || !set || due != 3 || parent.Note.IsSet() {
		t.Fatalf("parent = %+v", parent)
	}
	var missing patch
	if err := json.Unmarshal([]byte(`{"due":5}`), &missing); err != nil {
		t.Fatal(err)
	}
	if missing.Note.IsSet() || missing.Parent.IsSet() {
		t.Fatalf("members not sent: note %+v, parent %+v; want absent", missing.Note, missing.Parent)
	}
	// A value that does not fit leaves the field absent and is kept in Extra.
	var unfit patch
	if err := json.Unmarshal([]byte(`{"due":"soon"}`), &unfit); err != nil {
		t.Fatal(err)
	}
	if unfit.Due.IsSet() || string(unfit.Extra["due"]) != `"soon"` {
		t.Fatalf("due %+v, extra %s", unfit.Due, unfit.Extra)
	}
}

// encoding/json before Go 1.24 ignores omitzero; EncodeObject must leave the members out by itself.
func TestZeroOmittedNamesTheZeroFieldsTaggedOmitzero(t *testing.T) {
	type plain struct {
		A Nullable[string] `json:"a,omitzero"`
		B Nullable[string] `json:"b,omitempty,omitzero"`
		C Nullable[string] `json:"c"`
		D *patch           `json:",omitzero"`
		E Nullable[string] `json:"-"`
		F Nullable[string] `json:"f,omitzero"`
	}
	got := zeroOmitted(plain{F: Null[string]()})
	if want := []string{"a", "b", "D"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("zeroOmitted = %q, want %q", got, want)
	}
	if got := zeroOmitted(plain{A: Value("x"), B: Null[string](), D: &patch{}, F: Value("")}); got != nil {
		t.Fatalf("nothing zero: %q", got)
	}
}
