package sdkruntime

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// Margins hold on a busy two-core machine: a call must end after its deadline, and well before the body would.
const (
	testDeadline = 1500 * time.Millisecond
	lateMargin   = 3 * time.Second
)

// trickled is a body sent one byte every 200 ms: about 20 s in all, far beyond the deadline.
var trickled = `{"job_id":"job_b1","job_status":"completed","result":{"pages":2},"padding":"` + strings.Repeat("x", 60) + `"}`

func checkEndedAtDeadline(t *testing.T, start time.Time) {
	t.Helper()
	elapsed := time.Since(start)
	if elapsed < testDeadline-100*time.Millisecond {
		t.Errorf("ended after %s, before the %s deadline", elapsed, testDeadline)
	}
	if elapsed > testDeadline+lateMargin {
		t.Errorf("ended after %s; the %s deadline should have ended it", elapsed, testDeadline)
	}
}

func TestDeadlineWithTrickledBody(t *testing.T) {
	tests := []struct {
		name string
		run  func(c *Client) error
		want func(t *testing.T, err error)
	}{
		{name: "read", run: func(c *Client) error {
			_, err := c.Call(context.Background(), opRead, Request{Path: map[string]string{"id": "t1"}}, CallTimeout(testDeadline))
			return err
		}, want: func(t *testing.T, err error) {
			d := errorsAs[*DeadlineExceededError](t, err)
			if d.Deadline != testDeadline {
				t.Errorf("Deadline = %s", d.Deadline)
			}
		}},
		{name: "submission", run: func(c *Client) error {
			_, err := c.Submit(context.Background(), "pdf-merge", map[string]any{"a": "b"}, CallTimeout(testDeadline))
			return err
		}, want: func(t *testing.T, err error) {
			errorsAs[*JobMayExistError](t, err)
			errorsAs[*DeadlineExceededError](t, err)
		}},
		{name: "wait", run: func(c *Client) error {
			_, err := c.Wait(context.Background(), "job_b1", CallTimeout(testDeadline))
			return err
		}, want: func(t *testing.T, err error) {
			if d := errorsAs[*DeadlineExceededError](t, err); d.Job() != "job_b1" {
				t.Errorf("Job() = %q, want job_b1", d.Job())
			}
		}},
		{name: "download", run: func(c *Client) error {
			var buf bytes.Buffer
			_, err := c.Download(context.Background(), "tok-1", &buf, CallTimeout(testDeadline))
			return err
		}, want: func(t *testing.T, err error) {
			errorsAs[*DeadlineExceededError](t, err)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newScripted(t, step{body: trickled, trickle: 200 * time.Millisecond})
			c := newTestClient(t, srv.URL)
			start := time.Now()
			err := tt.run(c)
			checkEndedAtDeadline(t, start)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("errors.Is(err, context.DeadlineExceeded) = false for %v", err)
			}
			tt.want(t, err)
			if srv.count() != 1 {
				t.Errorf("requests = %d, want 1", srv.count())
			}
		})
	}
}

func TestDeadlineWithSilentServer(t *testing.T) {
	t.Parallel()
	srv := newScripted(t, step{body: okThing, delay: 20 * time.Second})
	c := newTestClient(t, srv.URL, WithTimeout(testDeadline))
	start := time.Now()
	_, err := c.Call(context.Background(), opRead, Request{Path: map[string]string{"id": "t1"}})
	checkEndedAtDeadline(t, start)
	errorsAs[*DeadlineExceededError](t, err)
	if srv.count() != 1 {
		t.Errorf("requests = %d; nothing is resent after the deadline", srv.count())
	}
}

func TestContextDeadlineWins(t *testing.T) {
	t.Parallel()
	srv := newScripted(t, step{body: okThing, delay: 20 * time.Second})
	c := newTestClient(t, srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), testDeadline)
	defer cancel()
	start := time.Now()
	_, err := c.Call(ctx, opRead, Request{Path: map[string]string{"id": "t1"}})
	checkEndedAtDeadline(t, start)
	if d := errorsAs[*DeadlineExceededError](t, err); d.Deadline != 0 {
		t.Errorf("Deadline = %s; the context's own deadline passed, not the client's", d.Deadline)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("errors.Is(err, context.DeadlineExceeded) = false")
	}
}

func TestCancel(t *testing.T) {
	tests := []struct {
		name string
		run  func(ctx context.Context, c *Client) error
		want func(t *testing.T, err error)
	}{
		{name: "read", run: func(ctx context.Context, c *Client) error {
			_, err := c.Call(ctx, opRead, Request{Path: map[string]string{"id": "t1"}})
			return err
		}, want: func(t *testing.T, err error) {
			errorsAs[*CanceledError](t, err)
			var m *MayHaveBeenProcessedError
			if errors.As(err, &m) {
				t.Error("a read is not a write that may have been processed")
			}
		}},
		{name: "write", run: func(ctx context.Context, c *Client) error {
			_, err := c.Call(ctx, opWrite, Request{Body: map[string]any{"x": 1}})
			return err
		}, want: func(t *testing.T, err error) {
			m := errorsAs[*MayHaveBeenProcessedError](t, err)
			if !strings.Contains(m.Detail, "canceled") {
				t.Errorf("Detail = %q", m.Detail)
			}
			errorsAs[*CanceledError](t, err)
		}},
		{name: "submission", run: func(ctx context.Context, c *Client) error {
			_, err := c.Submit(ctx, "pdf-merge", map[string]any{"x": "1"})
			return err
		}, want: func(t *testing.T, err error) {
			errorsAs[*JobMayExistError](t, err)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newScripted(t, step{body: okThing, delay: 20 * time.Second})
			c := newTestClient(t, srv.URL)
			ctx, cancel := context.WithCancel(context.Background())
			timer := time.AfterFunc(200*time.Millisecond, cancel)
			defer timer.Stop()
			start := time.Now()
			err := tt.run(ctx, c)
			if elapsed := time.Since(start); elapsed > 200*time.Millisecond+lateMargin {
				t.Errorf("took %s after a cancel at 200 ms", elapsed)
			}
			if !errors.Is(err, context.Canceled) {
				t.Errorf("errors.Is(err, context.Canceled) = false for %v", err)
			}
			tt.want(t, err)
		})
	}
}

func TestCanceledBeforeStartSendsNothing(t *testing.T) {
	srv := newScripted(t, step{body: okThing})
	c := newTestClient(t, srv.URL)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.Call(ctx, opWrite, Request{Body: map[string]any{"x": 1}})
	errorsAs[*CanceledError](t, err)
	if srv.count() != 0 {
		t.Errorf("requests = %d after a cancel before the call", srv.count())
	}
}

func TestWaitEndsAtDeadlineWhenJobNeverCompletes(t *testing.T) {
	t.Parallel()
	srv := newScripted(t, step{body: `{"job_id":"job_b1","job_status":"processing"}`})
	c := newTestClient(t, srv.URL)
	start := time.Now()
	_, err := c.Wait(context.Background(), "job_b1", CallTimeout(testDeadline), CallPollInterval(400*time.Millisecond, 400*time.Millisecond))
	checkEndedAtDeadline(t, start)
	errorsAs[*DeadlineExceededError](t, err)
	if n := srv.count(); n < 3 || n > 6 {
		t.Errorf("polls = %d, want about one every 400 ms", n)
	}
}
