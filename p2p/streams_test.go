package p2p

import (
	"context"
	"encoding/binary"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"

	"svc/internal/testenv"
	"svc/p2p/wire"
	"svc/shards/model"
)

// generateThrough runs a short generation on n, which must hold the whole
// model, and closes its session.
func generateThrough(t *testing.T, ctx context.Context, c *Endpoint, n *Node, dim int) {
	t.Helper()
	first, last := n.Range()
	s, err := OpenSession(ctx, c.Host, n.ID(), SessionOptions{ID: "after", Digest: n.Digest(), First: first, Last: last, MaxLength: 16, Dim: dim})
	if err != nil {
		t.Fatalf("open a session after the flood: %v", err)
	}
	res, err := model.Generate(ctx, []model.Hop{s}, []int32{1, 403, 407}, model.GenOptions{MaxTokens: 4}, nil)
	if err != nil || len(res.Completion) != 4 {
		t.Fatalf("generation after the flood: %v (%d tokens)", err, len(res.Completion))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// serviceMemory is what n's forward service holds now.
func serviceMemory(t *testing.T, n *Node) int64 {
	var mem int64
	err := n.ep.Host.Network().ResourceManager().ViewService(ServiceForward, func(s network.ServiceScope) error {
		mem = s.Stat().Memory
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return mem
}

// TestStreamMemoryScope floods a node with 1,000 concurrent forward streams
// that each declare a 4 MiB control message and send 32 KiB of it: the
// forward service's memory never exceeds its 8 MiB, the streams that do
// not fit are reset at once, the others at the first-frame deadline, and
// the node serves a generation afterwards.
func TestStreamMemoryScope(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	const limit = 8 << 20
	n, err := NewNode(ctx, NodeConfig{ModelPath: path, First: 0, Last: 5, Threads: 1, IdleTimeout: 30 * time.Second, StreamMemory: limit})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = n.Close() })
	c := client(t, ctx, n.Addrs())

	var peak atomic.Int64
	sampled := make(chan struct{})
	stopSampling := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if m := serviceMemory(t, n); m > peak.Load() {
				peak.Store(m)
			}
			select {
			case <-stopSampling:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()

	const streams = 1000
	msg := make([]byte, 8+32<<10)
	binary.BigEndian.PutUint32(msg, wire.MaxControl)
	var ended, opened atomic.Int64
	var wg sync.WaitGroup
	t0 := time.Now()
	for range streams {
		wg.Go(func() {
			s, err := c.Host.NewStream(ctx, n.ID(), ForwardProtocol)
			if err != nil {
				t.Errorf("open stream: %v", err)
				return
			}
			opened.Add(1)
			_ = s.SetDeadline(time.Now().Add(60 * time.Second))
			_, _ = s.Write(msg)
			// The node never answers half a frame: the read ends when it
			// resets the stream (out of memory, or first-frame deadline).
			var b [1]byte
			if _, err := s.Read(b[:]); err != nil {
				ended.Add(1)
			}
			_ = s.Reset()
		})
	}
	wg.Wait()
	took := time.Since(t0)
	close(stopSampling)
	<-sampled
	if opened.Load() != streams || ended.Load() != streams {
		t.Fatalf("%d streams opened, %d ended by the node, want %d", opened.Load(), ended.Load(), streams)
	}
	t.Logf("1,000 streams ended in %s; forward service memory peaked at %.1f MiB (limit %d MiB)", took.Round(time.Millisecond), float64(peak.Load())/(1<<20), limit>>20)
	if peak.Load() > limit {
		t.Fatalf("forward service held %d bytes, above its limit of %d", peak.Load(), limit)
	}
	if peak.Load() < limit/2 {
		t.Fatalf("forward service memory peaked at %d bytes: the flood was not accounted to it", peak.Load())
	}
	deadline := time.Now().Add(10 * time.Second)
	for serviceMemory(t, n) != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("forward service still holds %d bytes after every stream ended", serviceMemory(t, n))
		}
		time.Sleep(10 * time.Millisecond)
	}
	generateThrough(t, ctx, c, n, n.dim)
}

// TestHeaderOnlyStreams opens 500 forward streams that each send only a
// frame header declaring a 4 MiB control message: the node holds memory
// for what arrived (a first chunk each), not for what was declared, resets
// every such stream at the first-frame deadline, and still serves a
// generation.
func TestHeaderOnlyStreams(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	n, err := NewNode(ctx, NodeConfig{ModelPath: path, First: 0, Last: 5, Threads: 1, IdleTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = n.Close() })
	c := client(t, ctx, n.Addrs())
	generateThrough(t, ctx, c, n, n.dim)

	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	const streams = 500
	var hdr [8]byte
	binary.BigEndian.PutUint32(hdr[:], wire.MaxControl)
	ends := make(chan time.Duration, streams)
	var wg sync.WaitGroup
	t0 := time.Now()
	for range streams {
		wg.Go(func() {
			s, err := c.Host.NewStream(ctx, n.ID(), ForwardProtocol)
			if err != nil {
				t.Errorf("open stream: %v", err)
				return
			}
			defer s.Reset()
			sent := time.Now()
			_ = s.SetDeadline(time.Now().Add(60 * time.Second))
			if _, err := s.Write(hdr[:]); err != nil {
				t.Errorf("write header: %v", err)
				return
			}
			var b [1]byte
			if _, err := s.Read(b[:]); err == nil {
				t.Errorf("the node answered half a frame")
				return
			}
			ends <- time.Since(sent)
		})
	}
	// Wait until the node has read every header and holds their first
	// chunks, then weigh the heap.
	for serviceMemory(t, n) < streams*16<<10 && time.Since(t0) < 8*time.Second {
		time.Sleep(20 * time.Millisecond)
	}
	held, grown := serviceMemory(t, n), int64(heap())-int64(before)
	wg.Wait()
	close(ends)
	var longest time.Duration
	count := 0
	for d := range ends {
		count++
		longest = max(longest, d)
	}
	t.Logf("500 header-only streams: forward service held %.1f MiB, heap grew %.1f MiB (declared: %d MiB); all reset within %s",
		float64(held)/(1<<20), float64(grown)/(1<<20), streams*4, longest.Round(time.Millisecond))
	if count != streams {
		t.Fatalf("%d of %d streams were ended by the node", count, streams)
	}
	if grown > 64<<20 {
		t.Errorf("heap grew by %d bytes for %d header-only streams", grown, streams)
	}
	if longest > firstFrameTimeout+20*time.Second {
		t.Errorf("a header-only stream lived %s, its deadline is %s", longest, firstFrameTimeout)
	}
	generateThrough(t, ctx, c, n, n.dim)
}
