// The generated Go client of test/matrix/descriptions/go-nullable-30.yaml or go-nullable-31.yaml (the same shapes in
// OpenAPI 3.0's and 3.1's forms), generated as example.com/nullable-sdk-go and sending to a local server; run by
// targets/go/test/shapes.test.ts, which copies this file into a module beside the generated one.
package e2e

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	nullable "example.com/nullable-sdk-go"
	sdkruntime "github.com/paperoffice/sdk-runtime-go"
)

// server answers every request with answer and keeps the last request's body.
func server(t *testing.T, answer string) (*nullable.Client, *[]byte) {
	t.Helper()
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, answer)
	}))
	t.Cleanup(srv.Close)
	c, err := nullable.New(nullable.WithBaseURL(srv.URL), nullable.WithToken("t"))
	if err != nil {
		t.Fatal(err)
	}
	return c, &body
}

func members(t *testing.T, body []byte) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("request body %q: %v", body, err)
	}
	return m
}

func TestPatchSendsAnExplicitNullAndLeavesUnsetFieldsOut(t *testing.T) {
	c, body := server(t, `{"id":"t1","due":null,"owner":null}`)
	_, err := c.PatchTask(context.Background(), &nullable.PatchTaskParams{
		ID:   "t1",
		Body: &nullable.TaskPatch{Note: sdkruntime.Null[string](), Title: nullable.Ptr("x")},
	})
	if err != nil {
		t.Fatal(err)
	}
	sent := members(t, *body)
	if string(sent["note"]) != "null" || string(sent["title"]) != `"x"` || len(sent) != 2 {
		t.Fatalf("sent %s, want note null, title \"x\" and nothing else (rank unset)", *body)
	}
	_, err = c.PatchTask(context.Background(), &nullable.PatchTaskParams{
		ID:   "t1",
		Body: &nullable.TaskPatch{Rank: sdkruntime.Value[int64](0)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if sent := members(t, *body); string(sent["rank"]) != "0" || len(sent) != 1 {
		t.Fatalf("sent %s, want rank 0 only", *body)
	}
}

func TestRequiredNullableFieldsReadNullAsNull(t *testing.T) {
	c, _ := server(t, `{"id":"t1","due":null,"owner":null,"note":null}`)
	res, err := c.GetTask(context.Background(), &nullable.GetTaskParams{ID: "t1"})
	if err != nil {
		t.Fatal(err)
	}
	task := res.Data
	if !task.Due.IsNull() || !task.Owner.IsNull() || !task.Note.IsNull() {
		t.Fatalf("due %+v, owner %+v, note %+v: want null, not \"\" or an empty object", task.Due, task.Owner, task.Note)
	}
	if task.Rank.IsSet() || task.Parent.IsSet() || task.Extra != nil {
		t.Fatalf("rank %+v, parent %+v, extra %s: want absent", task.Rank, task.Parent, task.Extra)
	}
}

func TestNullableFieldsReadValues(t *testing.T) {
	c, _ := server(t, `{"id":"t2","due":"","owner":{"name":"a"},"rank":0,"state":"done","tags":[],"parent":{"id":"p","due":"d","owner":null}}`)
	res, err := c.GetTask(context.Background(), &nullable.GetTaskParams{ID: "t2"})
	if err != nil {
		t.Fatal(err)
	}
	task := res.Data
	if due, ok := task.Due.Get(); !ok || due != "" {
		t.Fatalf("due = %q, %v; want the empty string", due, ok)
	}
	if owner, ok := task.Owner.Get(); !ok || owner.Name == nil || *owner.Name != "a" {
		t.Fatalf("owner = %+v, %v", owner, ok)
	}
	if rank, ok := task.Rank.Get(); !ok || rank != 0 {
		t.Fatalf("rank = %d, %v", rank, ok)
	}
	if state, ok := task.State.Get(); !ok || state != nullable.TaskStateDone {
		t.Fatalf("state = %q, %v", state, ok)
	}
	if tags, ok := task.Tags.Get(); !ok || tags == nil || len(tags) != 0 {
		t.Fatalf("tags = %#v, %v; want an empty list", tags, ok)
	}
	parent, ok := task.Parent.Get()
	if due, set := parent.Due.Get(); !ok || parent.ID != "p" || !set || due != "d" || !parent.Owner.IsNull() {
		t.Fatalf("parent = %+v, %v", parent, ok)
	}
	// Sent back, a required null stays null and an absent optional field stays out.
	out, err := json.Marshal(parent)
	if err != nil {
		t.Fatal(err)
	}
	if sent := members(t, out); string(sent["owner"]) != "null" || string(sent["due"]) != `"d"` || len(sent) != 3 {
		t.Fatalf("re-encoded parent: %s", out)
	}
}
