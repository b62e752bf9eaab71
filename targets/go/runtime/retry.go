package sdkruntime

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type verdict int

const (
	verdictFail verdict = iota
	verdictRetry
	verdictMayHaveBeenProcessed
)

// verdictForStatus: 429 and 503 mean the server did not take the request and are always retried. Other 5xx are
// retried for resendable requests; for the others they mean the request may have been processed. 4xx and
// anything else are the caller's to fix and never retried.
func verdictForStatus(status int, resendable bool) verdict {
	switch {
	case status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable:
		return verdictRetry
	case status >= 500 && resendable:
		return verdictRetry
	case status >= 500:
		return verdictMayHaveBeenProcessed
	default:
		return verdictFail
	}
}

// idempotentMethods are the methods HTTP defines as idempotent.
var idempotentMethods = map[string]bool{"GET": true, "HEAD": true, "PUT": true, "DELETE": true, "OPTIONS": true, "TRACE": true}

// IsResendable reports whether an operation may be sent again after a failure that may have reached the server:
// always when it takes an idempotency key (every attempt of a call carries the same key, so the server carries the
// call out once), else as its Idempotent flag says, else by its method; never a job submission.
func IsResendable(op *Operation) bool {
	if op.Job == JobRoleSubmit {
		return false
	}
	if op.IdempotencyKey != "" {
		return true
	}
	if op.Idempotent != nil {
		return *op.Idempotent
	}
	return idempotentMethods[strings.ToUpper(op.Method)]
}

// wasNotSent reports whether a network error happened before any byte of the request left this machine: the
// connection was refused, the name did not resolve, the network or host was unreachable, or dialling failed.
// Everything else (reset, closed connection, timeouts while waiting) may happen after the server read the body.
func wasNotSent(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENETUNREACH) || errors.Is(err, syscall.EHOSTUNREACH) {
		return true
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return true
	}
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// backoffDelay is exponential backoff with full jitter: uniform in [0, min(maxDelay, base * 2^retry)].
func backoffDelay(retry int, base, maxDelay time.Duration) time.Duration {
	if base <= 0 {
		return 0
	}
	ceiling := maxDelay
	if retry < 63 && base <= maxDelay>>uint(retry) {
		ceiling = base << uint(retry)
	}
	if ceiling <= 0 {
		return 0
	}
	return time.Duration(rand.Int64N(int64(ceiling) + 1))
}

// retryAfterSeconds is the delay-seconds form of Retry-After (fractions accepted, as the TypeScript runtime does).
var retryAfterSeconds = regexp.MustCompile(`^\d+(\.\d+)?$`)

// maxRetryAfterSeconds bounds a Retry-After so that its duration cannot overflow; the client's cap is far lower.
const maxRetryAfterSeconds = 1e9

// parseRetryAfter reads a Retry-After header: seconds or an HTTP date. ok is false when absent or unreadable.
func parseRetryAfter(header string, now time.Time) (time.Duration, bool) {
	text := strings.TrimSpace(header)
	if text == "" {
		return 0, false
	}
	if retryAfterSeconds.MatchString(text) {
		seconds, err := strconv.ParseFloat(text, 64)
		if err != nil || seconds > maxRetryAfterSeconds {
			seconds = maxRetryAfterSeconds
		}
		return time.Duration(seconds * float64(time.Second)).Round(time.Millisecond), true
	}
	if at, err := http.ParseTime(text); err == nil {
		if d := at.Sub(now); d > 0 {
			return d, true
		}
		return 0, true
	}
	return 0, false
}

// retryDelay is the wait before the next attempt: Retry-After when the service sent one (capped), else backoff.
func (c *Client) retryDelay(retry int, retryAfter string) time.Duration {
	if d, ok := parseRetryAfter(retryAfter, time.Now()); ok {
		return min(d, c.maxRetryAfter)
	}
	return backoffDelay(retry, c.baseDelay, c.maxDelay)
}

// errOwnDeadline is the cause of a call context that reached the deadline the runtime set.
var errOwnDeadline = errors.New("sdkruntime: call deadline")

