package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"svc/router"
)

// Every code's message in the managed variant ends with the reference and
// names nothing of the deployment, whatever the call site wrote; the local
// variant shows the message as written.
func TestPublicMessage(t *testing.T) {
	const ref = "chatcmpl-abcdefghijklmnopqrstuvwx"
	codes := []string{codeModelRequired, codeModelIncomplete, codeRouteUnavailable, codeModelNotFound,
		codeInvalidRequest, codeEmptyMessages, codeNotFound, codeMethodNotAllowed, codeServerError,
		codeUnsupportedParameter, codeInvalidAPIKey, codeAPIKeyExpired, codeModelNotPermitted,
		codeLicenceExpired, codeRateLimitExceeded, codeCapacity, codeGenerationInterrupted,
		codeModelLoading, codeNodeUnavailable, codeModelUnavailable, codeCoordinatorUnavailable, codeTimeout}
	leaks := []string{
		"peer 12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN refused",
		"dial /ip4/10.0.0.7/tcp/4001 failed",
		"10.1.2.3 did not answer",
		"gpu7.example.net:9000 refused",
		"[::1]:8443 refused",
		"run svc-coordinator model serve stories260K",
		"machine m1 is away",
		"connect to localhost failed",
	}
	for _, code := range codes {
		for _, text := range append([]string{"", "model \"x\" is fine"}, leaks...) {
			e := &apiError{Status: 503, Code: code, Message: text}
			got := e.publicMessage(ref, true)
			if !strings.HasSuffix(got, " Reference: "+ref) {
				t.Errorf("%s %q: managed message %q does not end with the reference", code, text, got)
			}
			body := strings.TrimSuffix(got, " Reference: "+ref)
			if revealing(body) {
				t.Errorf("%s %q: managed message %q reveals the deployment", code, text, got)
			}
			if text == "model \"x\" is fine" && !strings.HasPrefix(got, text) {
				t.Errorf("%s: a harmless message was replaced: %q", code, got)
			}
			if local := e.publicMessage(ref, false); local != text {
				t.Errorf("%s: local message %q, want %q", code, local, text)
			}
		}
	}
	for _, text := range leaks {
		if !revealing(text) {
			t.Errorf("revealing(%q) = false", text)
		}
	}
	// Dates as the API writes them, numbers, field names: not revealing.
	for _, text := range []string{"The API key expired on 2026-11-28 00:30:00 UTC",
		"max_tokens is 5000, but the model's context is 2048 tokens", "prompt[0]: token id 99 is out of range",
		"messages[1].content is required", "model \"llama-3.2-1b\" is not served"} {
		if revealing(text) {
			t.Errorf("revealing(%q) = true", text)
		}
	}
}

// The router's error is the cause: it reaches the log under the reference,
// never the body.
func TestErrorCauseStaysInTheLog(t *testing.T) {
	var logBuf bytes.Buffer
	s := &Server{log: slog.New(slog.NewJSONHandler(&logBuf, nil))}
	cause := fmt.Errorf("hop 2 of 3: peer 12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN at /ip4/10.0.0.7/tcp/4001: %w", router.ErrRouteUnavailable)
	for _, managed := range []bool{false, true} {
		logBuf.Reset()
		aerr := backendError("stories260K", cause)
		const ref = "chatcmpl-0123456789abcdefghijklmn"
		body := aerr.body(ref, managed)
		if bytes.Contains(body, []byte("12D3KooW")) || bytes.Contains(body, []byte("10.0.0.7")) {
			t.Errorf("managed=%v: body names the peer: %s", managed, body)
		}
		var eb errorBody
		if err := json.Unmarshal(body, &eb); err != nil || eb.Error.Code != codeRouteUnavailable || !strings.Contains(eb.Error.Message, "stories260K") {
			t.Errorf("managed=%v: body %s (%v)", managed, body, err)
		}
		s.logRefusal(ref, "POST", "/v1/chat/completions", aerr)
		line := logBuf.String()
		if !strings.Contains(line, ref) || !strings.Contains(line, "12D3KooW") {
			t.Errorf("managed=%v: the log line lacks the reference or the cause: %s", managed, line)
		}
		if !errors.Is(aerr, router.ErrRouteUnavailable) {
			t.Errorf("managed=%v: the cause is not kept: %v", managed, aerr)
		}
	}
	// A refusal of a field this server cannot honour names the field, and
	// is unsupported_parameter in the managed variant only.
	u := unsupportedf("logprobs", "logprobs is not supported by this server")
	if u.code(false) != codeInvalidRequest || u.code(true) != codeUnsupportedParameter || u.Param != "logprobs" {
		t.Errorf("unsupported: %q / %q / %q", u.code(false), u.code(true), u.Param)
	}
}
