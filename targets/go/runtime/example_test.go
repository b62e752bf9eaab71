package sdkruntime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	sdkruntime "github.com/paperoffice/sdk-runtime-go"
)

// exampleModel is the kind of model generated code fills from a description.
var exampleModel = &sdkruntime.Model{
	Release:         "R20261120.0900",
	Title:           "Example Service",
	SecuritySchemes: map[string]sdkruntime.SecurityScheme{"bearerAuth": {Type: sdkruntime.SchemeHTTP, Scheme: "bearer"}},
	Conventions: &sdkruntime.Conventions{Envelope: &sdkruntime.Envelope{
		Status: "status", Success: "success", Error: "error", Code: "code", Message: "message",
	}},
	Jobs: &sdkruntime.Jobs{
		Submit: sdkruntime.JobSubmit{
			Operation:          sdkruntime.Operation{ID: "addJob", Method: "POST", Path: "/job/add/{pipeline}", RequestMediaType: sdkruntime.MediaJSON, Job: sdkruntime.JobRoleSubmit, Security: [][]string{{"bearerAuth"}}},
			PipelineParameter:  "pipeline",
			JobID:              "job_id",
			StillRunningStatus: 202,
		},
		Poll: sdkruntime.JobPoll{
			Operation:      sdkruntime.Operation{ID: "getJob", Method: "GET", Path: "/job/get/{job_id}", Security: [][]string{{"bearerAuth"}}},
			JobIDParameter: "job_id", Status: "job_status", Completed: "completed", Payload: []string{"result"},
		},
	},
}

func Example() {
	// A stand-in for the service: the hold runs out (202), the first poll finds the job done.
	polls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusAccepted)
			fmt.Fprint(w, `{"status":"success","job_id":"job_1","job_status":"processing"}`)
			return
		}
		polls++
		fmt.Fprint(w, `{"status":"success","job_id":"job_1","job_status":"completed","result":{"pages":2}}`)
	}))
	defer srv.Close()

	client, err := sdkruntime.New(exampleModel,
		sdkruntime.WithBaseURL(srv.URL),
		sdkruntime.WithToken("example-token"),
		sdkruntime.WithPollInterval(10*time.Millisecond, 20*time.Millisecond),
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := client.Submit(context.Background(), "merge", map[string]any{"file": "a.pdf"})
	var mayExist *sdkruntime.JobMayExistError
	switch {
	case errors.As(err, &mayExist):
		fmt.Println("the job may exist; do not submit it again blindly:", mayExist.JobID)
	case err != nil:
		fmt.Println(err)
	default:
		fmt.Println(res.JobID, string(res.Data), res.Polls, polls)
	}
	// Output: job_1 {"pages":2} 1 1
}

func ExampleVerifyWebhook() {
	hooks := &sdkruntime.Webhooks{
		SignatureHeader: "X-Service-Signature", SignaturePrefix: "sha256=", EventIDHeader: "X-Service-Event-ID",
		EventIDField: "event_id", EventTypeField: "event_type", EventTypes: []string{"job.completed"},
	}
	body := []byte(`{"event_id":"evt_1","event_type":"job.completed"}`)
	signature, _ := sdkruntime.SignWebhook(hooks, body, "whsec")
	header := http.Header{}
	header.Set("X-Service-Signature", signature)
	header.Set("X-Service-Event-ID", "evt_1")

	event, err := sdkruntime.VerifyWebhook(hooks, body, header, []string{"whsec"}, sdkruntime.VerifyOptions{})
	fmt.Println(event.EventType, event.Known, err)

	_, err = sdkruntime.VerifyWebhook(hooks, body, header, []string{"another secret"}, sdkruntime.VerifyOptions{})
	var refused *sdkruntime.WebhookError
	fmt.Println(errors.As(err, &refused), refused.Kind)
	// Output:
	// job.completed true <nil>
	// true signature mismatch
}

// taskPatch is shaped as a generated type: a nullable optional field is tagged omitzero, and EncodeObject leaves
// it out when absent on every Go release.
type taskPatch struct {
	Note  sdkruntime.Nullable[string] `json:"note,omitzero"`
	Rank  sdkruntime.Nullable[int64]  `json:"rank,omitzero"`
	Extra map[string]json.RawMessage  `json:"-"`
}

func (v taskPatch) MarshalJSON() ([]byte, error) {
	type plain taskPatch
	return sdkruntime.EncodeObject(plain(v), v.Extra)
}

func ExampleNullable() {
	// Clear the note, leave the rank as it is.
	body, _ := json.Marshal(taskPatch{Note: sdkruntime.Null[string]()})
	fmt.Println(string(body))

	var answer taskPatch
	_ = json.Unmarshal([]byte(`{"note":null,"rank":3}`), &answer)
	rank, ok := answer.Rank.Get()
	fmt.Println(answer.Note.IsNull(), rank, ok)
	// Output:
	// {"note":null}
	// true 3 true
}