// budget is the overall deadline and the caller's context of one call or wait, carried through every request
// and sleep.
type budget struct {
	ctx    context.Context
	parent context.Context
	// length is the deadline the runtime set; 0 when the caller's context ends earlier.
	length     time.Duration
	deadline   time.Time
	maxRetries int
}

// newBudget starts a call of at most d (the parent context's own deadline wins when it is earlier).
func (c *Client) newBudget(parent context.Context, d time.Duration, cs *callSettings) (*budget, context.CancelFunc, error) {
	if parent == nil {
		return nil, nil, configError("the context is nil; pass context.Background() or a context of your own")
	}
	if cs.timeout != 0 {
		if cs.timeout < 0 {
			return nil, nil, configError("CallTimeout: %s is not a positive duration", cs.timeout)
		}
		d = cs.timeout
	}
	b := &budget{parent: parent, length: d, maxRetries: c.maxRetries}
	if cs.maxRetries != nil {
		if *cs.maxRetries < 0 {
			return nil, nil, configError("CallMaxRetries: %d is negative; pass 0 or more", *cs.maxRetries)
		}
		b.maxRetries = *cs.maxRetries
	}
	own := time.Now().Add(d)
	ctx, cancel := context.WithDeadlineCause(parent, own, errOwnDeadline)
	b.ctx = ctx
	b.deadline, _ = ctx.Deadline()
	if b.deadline.Before(own) {
		// The caller's context ends first: its deadline is the one errors report.
		b.length = 0
	}
	return b, cancel, nil
}

// stopped returns why the call can go no further (its deadline, or the caller's cancellation), or nil.
func (b *budget) stopped() Error {
	if b.ctx.Err() == nil {
		if time.Now().Before(b.deadline) {
			return nil
		}
		return &DeadlineExceededError{Deadline: b.length}
	}
	switch {
	case errors.Is(b.parent.Err(), context.Canceled):
		return &CanceledError{}
	case b.parent.Err() != nil:
		return &DeadlineExceededError{}
	case errors.Is(context.Cause(b.ctx), errOwnDeadline):
		return &DeadlineExceededError{Deadline: b.length}
	case errors.Is(b.ctx.Err(), context.DeadlineExceeded):
		return &DeadlineExceededError{}
	default:
		return &CanceledError{}
	}
}

// sleep waits d, or returns the deadline error at once when the wait would end after the deadline (nothing
// could be sent after it anyway), or the cancellation as soon as it happens.
func (b *budget) sleep(d time.Duration) error {
	if err := b.stopped(); err != nil {
		return err
	}
	if !time.Now().Add(d).Before(b.deadline) {
		return &DeadlineExceededError{Deadline: b.length}
	}
	return b.sleepFor(d)
}

func (b *budget) sleepFor(d time.Duration) error {
	if d <= 0 {
		return b.stopped()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-b.ctx.Done():
		return b.stopped()
	}
}

// lastPollBeforeDeadline: at most this long before the deadline, a wait whose next regular poll would come too
// late sends its last one.
const lastPollBeforeDeadline = time.Second

// sleepBeforePoll waits d before a poll. When the regular poll would fall after the deadline, one last poll is
// sent shortly before it (unless that would follow the previous one by less than half an interval), and the wait
// then ends at the deadline itself: it never gives up a whole interval early.
func (b *budget) sleepBeforePoll(d time.Duration) error {
	if err := b.stopped(); err != nil {
		return err
	}
	left := time.Until(b.deadline)
	reserve := min(lastPollBeforeDeadline, d/4)
	if d < left-reserve {
		return b.sleepFor(d)
	}
	if left-reserve >= d/2 {
		return b.sleepFor(left - reserve)
	}
	if err := b.sleepFor(left); err != nil {
		return err
	}
	return &DeadlineExceededError{Deadline: b.length}
}

func jitter(lo, hi time.Duration) time.Duration {
	if hi <= lo {
		return lo
	}
	return lo + time.Duration(rand.Int64N(int64(hi-lo)+1))
}
