package p2p

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"

	"svc/internal/testenv"
	"svc/p2p/wire"
)

// FuzzNodeForwardStream writes arbitrary bytes on a forward stream of a
// real node: whatever they are, the node answers with well-formed frames or
// ends the stream, frees any session the bytes opened, and keeps serving.
func FuzzNodeForwardStream(f *testing.F) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	path := testenv.Path(f, "models", "stories260K.gguf")
	n, err := NewNode(ctx, NodeConfig{ModelPath: path, First: 0, Last: 3, Threads: 1, IdleTimeout: 5 * time.Second})
	if err != nil {
		f.Fatal(err)
	}
	defer n.Close()
	c, err := NewEndpoint(ctx, EndpointConfig{Bootstrap: n.Addrs()})
	if err != nil {
		f.Fatal(err)
	}
	defer c.Close()

	frames := func(reqs ...*wire.Request) []byte {
		var b bytes.Buffer
		for _, r := range reqs {
			_ = wire.WriteFrame(&b, r, nil)
		}
		return b.Bytes()
	}
	open := &wire.Request{Kind: &wire.Request_Open{Open: &wire.Open{SessionId: "s", ModelDigest: n.Digest(), First: 0, Last: 3, MaxLength: 16}}}
	step := &wire.Request{Kind: &wire.Request_Step{Step: &wire.Step{N: 2, Tokens: []int32{1, 2}}}}
	f.Add(frames(open, step, step))
	f.Add(frames(open, step, &wire.Request{Kind: &wire.Request_Close{Close: &wire.Close{}}}))
	f.Add(frames(step))
	f.Add(frames(open, open))
	f.Add([]byte{0, 0, 0, 3, 0, 0, 0, 0, 0x0a, 0x01, 0x00})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})

	f.Fuzz(func(t *testing.T, data []byte) {
		sctx, scancel := context.WithTimeout(ctx, 10*time.Second)
		defer scancel()
		s, err := c.Host.NewStream(sctx, n.ID(), ForwardProtocol)
		if err != nil {
			t.Fatal(err)
		}
		_ = s.SetDeadline(time.Now().Add(10 * time.Second))
		_, _ = s.Write(data)
		_ = s.CloseWrite()
		for {
			var resp wire.Response
			if _, err := wire.ReadFrame(s, &resp, wire.DefaultMaxPayload); err != nil {
				if err != io.EOF {
					t.Fatalf("node's reply is not a clean frame sequence: %v", err)
				}
				break
			}
		}
		_ = s.Close()
		deadline := time.Now().Add(30 * time.Second) // generous: a loaded machine
		for n.Sessions() != 0 {
			if time.Now().After(deadline) {
				t.Fatalf("%d sessions left open", n.Sessions())
			}
			time.Sleep(time.Millisecond)
		}
	})
}
