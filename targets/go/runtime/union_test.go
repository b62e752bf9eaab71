package sdkruntime

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// pick is a union as a generated client declares it: a level (a string enum), a number, or a list of strings.
type pick struct {
	OfLevel  *level
	OfNumber *float64
	OfList   []string
}

func (u pick) AsAny() any {
	switch {
	case u.OfLevel != nil:
		return *u.OfLevel
	case u.OfNumber != nil:
		return *u.OfNumber
	case u.OfList != nil:
		return u.OfList
	}
	return nil
}

func (u pick) MarshalJSON() ([]byte, error) {
	return EncodeUnion("pick", false,
		UnionValue{Field: "OfLevel", Set: u.OfLevel != nil, Value: u.OfLevel},
		UnionValue{Field: "OfNumber", Set: u.OfNumber != nil, Value: u.OfNumber},
		UnionValue{Field: "OfList", Set: u.OfList != nil, Value: u.OfList},
	)
}

func (u *pick) UnmarshalJSON(data []byte) error {
	*u = pick{}
	return DecodeUnion("pick", data, "",
		UnionMember{Field: "OfLevel", Kind: "string", Values: []string{`"high"`, `"low"`}, Decode: Into(&u.OfLevel)},
		UnionMember{Field: "OfNumber", Kind: "number", Decode: Into(&u.OfNumber)},
		UnionMember{Field: "OfList", Kind: "array", Decode: IntoValue(&u.OfList)},
	)
}

func TestUnionsRoundTripAndRefuseValuesOfNoMember(t *testing.T) {
	for _, text := range []string{`"high"`, `2.5`, `["a","b"]`} {
		var u pick
		if err := json.Unmarshal([]byte(text), &u); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		again, err := json.Marshal(u)
		if err != nil || string(again) != text {
			t.Errorf("%s re-encoded as %s (%v)", text, again, err)
		}
	}
	var u pick
	err := json.Unmarshal([]byte(`"medium"`), &u)
	var union *UnionError
	if !errors.As(err, &union) || union.Union != "pick" || err.Error() != `pick: the value "medium" is none of its members (OfLevel, OfNumber, OfList)` {
		t.Errorf("medium: %v", err)
	}
	if _, err := json.Marshal(pick{}); err == nil || !strings.Contains(err.Error(), "pick: no member is set; set exactly one of OfLevel, OfNumber, OfList") {
		t.Errorf("nothing set: %v", err)
	}
	if data, err := EncodeUnion("pick", true, UnionValue{Field: "OfLevel"}); err != nil || string(data) != "null" {
		t.Errorf("nothing set in a nullable union: %s (%v)", data, err)
	}
}

func TestUnionsTellObjectsApartExactly(t *testing.T) {
	var got string
	members := func() []UnionMember {
		into := func(name string) func([]byte) error {
			return func([]byte) error { got = name; return nil }
		}
		return []UnionMember{
			{Field: "OfInteger", Kind: "integer", Decode: into("OfInteger")},
			{Field: "OfWide", Kind: "object", Required: []string{"a"}, Known: []string{"a"}, Decode: into("OfWide")},
			{Field: "OfBoth", Kind: "object", Required: []string{"a"}, Known: []string{"a", "b"}, Decode: into("OfBoth")},
			{Field: "OfTagged", Kind: "object", Consts: map[string]string{"t": `"x"`}, Decode: into("OfTagged")},
		}
	}
	for text, want := range map[string]string{
		`4`:             "OfInteger",
		`{"a":1}`:       "OfWide",
		`{"a":1,"b":2}`: "OfBoth",
		`{"t":"x"}`:     "OfTagged",
	} {
		got = ""
		if err := DecodeUnion("u", []byte(text), "", members()...); err != nil || got != want {
			t.Errorf("%s: %s (%v), want %s", text, got, err, want)
		}
	}
	for _, text := range []string{`4.5`, `{"t":"y"}`, `true`} {
		if err := DecodeUnion("u", []byte(text), "", members()...); err == nil {
			t.Errorf("%s: decoded into %s, want an error", text, got)
		}
	}
}

func TestDiscriminatedUnionsPickByTheTag(t *testing.T) {
	var into []string
	member := func(field string, tags ...string) UnionMember {
		return UnionMember{Field: field, Kind: "object", Tags: tags, Decode: func([]byte) error { into = append(into, field); return nil }}
	}
	members := []UnionMember{member("OfCat", "cat"), member("OfDog", "dog", "hound")}
	if err := DecodeUnion("Pet", []byte(`{"kind":"hound"}`), "kind", members...); err != nil || !reflect.DeepEqual(into, []string{"OfDog"}) {
		t.Errorf("hound: %v %v", into, err)
	}
	err := DecodeUnion("Pet", []byte(`{"kind":"bird"}`), "kind", members...)
	if err == nil || err.Error() != `Pet: "kind" is "bird", which is none of cat, dog, hound` {
		t.Errorf("bird: %v", err)
	}
}

// GitHub's users/get-authenticated answers without the discriminator's property its description names.
func TestADiscriminatedUnionValueWithoutItsTagIsToldApartByShape(t *testing.T) {
	var into []string
	members := []UnionMember{
		{Field: "OfPrivate", Kind: "object", Tags: []string{"private"}, Required: []string{"plan"}, Decode: func([]byte) error { into = append(into, "OfPrivate"); return nil }},
		{Field: "OfPublic", Kind: "object", Tags: []string{"public"}, Decode: func([]byte) error { into = append(into, "OfPublic"); return nil }},
	}
	if err := DecodeUnion("User", []byte(`{"login":"octocat"}`), "user_view_type", members...); err != nil || !reflect.DeepEqual(into, []string{"OfPublic"}) {
		t.Errorf("untagged: %v %v", into, err)
	}
	// Neither the tag nor the shape: the error names both.
	err := DecodeUnion("User", []byte(`{"login":"octocat"}`), "user_view_type", members[0])
	if err == nil || err.Error() != `User: the value {"login":"octocat"} has no string "user_view_type", which picks the member, and its shape is none of its members (OfPrivate)` {
		t.Errorf("untagged, no member: %v", err)
	}
}

func TestAUnionParameterIsItsMembersText(t *testing.T) {
	var r Request
	r.SetQuery("level", &pick{OfLevel: Ptr(level("high"))})
	r.SetQuery("n", pick{OfNumber: Ptr(3.0)})
	r.SetQuery("list", pick{OfList: []string{"a", "b"}})
	r.SetQuery("none", pick{})
	want := map[string][]string{"level": {"high"}, "n": {"3"}, "list": {"a", "b"}}
	if !reflect.DeepEqual(map[string][]string(r.Query), want) {
		t.Errorf("query = %v, want %v", r.Query, want)
	}
}
