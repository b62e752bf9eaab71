// The generated Go client of test/matrix/descriptions/go-unions.yaml, generated as example.com/unions-sdk-go and
// sending to a local server; run by targets/go/test/shapes.test.ts, which copies this file into a module beside the
// generated one.
package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	unions "example.com/unions-sdk-go"
	sdkruntime "github.com/paperoffice/sdk-runtime-go"
)

// server answers every request with answer and keeps the last request's body and query.
func server(t *testing.T, answer string) (*unions.Client, *[]byte, *string) {
	t.Helper()
	var body []byte
	var query string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ = io.ReadAll(r.Body)
		query = r.URL.RawQuery
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, answer)
	}))
	t.Cleanup(srv.Close)
	c, err := unions.New(unions.WithBaseURL(srv.URL), unions.WithToken("t"))
	if err != nil {
		t.Fatal(err)
	}
	return c, &body, &query
}

func TestUnionsAreConstructedSentAndSwitchedOn(t *testing.T) {
	answer := `{"pet":{"kind":"dog","bark":true},"shapes":[{"side":2,"label":"s"},{"radius":1.5}],` +
		`"events":["job.completed","*"],"label":["a","b"],"spare":null}`
	c, body, query := server(t, answer)
	all := unions.EventSelectorOfOption2(unions.EventSelectorOption2V)
	res, err := c.PutBox(context.Background(), &unions.PutBoxParams{
		Event: &all,
		Label: unions.Ptr(unions.LabelOfInt(7)),
		Body: &unions.Box{
			Pet:    unions.Ptr(unions.PetOfCat(unions.Cat{Kind: unions.CatKindCat, Lives: 9})),
			Shapes: []unions.Shape{unions.ShapeOfCircle(unions.Circle{Radius: 1})},
			Events: []unions.EventSelector{unions.EventSelectorOfEventName(unions.EventNameJobFailed), all},
			Label:  unions.Ptr(unions.LabelOfString("x")),
			Spare:  sdkruntime.Null[unions.BoxSpare](),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"pet":{"kind":"cat","lives":9},"shapes":[{"radius":1}],"events":["job.failed","*"],"label":"x","spare":null}`
	if string(*body) != want {
		t.Fatalf("sent %s, want %s", *body, want)
	}
	// A union in a query parameter is its member's text: a string verbatim, never JSON-quoted.
	if *query != "event=%2A&label=7" {
		t.Fatalf("query %q, want event=%%2A&label=7", *query)
	}
	box := res.Data
	switch pet := box.Pet.AsAny().(type) {
	case unions.Dog:
		if !pet.Bark {
			t.Fatalf("dog %+v, want bark", pet)
		}
	default:
		t.Fatalf("pet %T %+v, want a Dog (the discriminator says dog)", pet, pet)
	}
	if len(box.Shapes) != 2 || box.Shapes[0].OfSquare == nil || box.Shapes[0].OfSquare.Label == nil || box.Shapes[1].OfCircle == nil {
		t.Fatalf("shapes %+v, want a square (by its required side) and a circle", box.Shapes)
	}
	if len(box.Events) != 2 || box.Events[0].AsAny() != unions.EventNameJobCompleted || box.Events[1].AsAny() != unions.EventSelectorOption2V {
		t.Fatalf("events %+v, want job.completed as an EventName and * as the wildcard", box.Events)
	}
	if box.Label == nil || strings.Join(box.Label.OfStringArray, ",") != "a,b" || box.Label.OfInt != nil {
		t.Fatalf("label %+v, want the list [a b]", box.Label)
	}
	if !box.Spare.IsNull() {
		t.Fatalf("spare %+v, want null", box.Spare)
	}
	// What was decoded encodes as it was received.
	again, err := json.Marshal(box)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != `{"pet":{"kind":"dog","bark":true},"shapes":[{"side":2,"label":"s"},{"radius":1.5}],"events":["job.completed","*"],"label":["a","b"],"spare":null}` {
		t.Fatalf("re-encoded %s", again)
	}
}

func TestUndiscriminatedUnionsMatchExactly(t *testing.T) {
	var label unions.Label
	if err := json.Unmarshal([]byte(`3`), &label); err != nil || label.OfInt == nil || *label.OfInt != 3 {
		t.Fatalf("3 decoded %+v (%v), want the integer member", label, err)
	}
	if err := json.Unmarshal([]byte(`"3"`), &label); err != nil || label.OfString == nil || label.OfInt != nil {
		t.Fatalf(`"3" decoded %+v (%v), want the string member only`, label, err)
	}
	// A discriminator that picks no value for one member: both members are told apart by their shape.
	var found unions.Found
	if err := json.Unmarshal([]byte(`{"code":"x"}`), &found); err != nil || found.AsAny() == nil || found.OfCat != nil {
		t.Fatalf("decoded %+v (%v), want the member with code", found, err)
	}
	if err := json.Unmarshal([]byte(`{"kind":"cat","lives":2}`), &found); err != nil || found.OfCat == nil {
		t.Fatalf("decoded %+v (%v), want the cat", found, err)
	}
	// A cat's "kind" is "cat": a value with the dog's kind and both required sets is the dog.
	var spare unions.BoxSpare
	if err := json.Unmarshal([]byte(`{"kind":"dog","lives":1,"bark":false}`), &spare); err != nil || spare.OfDog == nil {
		t.Fatalf("decoded %+v (%v), want the dog", spare, err)
	}
}

func TestAValueOfNoMemberIsAnErrorNamingTheUnion(t *testing.T) {
	var union *sdkruntime.UnionError
	for _, c := range []struct {
		into any
		json string
		want string
	}{
		{new(unions.Label), `1.5`, "Label: the value 1.5 is none of its members (OfInt, OfString, OfStringArray)"},
		{new(unions.EventSelector), `"job.started"`, `EventSelector: the value "job.started" is none of its members`},
		{new(unions.Pet), `{"kind":"bird"}`, `Pet: "kind" is "bird", which is none of cat, dog`},
		{new(unions.Pet), `{"lives":3}`, `Pet: the value {"lives":3} has no string "kind"`},
		{new(unions.Shape), `{"width":3}`, `Shape: the value {"width":3} is none of its members (OfCircle, OfSquare)`},
	} {
		err := json.Unmarshal([]byte(c.json), c.into)
		if !errors.As(err, &union) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s into %T: %v, want a *sdkruntime.UnionError with %q", c.json, c.into, err, c.want)
		}
	}
	// Nothing set, or two members set, is refused before anything is sent.
	c, _, _ := server(t, `{}`)
	_, err := c.PutBox(context.Background(), &unions.PutBoxParams{Body: &unions.Box{Pet: &unions.Pet{}}})
	if err == nil || !strings.Contains(err.Error(), "Pet: no member is set; set exactly one of OfCat, OfDog") {
		t.Fatalf("an empty union sent: %v", err)
	}
	both := unions.Label{OfInt: unions.Ptr(int64(1)), OfString: unions.Ptr("1")}
	if _, err := json.Marshal(both); !errors.As(err, &union) || !strings.Contains(err.Error(), "Label: 2 members are set (OfInt, OfString)") {
		t.Fatalf("two members encoded: %v", err)
	}
}
