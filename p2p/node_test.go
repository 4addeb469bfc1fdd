package p2p

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"

	"svc/internal/testenv"
	"svc/p2p/wire"
	"svc/shards/model"
)

// startNode runs a node on loopback with short timers and closes it at the
// end of the test.
func startNode(t *testing.T, ctx context.Context, path string, first, last int, boot []string) *Node {
	t.Helper()
	n, err := NewNode(ctx, NodeConfig{
		ModelPath: path, First: first, Last: last, Bootstrap: boot,
		Threads: 1, RecordTTL: 3 * time.Second, RefreshInterval: 500 * time.Millisecond,
		IdleTimeout: 10 * time.Second,
	})
	if err != nil {
		t.Fatalf("start node [%d,%d): %v", first, last, err)
	}
	t.Cleanup(func() {
		if err := n.Close(); err != nil {
			t.Errorf("close node: %v", err)
		}
	})
	return n
}

// client is a bare endpoint to talk to nodes.
func client(t *testing.T, ctx context.Context, boot []string) *Endpoint {
	t.Helper()
	e, err := NewEndpoint(ctx, EndpointConfig{Bootstrap: boot})
	if err != nil {
		t.Fatalf("client endpoint: %v", err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

func waitSessions(t *testing.T, n *Node, want int) {
	t.Helper()
	// Generous: sessions close when the node notices a closed stream,
	// which a loaded machine delays.
	deadline := time.Now().Add(30 * time.Second)
	for n.Sessions() != want {
		if time.Now().After(deadline) {
			t.Fatalf("node has %d sessions open, want %d", n.Sessions(), want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// rawStream opens a forward stream without the client's checks.
func rawStream(t *testing.T, ctx context.Context, c *Endpoint, n *Node) network.Stream {
	t.Helper()
	s, err := c.Host.NewStream(ctx, n.ID(), ForwardProtocol)
	if err != nil {
		t.Fatal(err)
	}
	_ = s.SetDeadline(time.Now().Add(10 * time.Second))
	return s
}

// expectRefusal reads the node's error reply and the end of the stream.
func expectRefusal(t *testing.T, s network.Stream, code wire.Code) {
	t.Helper()
	var resp wire.Response
	if _, err := wire.ReadFrame(s, &resp, 1<<20); err != nil {
		t.Fatalf("no error reply: %v", err)
	}
	if resp.Code != code {
		t.Fatalf("reply code %v (%s), want %v", resp.Code, resp.Message, code)
	}
	var more wire.Response
	if _, err := wire.ReadFrame(s, &more, 1<<20); !errors.Is(err, io.EOF) {
		t.Fatalf("stream not closed after the refusal: %v", err)
	}
}

func openReq(n *Node, id string, first, last int) *wire.Request {
	return &wire.Request{Kind: &wire.Request_Open{Open: &wire.Open{SessionId: id, ModelDigest: n.Digest(), First: uint32(first), Last: uint32(last), MaxLength: 32}}}
}

func TestNodeRefusesMalformedFrames(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	n := startNode(t, ctx, path, 2, 5, nil)
	c := client(t, ctx, n.Addrs())

	raw := func(b []byte, code wire.Code) {
		t.Helper()
		s := rawStream(t, ctx, c, n)
		if _, err := s.Write(b); err != nil {
			t.Fatal(err)
		}
		expectRefusal(t, s, code)
	}
	hdr := func(cl, pl uint32) []byte {
		b := make([]byte, 8)
		binary.BigEndian.PutUint32(b, cl)
		binary.BigEndian.PutUint32(b[4:], pl)
		return b
	}
	// Lengths beyond the bounds are refused before anything is read.
	raw(hdr(wire.MaxControl+1, 0), wire.Code_BAD_REQUEST)
	raw(hdr(4, 1<<30), wire.Code_BAD_REQUEST)
	// Garbage where protobuf should be.
	raw(append(hdr(4, 0), 0xff, 0xff, 0xff, 0xff), wire.Code_BAD_REQUEST)
	// An empty request has no kind.
	raw(hdr(0, 0), wire.Code_BAD_REQUEST)

	frame := func(reqs ...*wire.Request) []byte {
		var b sliceWriter
		for _, r := range reqs {
			if err := wire.WriteFrame(&b, r, nil); err != nil {
				t.Fatal(err)
			}
		}
		return b
	}
	step := func(st *wire.Step) *wire.Request { return &wire.Request{Kind: &wire.Request_Step{Step: st}} }
	// Step before open.
	raw(frame(step(&wire.Step{N: 1, Tokens: []int32{1}})), wire.Code_BAD_REQUEST)
	// Wrong digest, wrong range.
	bad := openReq(n, "x", 2, 5)
	bad.GetOpen().ModelDigest = "beef"
	raw(frame(bad), wire.Code_UNKNOWN_MODEL)
	raw(frame(openReq(n, "x", 0, 5)), wire.Code_WRONG_RANGE)
	scoped := openReq(n, "x", 2, 5)
	scoped.GetOpen().PromptCacheScope = make([]byte, 257)
	raw(frame(scoped), wire.Code_BAD_REQUEST)
	// Token ids to a hop that takes hidden states.
	okResp := func(s network.Stream) {
		var resp wire.Response
		if _, err := wire.ReadFrame(s, &resp, 1<<20); err != nil || resp.Code != wire.Code_OK {
			t.Fatalf("open: %v %v %s", err, resp.Code, resp.Message)
		}
	}
	s := rawStream(t, ctx, c, n)
	if _, err := s.Write(frame(openReq(n, "a", 2, 5), step(&wire.Step{N: 1, Tokens: []int32{1}}))); err != nil {
		t.Fatal(err)
	}
	okResp(s)
	expectRefusal(t, s, wire.Code_BAD_REQUEST)
	// Hidden states of the wrong size, and a payload larger than the
	// session can ever need.
	s = rawStream(t, ctx, c, n)
	var b sliceWriter
	_ = wire.WriteFrame(&b, openReq(n, "b", 2, 5), nil)
	_ = wire.WriteFrame(&b, step(&wire.Step{N: 1, Payload: wire.Payload_PAYLOAD_HIDDEN_F32}), make([]byte, 12))
	if _, err := s.Write(b); err != nil {
		t.Fatal(err)
	}
	okResp(s)
	expectRefusal(t, s, wire.Code_BAD_REQUEST)
	s = rawStream(t, ctx, c, n)
	b = nil
	_ = wire.WriteFrame(&b, openReq(n, "c", 2, 5), nil)
	b = append(b, hdr(2, 1<<24)...)
	if _, err := s.Write(b); err != nil {
		t.Fatal(err)
	}
	okResp(s)
	expectRefusal(t, s, wire.Code_BAD_REQUEST)
	// NaN hidden states are refused by the shard.
	s = rawStream(t, ctx, c, n)
	b = nil
	_ = wire.WriteFrame(&b, openReq(n, "d", 2, 5), nil)
	nan := make([]float32, 64)
	for i := range nan {
		nan[i] = float32(nanValue())
	}
	_ = wire.WriteFrame(&b, step(&wire.Step{N: 1, Payload: wire.Payload_PAYLOAD_HIDDEN_F32}), wire.EncodeF32(nan))
	if _, err := s.Write(b); err != nil {
		t.Fatal(err)
	}
	okResp(s)
	expectRefusal(t, s, wire.Code_BAD_REQUEST)
	// A stream cut mid-frame or reset closes its session.
	s = rawStream(t, ctx, c, n)
	b = nil
	_ = wire.WriteFrame(&b, openReq(n, "e", 2, 5), nil)
	if _, err := s.Write(b); err != nil {
		t.Fatal(err)
	}
	okResp(s)
	waitSessions(t, n, 1)
	if _, err := s.Write(hdr(10, 100)[:6]); err != nil {
		t.Fatal(err)
	}
	_ = s.Reset()
	waitSessions(t, n, 0)
	s = rawStream(t, ctx, c, n)
	if _, err := s.Write(frame(openReq(n, "f", 2, 5))); err != nil {
		t.Fatal(err)
	}
	okResp(s)
	waitSessions(t, n, 1)
	_ = s.CloseWrite()
	waitSessions(t, n, 0)

	// After all that the node still serves.
	ss, err := OpenSession(ctx, c.Host, n.ID(), SessionOptions{ID: "g", Digest: n.Digest(), First: 2, Last: 5, MaxLength: 8, Dim: 64})
	if err != nil {
		t.Fatal(err)
	}
	h := make([]float32, 64)
	for i := range h {
		h[i] = 0.01 * float32(i%7)
	}
	out, err := ss.Forward(ctx, model.Input{Hidden: h, Logits: model.LogitsLast, OmitLogits: true})
	if err != nil || len(out.Argmax) != 1 {
		t.Fatalf("forward after refusals: %v %+v", err, out)
	}
	if err := ss.Close(); err != nil {
		t.Fatal(err)
	}
	waitSessions(t, n, 0)
}

type sliceWriter []byte

func (w *sliceWriter) Write(b []byte) (int, error) { *w = append(*w, b...); return len(b), nil }

func nanValue() float64 { var z float64; return z / z }
