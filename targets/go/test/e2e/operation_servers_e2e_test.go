// The generated Go client of a description whose upload operation (and a path item) has servers of its own, sending
// to two local servers that answer with their name, the path and the Authorization header they got; run by
// targets/go/test/operation-servers.test.ts, which writes the description with their ports and gives their
// addresses in MAIN_URL and UPLOADS_URL.
package e2e

import (
	"context"
	"errors"
	"os"
	"testing"

	sdk "example.com/op-servers-go-sdk-go"
	sdkruntime "github.com/paperoffice/sdk-runtime-go"
)

type seen struct{ server, path, authorization string }

func where(t *testing.T, name string, call func() (*sdk.Seen, error)) seen {
	t.Helper()
	got, err := call()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return seen{got.Server, got.Path, got.Authorization}
}

func expect(t *testing.T, name string, got, want seen) {
	t.Helper()
	if got != want {
		t.Errorf("%s: got %+v, want %+v", name, got, want)
	}
}

// calls runs the four operations of a client.
func calls(t *testing.T, c *sdk.Client, opts ...sdk.CallOption) map[string]seen {
	ctx := context.Background()
	return map[string]seen{
		"plain":     where(t, "plain", func() (*sdk.Seen, error) { r, err := c.Plain(ctx, opts...); return data(r, err) }),
		"upload":    where(t, "upload", func() (*sdk.Seen, error) { r, err := c.Upload(ctx, opts...); return data(r, err) }),
		"pathLevel": where(t, "pathLevel", func() (*sdk.Seen, error) { r, err := c.PathLevel(ctx, opts...); return data(r, err) }),
		"relative":  where(t, "relative", func() (*sdk.Seen, error) { r, err := c.Relative(ctx, opts...); return data(r, err) }),
	}
}

func data(r *sdkruntime.Response[sdk.Seen], err error) (*sdk.Seen, error) {
	if err != nil {
		return nil, err
	}
	return &r.Data, nil
}

func noEnv(string) (string, bool) { return "", false }

func TestOperationsGoToTheirOwnServers(t *testing.T) {
	c, err := sdk.New(sdk.WithToken("t"), sdkruntime.WithLookupEnv(noEnv))
	if err != nil {
		t.Fatal(err)
	}
	got := calls(t, c)
	expect(t, "plain", got["plain"], seen{"main", "/v1/plain", "Bearer t"})
	expect(t, "upload", got["upload"], seen{"uploads", "/up/upload", "Bearer t"})
	expect(t, "pathLevel", got["pathLevel"], seen{"uploads", "/path-level", "Bearer t"})
	// A relative server is below the client's base address: "/rel" at its origin.
	expect(t, "relative", got["relative"], seen{"main", "/rel/relative", "Bearer t"})
}

func TestAGivenBaseURLAppliesToEveryOperation(t *testing.T) {
	mock, err := sdk.New(sdk.WithToken("t"), sdk.WithBaseURL(os.Getenv("MAIN_URL")+"/mock"), sdkruntime.WithLookupEnv(noEnv))
	if err != nil {
		t.Fatal(err)
	}
	got := calls(t, mock)
	expect(t, "upload", got["upload"], seen{"main", "/mock/upload", "Bearer t"})
	expect(t, "pathLevel", got["pathLevel"], seen{"main", "/mock/path-level", "Bearer t"})
	env := func(name string) (string, bool) {
		if name == "OP_SERVERS_GO_BASE_URL" {
			return os.Getenv("MAIN_URL") + "/env", true
		}
		return "", false
	}
	fromEnv, err := sdk.New(sdk.WithToken("t"), sdkruntime.WithLookupEnv(env))
	if err != nil {
		t.Fatal(err)
	}
	expect(t, "upload (environment)", calls(t, fromEnv)["upload"], seen{"main", "/env/upload", "Bearer t"})
}

func TestCallBaseURLSendsOneCallElsewhere(t *testing.T) {
	c, err := sdk.New(sdk.WithToken("t"), sdkruntime.WithLookupEnv(noEnv))
	if err != nil {
		t.Fatal(err)
	}
	got := calls(t, c, sdkruntime.CallBaseURL(os.Getenv("UPLOADS_URL")+"/other/"))
	expect(t, "plain", got["plain"], seen{"uploads", "/other/plain", "Bearer t"})
	expect(t, "upload", got["upload"], seen{"uploads", "/other/upload", "Bearer t"})
	_, err = c.Upload(context.Background(), sdkruntime.CallBaseURL("ftp://x"))
	var config *sdkruntime.ConfigError
	if err == nil || !errors.As(err, &config) {
		t.Fatalf("a bad CallBaseURL: got %v, want a *ConfigError", err)
	}
}
