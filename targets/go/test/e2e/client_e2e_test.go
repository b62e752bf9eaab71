// The generated Go client of the service against the mock, started by targets/go/test/client.test.ts, which copies
// this file into a module beside the generated one. Environment: SERVICE_MOCK_URL, the mock's base address.
package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	sdk "example.com/document-automation-service-sdk-go"
	sdkruntime "github.com/paperoffice/sdk-runtime-go"
)

const token = "svc_sk_go_tests"

func client(t *testing.T, tok string, opts ...sdk.Option) *sdk.Client {
	t.Helper()
	base := []sdk.Option{
		sdk.WithBaseURL(os.Getenv("SERVICE_MOCK_URL")),
		sdk.WithToken(tok),
		sdk.WithPollInterval(50*time.Millisecond, 100*time.Millisecond),
		sdk.WithJobTimeout(60 * time.Second),
	}
	c, err := sdk.New(append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestListWebhooks(t *testing.T) {
	res, err := client(t, token).ListWebhooks(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Meta.Status != 200 || res.Data.Status != sdk.SuccessStatus("success") {
		t.Fatalf("status %d, body status %q", res.Meta.Status, res.Data.Status)
	}
	// The envelope's billing object is typed as the description types it, in Meta as in the body.
	billing, err := sdk.BillingOf(res.Meta)
	if err != nil || billing == nil || res.Data.Billing == nil {
		t.Fatalf("billing %+v (%v), body's %+v", billing, err, res.Data.Billing)
	}
	inMeta, _ := json.Marshal(billing)
	inBody, _ := json.Marshal(res.Data.Billing)
	if string(inMeta) != string(inBody) || string(inMeta) == "{}" {
		t.Fatalf("billing %s in Meta, %s in the body", inMeta, inBody)
	}
}

func TestQueryParameters(t *testing.T) {
	res, err := client(t, token).GetAuditCenter(context.Background(), &sdk.GetAuditCenterParams{Limit: sdk.Ptr(50.0), Severity: sdk.Ptr(sdk.SeverityHigh)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Meta.Status != 200 {
		t.Fatalf("status %d", res.Meta.Status)
	}
}

func TestJobThroughAPipelineVariant(t *testing.T) {
	res, err := client(t, token).SubmitWorkflow(context.Background(), sdk.WorkflowPDFAiSplit{Pofid: sdk.Ptr("POF-123"), Locale: sdk.Ptr("en_US")})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.JobID, "job_") || len(res.Data) == 0 {
		t.Fatalf("job %q, payload %s", res.JobID, res.Data)
	}
	if _, err := sdk.Decode[sdk.WorkflowPayload](res.Data); err != nil {
		t.Fatalf("payload: %v", err)
	}
	// The payload is decoded by the variant sent: pdf_ai_split's is a WorkflowPayload, invoice's a WorkflowInvoicePayload.
	if _, ok := res.Payload.AsAny().(sdk.WorkflowPayload); !ok || res.Payload.OfWorkflowInvoicePayload != nil {
		t.Fatalf("payload %+v, want a WorkflowPayload", res.Payload)
	}
	invoice, err := client(t, token).SubmitWorkflow(context.Background(), sdk.WorkflowInvoice{Pofid: sdk.Ptr("POF-123")})
	if err != nil {
		t.Fatal(err)
	}
	if invoice.Payload.OfWorkflowInvoicePayload == nil || invoice.Payload.OfWorkflowPayload != nil {
		t.Fatalf("payload %+v of %s, want a WorkflowInvoicePayload", invoice.Payload, invoice.Data)
	}
}

func TestJobWithAFile(t *testing.T) {
	file := &sdkruntime.File{Name: "in.pdf", ContentType: "application/pdf", Content: strings.NewReader("%PDF-1.4\n%test\n")}
	res, err := client(t, token).SubmitWorkflow(context.Background(), sdk.WorkflowPDFAiSplit{File: file})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.JobID, "job_") {
		t.Fatalf("job %q", res.JobID)
	}
}

func TestJSONTextFieldsTravelAsJSONText(t *testing.T) {
	body := sdk.WorkflowDocumentAnonymizeFinalize{
		PreviewImages:        []string{"https://files.example.com/p1.png"},
		PreviewBoundingBoxes: json.RawMessage(`{"pages":[]}`),
		RedactBoxes:          json.RawMessage(`[{"page":1}]`),
	}
	res, err := client(t, token).SubmitWorkflow(context.Background(), body)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.JobID, "job_") {
		t.Fatalf("job %q", res.JobID)
	}
}

func TestStartedJobIsWaitedFor(t *testing.T) {
	c := client(t, token, sdk.WithHeader("x-mock-job-duration-ms", "300"))
	// The handle of Start<Pipeline> is typed as Submit<Pipeline>'s result: its Wait decodes by the variant sent.
	var handle *sdk.WorkflowJob
	handle, err := c.StartWorkflow(context.Background(), sdk.WorkflowInvoice{Pofid: sdk.Ptr("POF-1")})
	if err != nil {
		t.Fatal(err)
	}
	if handle.Pipeline != "workflow" || !strings.HasPrefix(handle.JobID, "job_") {
		t.Fatalf("handle %q of %q", handle.JobID, handle.Pipeline)
	}
	var res *sdk.WorkflowResult
	res, err = handle.Wait(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.JobID != handle.JobID || len(res.Data) == 0 {
		t.Fatalf("job %q of %q, payload %s", res.JobID, handle.JobID, res.Data)
	}
	if res.Payload.OfWorkflowInvoicePayload == nil || res.Payload.OfWorkflowPayload != nil {
		t.Fatalf("payload %+v of %s, want a WorkflowInvoicePayload", res.Payload, res.Data)
	}
	// The untyped wait stays for dynamic use.
	raw, err := handle.JobHandle.Wait(context.Background())
	if err != nil || raw.JobID != handle.JobID || len(raw.Data) == 0 {
		t.Fatalf("untyped wait: %+v, %v", raw, err)
	}
}

func TestJobIsWaitedForByIDWithItsPayloadTyped(t *testing.T) {
	c := client(t, token, sdk.WithHeader("x-mock-job-duration-ms", "300"))
	handle, err := c.StartWorkflow(context.Background(), sdk.WorkflowPDFAiSplit{Pofid: sdk.Ptr("POF-1")})
	if err != nil {
		t.Fatal(err)
	}
	// Another process knows the id and the variant submitted, whose zero value tells the payload's type.
	res, err := client(t, token).WaitWorkflow(context.Background(), handle.JobID, sdk.WorkflowPDFAiSplit{})
	if err != nil {
		t.Fatal(err)
	}
	if res.JobID != handle.JobID || res.Payload.OfWorkflowPayload == nil || res.Payload.OfWorkflowInvoicePayload != nil {
		t.Fatalf("job %q of %q, payload %+v of %s, want a WorkflowPayload", res.JobID, handle.JobID, res.Payload, res.Data)
	}
	untyped, err := client(t, token).Wait(context.Background(), handle.JobID)
	if err != nil || string(untyped.Data) != string(res.Data) {
		t.Fatalf("untyped wait: %s (%v), typed one's %s", untyped.Data, err, res.Data)
	}
	// A nil variant is refused before anything is sent, with the method named.
	var none *sdk.WorkflowInvoice
	for _, variant := range []sdk.WorkflowRequest{nil, none} {
		_, err = client(t, token).WaitWorkflow(context.Background(), handle.JobID, variant)
		var config *sdkruntime.ConfigError
		if !errors.As(err, &config) || !strings.Contains(config.Message, "WaitWorkflow") {
			t.Fatalf("nil variant %#v: %v", variant, err)
		}
	}
}

func TestExactlyOneIsCheckedBeforeSending(t *testing.T) {
	for name, body := range map[string]sdk.WorkflowRequest{
		"neither": sdk.WorkflowPDFAiSplit{},
		"both":    sdk.WorkflowPDFAiSplit{Pofid: sdk.Ptr("POF-1"), File: &sdkruntime.File{Name: "a.pdf", Content: strings.NewReader("x")}},
	} {
		// An unreachable address: a request that left would be a connection error, not a ConfigError.
		c, err := sdk.New(sdk.WithBaseURL("http://127.0.0.1:1/latest"), sdk.WithToken(token))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.SubmitWorkflow(context.Background(), body)
		var config *sdkruntime.ConfigError
		if !errors.As(err, &config) {
			t.Fatalf("%s: got %v, want a *sdkruntime.ConfigError", name, err)
		}
	}
}

func TestFailedJobIsTyped(t *testing.T) {
	c := client(t, token, sdk.WithHeader("x-mock-job-duration-ms", "300"), sdk.WithHeader("x-mock-job-outcome", "fail"))
	_, err := c.SubmitWorkflow(context.Background(), sdk.WorkflowPDFAiSplit{Pofid: sdk.Ptr("POF-1"), ClientWait: sdk.Ptr(false)})
	var failed *sdkruntime.JobFailedError
	if !errors.As(err, &failed) {
		t.Fatalf("got %v, want a *sdkruntime.JobFailedError", err)
	}
}

func TestServiceErrorsAreTyped(t *testing.T) {
	_, err := client(t, "not-a-token").GetJob(context.Background(), &sdk.GetJobParams{JobID: "job_x"})
	var service *sdkruntime.ServiceError
	if !errors.As(err, &service) {
		t.Fatalf("got %v, want a *sdkruntime.ServiceError", err)
	}
	if service.Status != 401 || service.Code != "INVALID_TOKEN" || !errors.Is(err, sdk.ErrInvalidToken) {
		t.Fatalf("status %d code %q", service.Status, service.Code)
	}
	_, err = client(t, token).GetJob(context.Background(), &sdk.GetJobParams{JobID: "job_does_not_exist"})
	if !errors.As(err, &service) || service.Status != 404 {
		t.Fatalf("got %v, want a 404 *sdkruntime.ServiceError", err)
	}
}

func TestVariantWritesItsDiscriminatorAndKeepsExtra(t *testing.T) {
	body := sdk.WorkflowPDFAiSplit{Pofid: sdk.Ptr("x"), Extra: map[string]json.RawMessage{"future_field": json.RawMessage(`1`)}}
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"future_field":1,"pofid":"x","template":"pdf_ai_split"}`; string(data) != want {
		t.Fatalf("got %s, want %s", data, want)
	}
	var back sdk.WorkflowPDFAiSplit
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if *back.Pofid != "x" || string(back.Extra["future_field"]) != "1" || len(back.Extra) != 1 {
		t.Fatalf("decoded %+v", back)
	}
}

// The description's unions are typed: an event selector is a WebhookEventName or the wildcard, sent as the event
// name; a document id of string or number in a query is sent as it is, never JSON-quoted.
func TestUnionsOfTheDescriptionAreSentAsTheirMembers(t *testing.T) {
	var body []byte
	var query string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ = io.ReadAll(r.Body)
		query = r.URL.RawQuery
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"status":"success"}`)
	}))
	t.Cleanup(srv.Close)
	c := client(t, token, sdk.WithBaseURL(srv.URL+"/latest"))
	_, err := c.SubscribeWebhook(context.Background(), &sdk.SubscribeWebhookParams{Body: &sdk.WebhookSubscriptionCreate{
		Name:   "jobs",
		URL:    "https://hooks.example.com/in",
		Events: []sdk.WebhookEventSelector{sdk.WebhookEventSelectorOfWebhookEventName(sdk.WebhookEventNameJobCompleted)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	var sent struct{ Events []string }
	if json.Unmarshal(body, &sent) != nil || len(sent.Events) != 1 || sent.Events[0] != "job.completed" {
		t.Fatalf("sent %s, want events [\"job.completed\"]", body)
	}
	id := sdk.GetActivityDocumentParamsDocumentsIDOfString("POF-1")
	if _, err := c.GetActivityDocument(context.Background(), &sdk.GetActivityDocumentParams{DocumentsID: &id}); err != nil {
		t.Fatal(err)
	}
	if query != "documents_id=POF-1" {
		t.Fatalf("query %q, want documents_id=POF-1", query)
	}
}
