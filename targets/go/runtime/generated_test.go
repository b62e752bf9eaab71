package sdkruntime

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

type level string

type point struct {
	X int `json:"x"`
}

func TestRequestSetters(t *testing.T) {
	var r Request
	var none *string
	r.SetPath("id", Ptr(int64(42)))
	r.SetPath("ids", []string{"a", "b"})
	r.SetPath("missing", none)
	r.SetQuery("tag", []level{"x", "y"})
	r.SetQuery("ratio", 0.25)
	r.SetQuery("big", uint8(200))
	r.SetQuery("flag", Ptr(false))
	r.SetQuery("where", point{X: 1})
	r.SetQuery("raw", json.RawMessage(`{"a":1}`))
	r.SetQuery("empty", []string(nil))
	r.SetQuery("nothing", nil)
	r.SetHeader("X-Level", level("high"))
	r.SetHeader("X-List", []int64{1, 2})
	r.SetCookie("session", "s-1")
	r.SetCookie("absent", (*int64)(nil))
	wantPath := map[string]string{"id": "42", "ids": "a,b"}
	if !reflect.DeepEqual(r.Path, wantPath) {
		t.Errorf("path = %v, want %v", r.Path, wantPath)
	}
	wantQuery := map[string][]string{
		"tag": {"x", "y"}, "ratio": {"0.25"}, "big": {"200"}, "flag": {"false"}, "where": {`{"x":1}`}, "raw": {`{"a":1}`},
	}
	if !reflect.DeepEqual(map[string][]string(r.Query), wantQuery) {
		t.Errorf("query = %v, want %v", r.Query, wantQuery)
	}
	if !reflect.DeepEqual(r.Header, map[string]string{"X-Level": "high", "X-List": "1,2"}) {
		t.Errorf("header = %v", r.Header)
	}
	if !reflect.DeepEqual(r.Cookie, map[string]string{"session": "s-1"}) {
		t.Errorf("cookie = %v", r.Cookie)
	}
	var untouched Request
	untouched.SetHeader("X", nil)
	untouched.SetQuery("q", []string{})
	if untouched.Header != nil || untouched.Query != nil {
		t.Errorf("nothing to set made maps: %+v", untouched)
	}
}

func TestFormOfAndFiles(t *testing.T) {
	body := struct {
		Name   string  `json:"name"`
		Count  float64 `json:"count"`
		Big    int64   `json:"big"`
		Nested *point  `json:"nested,omitempty"`
	}{Name: "a", Count: 1.5, Big: 9007199254740993, Nested: &point{X: 2}}
	form, err := FormOf(body)
	if err != nil {
		t.Fatal(err)
	}
	// Numbers are kept as written: an int64 beyond float64's precision is not rounded.
	if form["big"] != json.Number("9007199254740993") || form["count"] != json.Number("1.5") || form["name"] != "a" {
		t.Fatalf("form = %#v", form)
	}
	if !reflect.DeepEqual(form["nested"], map[string]any{"x": json.Number("2")}) {
		t.Fatalf("nested = %#v", form["nested"])
	}
	if _, err := FormOf([]string{"a"}); err == nil {
		t.Fatal("a list as a form: no error")
	}
	if form, err := FormOf(nil); err != nil || form == nil || len(form) != 0 {
		t.Fatalf("nil body: %v, %v", form, err)
	}
	a := &File{Name: "a.pdf", Content: strings.NewReader("a")}
	b := &File{Name: "b.pdf", Content: strings.NewReader("b")}
	AddFile(form, "file", a)
	AddFile(form, "nofile", nil)
	AddFiles(form, "files", []*File{a, b})
	AddFiles(form, "nofiles", nil)
	if form["file"] != a || !reflect.DeepEqual(form["files"], []any{a, b}) {
		t.Fatalf("files = %#v", form)
	}
	if _, ok := form["nofile"]; ok {
		t.Error("a nil file is added")
	}
	if _, ok := form["nofiles"]; ok {
		t.Error("an empty file list is added")
	}
}

type variantBody struct{ fail error }

func (v *variantBody) encode() (map[string]any, error) {
	if v.fail != nil {
		return nil, v.fail
	}
	return map[string]any{"ok": true}, nil
}

func TestJobFormAndExactlyOne(t *testing.T) {
	var config *ConfigError
	calls := 0
	never := func() (map[string]any, error) { calls++; return nil, nil }
	if _, err := JobForm(nil, never); !errors.As(err, &config) || !strings.Contains(err.Error(), "nil") {
		t.Errorf("nil body: err = %v", err)
	}
	var nilBody *variantBody
	if _, err := JobForm(nilBody, never); !errors.As(err, &config) {
		t.Errorf("nil pointer body: err = %v", err)
	}
	if calls != 0 {
		t.Errorf("the encoder ran %d times for a nil body", calls)
	}
	good := &variantBody{}
	if form, err := JobForm(good, good.encode); err != nil || form["ok"] != true {
		t.Errorf("good body: %v, %v", form, err)
	}
	broken := &variantBody{fail: errors.New("json: unsupported value")}
	if _, err := JobForm(broken, broken.encode); !errors.As(err, &config) || !strings.Contains(err.Error(), "cannot be encoded: json: unsupported value") {
		t.Errorf("body that cannot be encoded: err = %v", err)
	}
	own := &ConfigError{Message: "exactly one of a, b must be set, 0 are; nothing was sent"}
	refused := &variantBody{fail: own}
	if _, err := JobForm(refused, refused.encode); err != own {
		t.Errorf("a check's own error: err = %v, want it unchanged", err)
	}
	if err := ExactlyOne("a, b", true, false); err != nil {
		t.Errorf("one set: %v", err)
	}
	for _, present := range [][]bool{{false, false}, {true, true}, {}} {
		if err := ExactlyOne("a, b", present...); !errors.As(err, &config) || !strings.Contains(err.Error(), "exactly one of a, b") {
			t.Errorf("%v: err = %v", present, err)
		}
	}
}

func TestPtrAndDecode(t *testing.T) {
	p := Ptr("en_US")
	if *p != "en_US" {
		t.Fatal(*p)
	}
	v, err := Decode[point](json.RawMessage(`{"x":3}`))
	if err != nil || v.X != 3 {
		t.Fatalf("decode: %+v, %v", v, err)
	}
	if _, err := Decode[point](json.RawMessage(`[`)); err == nil {
		t.Fatal("broken JSON: no error")
	}
	r := Response[[]point]{Data: []point{{X: 1}}, Meta: Meta{Status: 200}}
	if r.Meta.Status != 200 || len(r.Data) != 1 {
		t.Fatal(r)
	}
}
