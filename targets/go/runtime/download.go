package sdkruntime

import (
	"context"
	"io"
	"mime"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// DownloadInfo describes a downloaded file.
type DownloadInfo struct {
	// FileName comes from Content-Disposition, else the last path segment of a foreign URL; "" when neither says.
	FileName string
	// ContentType is the Content-Type of the answer; "" when absent.
	ContentType string
	// Size is the Content-Length of the answer; -1 when the service sent none.
	Size int64
	// Written is the number of bytes written.
	Written int64
	// Meta describes the answer.
	Meta Meta
}

// Download streams a result file to w. tokenOrURL is a download token, or a full URL: one below the base address
// in the form of the model's download operation gives its token; any other URL (a signed link) is fetched as it
// is, without credentials. The whole download, body included, ends at the client's timeout (or CallTimeout, or
// the context's deadline): a body that trickles cannot outlast it.
func (c *Client) Download(ctx context.Context, tokenOrURL string, w io.Writer, opts ...CallOption) (*DownloadInfo, error) {
	if w == nil {
		return nil, configError("Download: the writer is nil")
	}
	r, fallback, err := c.downloadTarget(tokenOrURL, collect(opts))
	if err != nil {
		return nil, err
	}
	return c.download(ctx, r, fallback, w, opts)
}

// DownloadToFile downloads a result file (see Download) into a file at path. The file appears only when the
// download is complete: the body goes to a temporary file in the same folder, renamed at the end.
func (c *Client) DownloadToFile(ctx context.Context, tokenOrURL, filePath string, opts ...CallOption) (*DownloadInfo, error) {
	if filePath == "" {
		return nil, configError("DownloadToFile: the file path is empty")
	}
	r, fallback, err := c.downloadTarget(tokenOrURL, collect(opts))
	if err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(filePath), "."+filepath.Base(filePath)+".part-*")
	if err != nil {
		return nil, configError("DownloadToFile: cannot create a file next to %s: %v", filePath, err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	info, err := c.download(ctx, r, fallback, tmp, opts)
	if err != nil {
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, &ResponseBodyError{Err: err}
	}
	if err := os.Rename(tmp.Name(), filePath); err != nil {
		return nil, &ResponseBodyError{Err: err}
	}
	done = true
	return info, nil
}

// CallDownload sends an operation that answers with a file and streams the file to w.
func (c *Client) CallDownload(ctx context.Context, op *Operation, in Request, w io.Writer, opts ...CallOption) (*DownloadInfo, error) {
	if op == nil || w == nil {
		return nil, configError("CallDownload: the operation or the writer is nil")
	}
	cs := collect(opts)
	r, err := c.prepare(op, in, cs, nil)
	if err != nil {
		return nil, err
	}
	r.binary = true
	return c.download(ctx, r, "", w, opts)
}

// downloadTarget is the request of a token or URL, and the file name a foreign URL suggests.
func (c *Client) downloadTarget(tokenOrURL string, cs *callSettings) (*sendRequest, string, error) {
	var dl *JobDownload
	if c.model.Jobs != nil {
		dl = c.model.Jobs.Download
	}
	lower := strings.ToLower(tokenOrURL)
	isURL := strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://")
	token := ""
	if !isURL {
		if dl == nil {
			return nil, "", configError("download by token is unavailable: the description marks no download operation; pass a full URL")
		}
		if tokenOrURL == "" || strings.Contains(tokenOrURL, "/") {
			return nil, "", configError("Download needs a token or a full http(s) URL, got %q", tokenOrURL)
		}
		token = tokenOrURL
	} else if dl != nil && strings.HasPrefix(tokenOrURL, c.baseURL+"/") {
		rest := strings.TrimPrefix(tokenOrURL, c.baseURL)
		if i := strings.IndexAny(rest, "?#"); i >= 0 {
			rest = rest[:i]
		}
		if values, ok := matchPath(dl.Operation.Path, rest); ok {
			if t, err := url.PathUnescape(values[dl.TokenParameter]); err == nil && t != "" && !strings.Contains(t, "/") {
				token = t
			}
		}
	}
	if token != "" {
		op := dl.Operation
		op.Response = ResponseBinary
		r, err := c.prepare(&op, Request{Path: map[string]string{dl.TokenParameter: token}}, cs, nil)
		if err != nil {
			return nil, "", err
		}
		return r, "", nil
	}
	u, err := url.Parse(tokenOrURL)
	if err != nil || u.Host == "" {
		return nil, "", configError("Download: %q is not a valid URL", c.redact.text(tokenOrURL))
	}
	op := &Operation{ID: "download", Method: "GET", Path: u.Path, Response: ResponseBinary}
	fallback := ""
	if base := path.Base(u.Path); base != "/" && base != "." {
		fallback = base
	}
	return &sendRequest{op: op, url: u, foreign: true, binary: true, resendable: true, headers: cs.headers}, fallback, nil
}

func (c *Client) download(ctx context.Context, r *sendRequest, fallback string, w io.Writer, opts []CallOption) (*DownloadInfo, error) {
	cs := collect(opts)
	b, cancel, err := c.newBudget(ctx, c.timeout, cs)
	if err != nil {
		return nil, err
	}
	defer cancel()
	r.binary = true
	a, err := c.send(b, r)
	if err != nil {
		return nil, err
	}
	defer a.body.Close()
	info := &DownloadInfo{ContentType: a.meta.Header.Get("Content-Type"), Size: -1, Meta: a.meta, FileName: fallback}
	if _, params, err := mime.ParseMediaType(a.meta.Header.Get("Content-Disposition")); err == nil && params["filename"] != "" {
		info.FileName = params["filename"]
	}
	if n, err := strconv.ParseInt(a.meta.Header.Get("Content-Length"), 10, 64); err == nil {
		info.Size = n
	}
	sink := &writeTracker{w: w}
	info.Written, err = io.Copy(sink, a.body)
	if err != nil {
		if sink.err == nil {
			if stop := b.stopped(); stop != nil {
				return nil, stop
			}
		}
		return nil, &ResponseBodyError{Err: &redactedError{text: c.redact.text(err.Error()), err: err}}
	}
	return info, nil
}

// writeTracker remembers the error of the writer, to tell it from a read error of the body.
type writeTracker struct {
	w   io.Writer
	err error
}

// Write writes to the underlying writer and remembers its error.
func (t *writeTracker) Write(p []byte) (int, error) {
	n, err := t.w.Write(p)
	if err != nil {
		t.err = err
	}
	return n, err
}
