package server

import (
	"bufio"
	"errors"
	"testing"

	"github.com/valyala/fasthttp"

	"svc/internal/testenv"
)

// brokenConn is a connection whose every write fails, as one to a client
// that has gone does.
type brokenConn struct{}

func (brokenConn) Write([]byte) (int, error) { return 0, errors.New("connection reset by peer") }

// TestStreamFirstWriteFails: a stream whose very first event cannot be
// written (a chat stream's role chunk, or a completion's first piece) ends
// its generations there, as a later failed write does, instead of computing
// every token for nobody. Off Linux and over TLS a failed write is the only
// sign that the client left.
func TestStreamFirstWriteFails(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	sw := startSwarm(t, path, [][2]int{{0, 5}})
	sw.WaitServed(t, storiesName)
	ts := startServer(t, Config{Backend: sw.Router, DefaultModel: storiesName})
	for _, tc := range []struct {
		what string
		chat bool
		body string
	}{
		{"chat", true, `{"messages":[{"role":"user","content":"Once upon a time"}],"max_tokens":200,"stream":true}`},
		{"completions batch", false, `{"prompt":["Once upon a time","The dog"],"max_tokens":200,"stream":true}`},
	} {
		var rc fasthttp.RequestCtx
		rc.Request.SetBodyString(tc.body)
		jobs, stream, aerr := ts.prepare(t.Context(), &rc, tc.chat)
		if aerr != nil || !stream {
			t.Fatalf("%s: %v (stream %v)", tc.what, aerr, stream)
		}
		r := newRun(t.Context())
		b := ts.startBatch(r, jobs)
		ts.stream(bufio.NewWriter(brokenConn{}), r, b, nil)
		r.end()
		if !errors.Is(r.halted(), errClientGone) {
			t.Errorf("%s: the stream's first write failed, but its generations were not ended (halt cause %v)", tc.what, r.halted())
		}
		sw.WaitNoSessions(t)
	}
}
