package p2p

import (
	"context"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/protocol"

	"svc/internal/testenv"
	"svc/shards/model"
	"svc/shards/slice"
)

// generateRemote runs a greedy generation through remote sessions, one per
// range, on host peer of the given endpoint.
func generateRemote(t *testing.T, ctx context.Context, c *Endpoint, hosts []*Node, digest string, dim int, prompt []int32) []int32 {
	t.Helper()
	var hops []model.Hop
	for _, n := range hosts {
		f, l := n.Range()
		s, err := OpenSession(ctx, c.Host, n.ID(), SessionOptions{ID: "g-" + n.Name(), Digest: digest, First: f, Last: l, MaxLength: 64, Dim: dim})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		hops = append(hops, s)
	}
	res, err := model.Generate(ctx, hops, prompt, model.GenOptions{MaxTokens: 12}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Completion
}

func localGenerate(t *testing.T, path string, prompt []int32) ([]int32, *model.Model) {
	t.Helper()
	m, err := model.Open(path, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	ch, err := m.NewChain([][2]int{{0, m.Config().Blocks}}, model.ShardOptions{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ch.Close()
	hops, err := ch.Open("l", 64)
	if err != nil {
		t.Fatal(err)
	}
	res, err := model.Generate(t.Context(), hops, prompt, model.GenOptions{MaxTokens: 12}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Completion, m
}

// TestSharedHost: two models, one of them from sparse slices of two ranges,
// served by three nodes on one host and peer id; each generation equals
// the local one, the host's record lists all three, and a node that
// closes leaves the others serving.
func TestSharedHost(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	stories := testenv.Path(t, "models", "stories260K.gguf")
	mini := testenv.Path(t, "models", "mini-llama-q4_0.gguf")
	prompt := []int32{1, 403, 407, 261, 378}
	wantS, ms := localGenerate(t, stories, prompt)
	wantM, mm := localGenerate(t, mini, prompt)

	ep := client(t, ctx, nil)
	// The key would be the agent's; Server mode does not matter here.
	cfg := func(path string, f, l int) NodeConfig {
		return NodeConfig{ModelPath: path, First: f, Last: l, Endpoint: ep, Threads: 1,
			RecordTTL: 3 * time.Second, RefreshInterval: 500 * time.Millisecond, IdleTimeout: 10 * time.Second}
	}
	// stories260K as two sparse slices.
	man, err := slice.Build(stories)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.Open(stories)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var parts []*Node
	for _, r := range [][2]int{{0, 2}, {2, man.Blocks()}} {
		ts, _ := man.Need(r[0], r[1])
		sp := filepath.Join(t.TempDir(), "s.gguf")
		if _, err := slice.Write(ctx, sp, man, ts, 0, func(ctx context.Context, tn slice.Tensor, w io.Writer) error {
			_, err := slice.ReadTensor(src, man, tn, w)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		c := cfg(sp, r[0], r[1])
		c.Name = "stories260K"
		c.Identity = &ModelIdentity{Header: man.Header, Samples: man.Samples}
		n, err := NewNode(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = n.Close() })
		parts = append(parts, n)
	}
	nm, err := NewNode(ctx, cfg(mini, 0, mm.Config().Blocks))
	if err != nil {
		t.Fatal(err)
	}
	if nm.ID() != parts[0].ID() || parts[0].Digest() != ms.Digest() {
		t.Fatalf("nodes on %s and %s; digest %s, want %s", nm.ID(), parts[0].ID(), parts[0].Digest(), ms.Digest())
	}
	if _, err := NewNode(ctx, cfg(mini, 0, mm.Config().Blocks)); err == nil {
		t.Fatal("the same blocks twice on one host accepted")
	}

	c := client(t, ctx, nil)
	c.Host.Peerstore().AddAddrs(ep.ID(), ep.Host.Addrs(), time.Hour)
	if got := generateRemote(t, ctx, c, parts, ms.Digest(), ms.Config().Dim, prompt); !slices.Equal(got, wantS) {
		t.Fatalf("stories260K from slices on a shared host: %v, local %v", got, wantS)
	}
	if got := generateRemote(t, ctx, c, []*Node{nm}, mm.Digest(), mm.Config().Dim, prompt); !slices.Equal(got, wantM) {
		t.Fatalf("mini-llama on a shared host: %v, local %v", got, wantM)
	}
	for _, d := range []string{ms.Digest(), mm.Digest()} {
		if _, err := FetchHeader(ctx, c.Host, ep.ID(), d); err != nil {
			t.Fatalf("header of %s: %v", d, err)
		}
	}
	rec, err := c.LookupDirect(ctx, ep.ID())
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Record.Models) != 3 {
		t.Fatalf("the host's record lists %d models, want 3", len(rec.Record.Models))
	}
	if err := nm.Close(); err != nil {
		t.Fatal(err)
	}
	if got := generateRemote(t, ctx, c, parts, ms.Digest(), ms.Config().Dim, prompt); !slices.Equal(got, wantS) {
		t.Fatalf("after another node closed: %v, local %v", got, wantS)
	}
	if _, err := OpenSession(ctx, c.Host, ep.ID(), SessionOptions{ID: "x", Digest: mm.Digest(), First: 0, Last: mm.Config().Blocks, MaxLength: 8, Dim: mm.Config().Dim}); err == nil {
		t.Fatal("a closed node's model still opens sessions")
	}
	rec, err = c.LookupDirect(ctx, ep.ID())
	if err != nil || rec.Withdrawn || len(rec.Record.Models) != 2 {
		t.Fatalf("after a close the record is %+v, %v", rec, err)
	}
}

// protocolMemory is what the streams of protocol p hold now on e.
func protocolMemory(t *testing.T, e *Endpoint, p protocol.ID) int64 {
	var mem int64
	err := e.Host.Network().ResourceManager().ViewProtocol(p, func(s network.ProtocolScope) error {
		mem = s.Stat().Memory
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return mem
}

// TestSharedDispatchMemory: the first frames a shared endpoint reads to
// dispatch streams are charged to the streams' scopes while they arrive
// and given back when the streams end.
func TestSharedDispatchMemory(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	ep := client(t, ctx, nil)
	n, err := NewNode(ctx, NodeConfig{ModelPath: testenv.Path(t, "models", "stories260K.gguf"), First: 0, Last: 5,
		Endpoint: ep, Threads: 1, IdleTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = n.Close() })
	c := client(t, ctx, nil)
	c.Host.Peerstore().AddAddrs(ep.ID(), ep.Host.Addrs(), time.Hour)

	// Each stream declares the largest first frame the endpoint accepts
	// and sends half of it, so the endpoint waits for the rest.
	const streams = 50
	size := 8 + maxDispatchControl
	msg := make([]byte, 8+maxDispatchControl/2)
	binary.BigEndian.PutUint32(msg, maxDispatchControl)
	var open []network.Stream
	defer func() {
		for _, s := range open {
			_ = s.Reset()
		}
	}()
	for range streams {
		s, err := c.Host.NewStream(ctx, ep.ID(), ForwardProtocol)
		if err != nil {
			t.Fatalf("open stream: %v", err)
		}
		open = append(open, s)
		if _, err := s.Write(msg); err != nil {
			t.Fatalf("write half a first frame: %v", err)
		}
	}
	want := int64(streams * size)
	for protocolMemory(t, ep, ForwardProtocol) < want {
		if ctx.Err() != nil {
			t.Fatalf("the endpoint holds %d bytes for %d half-sent first frames, want at least %d", protocolMemory(t, ep, ForwardProtocol), streams, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, s := range open {
		_ = s.Reset()
	}
	open = nil
	for protocolMemory(t, ep, ForwardProtocol) != 0 {
		if ctx.Err() != nil {
			t.Fatalf("the endpoint still holds %d bytes after every stream ended", protocolMemory(t, ep, ForwardProtocol))
		}
		time.Sleep(10 * time.Millisecond)
	}
	generateThrough(t, ctx, c, n, n.dim)
}
