// The Go soak driver: many jobs through one generated Go client (generated/go), at most `concurrency` in flight,
// each call with a deadline; one JSON line per job on stdout. stdin: a SoakConfig (test/behaviour/soak.ts).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	sdk "example.com/document-automation-service-sdk-go"
	sdkruntime "github.com/paperoffice/sdk-runtime-go"
)

type config struct {
	BaseURL         string   `json:"baseUrl"`
	Token           string   `json:"token"`
	Prefix          string   `json:"prefix"`
	Jobs            int      `json:"jobs"`
	Concurrency     int      `json:"concurrency"`
	DeadlinesMs     []int    `json:"deadlinesMs"`
	PollMs          [2]int   `json:"pollMs"`
	MaxRetries      int      `json:"maxRetries"`
	BaseDelayMs     int      `json:"baseDelayMs"`
	MaxDelayMs      int      `json:"maxDelayMs"`
	MaxRetryAfterMs int      `json:"maxRetryAfterMs"`
	Pipeline        string   `json:"pipeline"`
	Modes           []string `json:"modes"`
}

type call struct {
	Op         string `json:"op"`
	DeadlineMs int    `json:"deadlineMs"`
	StartedAt  int64  `json:"startedAt"`
	ElapsedMs  int64  `json:"elapsedMs"`
}

type job struct {
	Ref     string  `json:"ref"`
	Mode    string  `json:"mode"`
	OK      bool    `json:"ok"`
	Kind    string  `json:"kind,omitempty"`
	JobID   *string `json:"jobId"`
	HasData bool    `json:"hasData"`
	Message string  `json:"message,omitempty"`
	Calls   []call  `json:"calls"`
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

func noEnv(string) (string, bool) { return "", false }

// kindOf classifies the error returned, as the behaviour driver does; MayHaveBeenProcessedError is its own kind.
func kindOf(err error) string {
	switch err.(type) {
	case *sdkruntime.JobMayExistError:
		return "job-may-exist"
	case *sdkruntime.MayHaveBeenProcessedError:
		return "may-have-been-processed"
	case *sdkruntime.JobFailedError:
		return "job-failed"
	case *sdkruntime.MalformedResponseError:
		return "malformed"
	case *sdkruntime.DeadlineExceededError:
		return "deadline"
	case *sdkruntime.ConnectionError:
		return "connection"
	case *sdkruntime.ServiceError:
		return "service"
	}
	return fmt.Sprintf("other:%T", err)
}

func timed(calls *[]call, op string, deadlineMs int, fn func() error) error {
	started := time.Now()
	err := fn()
	*calls = append(*calls, call{Op: op, DeadlineMs: deadlineMs, StartedAt: started.UnixMilli(), ElapsedMs: time.Since(started).Milliseconds()})
	return err
}

func runJob(client *sdk.Client, c config, index int) job {
	ref := fmt.Sprintf("%s-%05d", c.Prefix, index)
	mode := c.Modes[index%len(c.Modes)]
	body := map[string]any{"template": "pdf_ai_split", "pofid": ref, "locale": "en_US"}
	if mode == "held" {
		body["client_wait"] = true
	}
	deadlineMs := c.DeadlinesMs[index%len(c.DeadlinesMs)]
	deadline := sdkruntime.CallTimeout(ms(deadlineMs))
	ctx := context.Background()
	j := job{Ref: ref, Mode: mode, Calls: []call{}}
	var result *sdkruntime.JobResult
	var err error
	if mode == "start" {
		var handle *sdkruntime.JobHandle
		err = timed(&j.Calls, "start", deadlineMs, func() (e error) {
			handle, e = client.Start(ctx, c.Pipeline, body, deadline)
			return e
		})
		if err == nil {
			err = timed(&j.Calls, "wait", deadlineMs, func() (e error) {
				result, e = client.Wait(ctx, handle.JobID, deadline)
				return e
			})
		}
	} else {
		err = timed(&j.Calls, "submit", deadlineMs, func() (e error) {
			result, e = client.Submit(ctx, c.Pipeline, body, deadline)
			return e
		})
	}
	if err != nil {
		j.Kind = kindOf(err)
		j.Message = err.Error()
		var typed sdkruntime.Error
		if errors.As(err, &typed) {
			if id := typed.Job(); id != "" {
				j.JobID = &id
			}
		}
		return j
	}
	j.OK = true
	id := result.JobID
	j.JobID = &id
	j.HasData = len(result.Data) > 0 && string(result.Data) != "null"
	return j
}

func main() {
	var c config
	if err := json.NewDecoder(os.Stdin).Decode(&c); err != nil {
		fmt.Fprintln(os.Stderr, "reading the configuration:", err)
		os.Exit(2)
	}
	client, err := sdk.New(
		sdk.WithBaseURL(c.BaseURL),
		sdk.WithToken(c.Token),
		sdkruntime.WithLookupEnv(noEnv),
		sdk.WithPollInterval(ms(c.PollMs[0]), ms(c.PollMs[1])),
		sdk.WithMaxRetries(c.MaxRetries),
		sdk.WithRetryDelays(ms(c.BaseDelayMs), ms(c.MaxDelayMs)),
		sdkruntime.WithMaxRetryAfter(ms(c.MaxRetryAfterMs)),
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, "the client:", err)
		os.Exit(2)
	}
	// The process's own stalls: a goroutine that sleeps 20 ms at a time and notes how late it wakes.
	stalls := [][2]int64{}
	var stallsMu sync.Mutex
	stop := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		const tick = 20 * time.Millisecond
		expected := time.Now().Add(tick)
		for {
			select {
			case <-stop:
				return
			case <-time.After(tick):
			}
			now := time.Now()
			if late := now.Sub(expected); late >= 50*time.Millisecond {
				stallsMu.Lock()
				stalls = append(stalls, [2]int64{now.UnixMilli(), late.Milliseconds()})
				stallsMu.Unlock()
			}
			expected = now.Add(tick)
		}
	}()
	out := bufio.NewWriter(os.Stdout)
	var mu sync.Mutex
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(1, c.Concurrency); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				line, _ := json.Marshal(runJob(client, c, i))
				mu.Lock()
				_, _ = out.Write(append(line, '\n'))
				mu.Unlock()
			}
		}()
	}
	for i := 0; i < c.Jobs; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	close(stop)
	<-watched
	line, _ := json.Marshal(map[string]any{"stalls": stalls})
	_, _ = out.Write(append(line, '\n'))
	if err := out.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
