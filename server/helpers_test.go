package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"svc/router"
	"svc/shards/tokenizer"
)

// testServer is a Server listening on 127.0.0.1:0.
type testServer struct {
	*Server
	URL  string
	reg  *prometheus.Registry
	stop func() error
}

func startServer(t *testing.T, cfg Config) *testServer {
	t.Helper()
	reg := prometheus.NewRegistry()
	if cfg.Registerer == nil {
		cfg.Registerer, cfg.Gatherer = reg, reg
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.ShutdownTimeout == 0 {
		cfg.ShutdownTimeout = 5 * time.Second
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- s.Serve(ctx, ln) }()
	stopped := false
	var serveErr error
	stop := func() error {
		if !stopped {
			stopped = true
			cancel()
			select {
			case serveErr = <-errc:
			case <-time.After(20 * time.Second):
				serveErr = errors.New("Serve did not return within 20s of its context ending")
			}
		}
		return serveErr
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return &testServer{Server: s, URL: "http://" + ln.Addr().String(), reg: reg, stop: stop}
}

// inFlight reads the in-flight gauge.
func (ts *testServer) inFlight() float64 {
	var m dto.Metric
	if err := ts.m.inFlight.Write(&m); err != nil {
		panic(err)
	}
	return m.GetGauge().GetValue()
}

// completionText is the text the API must give for generated ids.
func completionText(tok *tokenizer.Tokenizer, ids []int32) string {
	a := newTextAssembler(tok, nil)
	var b strings.Builder
	for _, id := range ids {
		p, _ := a.push(id)
		b.WriteString(p)
	}
	p, _ := a.flush()
	b.WriteString(p)
	return b.String()
}

var httpClient = &http.Client{Timeout: 60 * time.Second}

type response struct {
	Status int
	Header http.Header
	Body   []byte
}

func do(t *testing.T, method, url, contentType string, body []byte) response {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", method, url, err)
	}
	return response{resp.StatusCode, resp.Header, b}
}

func postJSON(t *testing.T, url string, body string) response {
	t.Helper()
	return do(t, http.MethodPost, url, "application/json", []byte(body))
}

// checkError checks SPEC's error shape exactly: one key "error" holding
// exactly message, type and code, all non-empty strings.
func checkError(t *testing.T, what string, r response, status int, code string) errorDetail {
	t.Helper()
	if r.Status != status {
		t.Errorf("%s: status %d, want %d (body %s)", what, r.Status, status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s: Content-Type %q", what, ct)
	}
	var top map[string]map[string]any
	if err := json.Unmarshal(r.Body, &top); err != nil || len(top) != 1 || top["error"] == nil {
		t.Fatalf("%s: body is not SPEC's error shape: %s", what, r.Body)
	}
	e := top["error"]
	if len(e) != 3 {
		t.Errorf("%s: error object has keys %v, want message, type, code", what, e)
	}
	var d errorDetail
	for k, dst := range map[string]*string{"message": &d.Message, "type": &d.Type, "code": &d.Code} {
		s, ok := e[k].(string)
		if !ok || s == "" {
			t.Errorf("%s: error.%s = %v, want a non-empty string", what, k, e[k])
		}
		*dst = s
	}
	if d.Code != code {
		t.Errorf("%s: code %q, want %q (message %q)", what, d.Code, code, d.Message)
	}
	return d
}

// sseEvent is one "data:" payload of a stream.
type sseEvent struct {
	Data string
}

// readSSE reads a whole event stream, checking the framing: every event is
// one "data: ..." line followed by a blank line.
func readSSE(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	expectBlank := false
	for sc.Scan() {
		line := sc.Text()
		if expectBlank {
			if line != "" {
				t.Fatalf("event not followed by a blank line: %q", line)
			}
			expectBlank = false
			continue
		}
		if !strings.HasPrefix(line, "data: ") {
			t.Fatalf("unexpected line in event stream: %q", line)
		}
		out = append(out, sseEvent{Data: strings.TrimPrefix(line, "data: ")})
		expectBlank = true
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading event stream: %v", err)
	}
	if expectBlank {
		t.Fatalf("stream ended without the blank line after its last event")
	}
	return out
}

// streamPost posts a request and returns the stream's events.
func streamPost(t *testing.T, url, body string) (response, []sseEvent) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := response{Status: resp.StatusCode, Header: resp.Header}
	if resp.StatusCode != 200 {
		r.Body, _ = io.ReadAll(resp.Body)
		return r, nil
	}
	return r, readSSE(t, resp.Body)
}

// failingBackend is the real router with a fault injected: the swarm
// cannot easily be made to fail on cue (a hop dying after exactly n
// tokens, or a route that cannot be built while the model is served), so
// these cases wrap the real thing. Everything else goes through unchanged.
type failingBackend struct {
	router.Backend
	// after is how many tokens pass before Generate fails with err
	// (0: it fails before the first token).
	after int
	err   error
}

func (f *failingBackend) Generate(ctx context.Context, req router.GenerateRequest, emit func(router.Token) error) (router.GenerateResult, error) {
	n := 0
	res, err := f.Backend.Generate(ctx, req, func(tk router.Token) error {
		if n == f.after {
			return f.err
		}
		n++
		return emit(tk)
	})
	if err == nil && n <= f.after {
		// The generation ended before the fault point: fail anyway.
		err = f.err
	}
	return res, err
}
