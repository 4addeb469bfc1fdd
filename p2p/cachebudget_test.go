package p2p_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/p2p"
	"svc/shards/model"
)

// TestCacheBudget: a KV-cache budget in bytes becomes the positions it
// holds for the node's blocks (keys and values, f16, KVDim wide, per
// block); a budget short of one session of the whole context is refused
// with the size it needs, by CacheTokensFor and by NewNode, and a node
// given one announces the positions it holds.
func TestCacheBudget(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	m, err := model.Open(path, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := m.Config()
	m.Close()
	// stories260K: 4 key/value heads 8 wide, context 2048.
	if per := p2p.CacheBytesPerPosition(c, 2); per != 2*2*32*2 {
		t.Fatalf("per position over 2 blocks: %d", per)
	}
	ctxBytes := p2p.ContextCacheBytes(c, 2)
	if ctxBytes != 256*2048 {
		t.Fatalf("one context over 2 blocks: %d", ctxBytes)
	}
	// Automatic (0): 2GiB, or one whole context where that is more; a
	// budget given stays what it is.
	long := c
	long.Context = 1 << 22
	for _, k := range []struct {
		cfg    model.Config
		blocks int
		budget int64
		want   int64
	}{{c, 2, 0, 2 << 30}, {long, 4, 0, 2 << 30}, {long, 5, 0, 5 << 29}, {long, 5, 1 << 20, 1 << 20}, {c, 2, ctxBytes, ctxBytes}} {
		if got := p2p.SliceCacheBytes(k.cfg, k.blocks, k.budget); got != k.want {
			t.Errorf("slice cache of %d blocks, context %d, budget %d: %d, want %d", k.blocks, k.cfg.Context, k.budget, got, k.want)
		}
		if n, err := p2p.CacheTokensFor(k.cfg, k.blocks, p2p.SliceCacheBytes(k.cfg, k.blocks, 0)); err != nil || n < k.cfg.Context {
			t.Errorf("auto holds %d positions of %d blocks, context %d: %v", n, k.blocks, k.cfg.Context, err)
		}
	}
	if n, err := p2p.CacheTokensFor(c, 2, ctxBytes); err != nil || n != c.Context {
		t.Fatalf("exactly one context: %d, %v", n, err)
	}
	if n, err := p2p.CacheTokensFor(c, 2, 3*ctxBytes+255); err != nil || n != 3*c.Context {
		t.Fatalf("three contexts and change: %d, %v", n, err)
	}
	_, err = p2p.CacheTokensFor(c, 2, ctxBytes-1)
	if !errors.Is(err, p2p.ErrCacheTooSmall) || !strings.Contains(err.Error(), "at least 1MiB") || !strings.Contains(err.Error(), "2047 positions") {
		t.Fatalf("one byte short: %v", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if n, err := p2p.NewNode(ctx, p2p.NodeConfig{ModelPath: path, First: 0, Last: 2, Listen: []string{"/ip4/127.0.0.1/tcp/0"}, CacheBytes: ctxBytes / 2}); !errors.Is(err, p2p.ErrCacheTooSmall) {
		if n != nil {
			_ = n.Close()
		}
		t.Fatalf("half a context: %v", err)
	}
	// Two contexts' budget: two sessions of the whole context open, a
	// third is refused.
	n := swarmtest.Node(t, p2p.NodeConfig{ModelPath: path, First: 0, Last: 2, CacheBytes: 2 * ctxBytes})
	cl := swarmtest.Client(t, n.Addrs())
	for i, id := range []string{"s1", "s2", "s3"} {
		s, err := p2p.OpenSession(ctx, cl.Host, n.ID(), p2p.SessionOptions{ID: id, Digest: n.Digest(), First: 0, Last: 2, MaxLength: c.Context, Dim: c.Dim})
		if i < 2 && err != nil {
			t.Fatalf("session %s: %v", id, err)
		}
		if i == 2 {
			if err == nil {
				_ = s.Close()
				t.Fatal("a third session of the whole context opened on two contexts' budget")
			}
			if !strings.Contains(err.Error(), "cache") {
				t.Fatalf("third session: %v, want a refusal for want of cache", err)
			}
			t.Log(err)
			break
		}
		defer func() { _ = s.Close() }()
	}
}
