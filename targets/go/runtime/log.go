package sdkruntime

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"
)

// LevelOff is the level of a client that logs nothing ([WithLogLevel], or "off" in the environment variable).
const LevelOff = slog.Level(1 << 10)

// logLevels are the values of the log environment variable (Model.Env.Log).
var logLevels = map[string]slog.Level{
	"debug": slog.LevelDebug,
	"info":  slog.LevelInfo,
	"warn":  slog.LevelWarn,
	"error": slog.LevelError,
	"off":   LevelOff,
}

// secretHeader matches header names whose values are credentials whatever they hold.
var secretHeader = regexp.MustCompile(`(?i)^(authorization|proxy-authorization|cookie|set-cookie)$|token|key|secret|signature|password`)

// resolveLogging picks the logger and level: the level of WithLogLevel, else of the environment variable the model
// names, else debug when a logger is given (its handler decides) and off without one. A level without a logger logs
// as text to stderr.
func resolveLogging(model *Model, s *settings, env func(string) string) (*slog.Logger, slog.Level, error) {
	level := LevelOff
	switch {
	case s.logLevel != nil:
		level = *s.logLevel
	case env(model.Env.Log) != "":
		raw := env(model.Env.Log)
		l, ok := logLevels[strings.ToLower(raw)]
		if !ok {
			return nil, 0, configError("the environment variable %s is %q: use one of debug, info, warn, error, off", model.Env.Log, raw)
		}
		level = l
	case s.logger != nil:
		level = slog.LevelDebug
	}
	if level >= LevelOff {
		return nil, LevelOff, nil
	}
	if s.logger != nil {
		return s.logger, level, nil
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})), level, nil
}

// logs reports whether an entry of this level is written.
func (c *Client) logs(ctx context.Context, level slog.Level) bool {
	return c.logger != nil && level >= c.logLevel && c.logger.Enabled(ctx, level)
}

// log writes an entry with the call's context, when the client logs at that level.
func (c *Client) log(ctx context.Context, level slog.Level, msg string, attrs ...slog.Attr) {
	if c.logs(ctx, level) {
		c.logger.LogAttrs(ctx, level, msg, attrs...)
	}
}

// loggedHeaders is a group of headers for a debug entry: credential headers and the client's secrets redacted.
func (c *Client) loggedHeaders(h http.Header) slog.Attr {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	sort.Strings(names)
	attrs := make([]any, 0, len(names))
	for _, name := range names {
		value := strings.Join(h[name], ", ")
		if secretHeader.MatchString(name) || c.auth.isCredentialHeader(name) {
			value = redactionMark
		} else {
			value = c.redact.text(value)
		}
		attrs = append(attrs, slog.String(name, value))
	}
	return slog.Group("headers", attrs...)
}
