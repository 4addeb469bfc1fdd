package p2p_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/p2p"
	"svc/p2p/wire"
	"svc/shards/model"
)

// The tests of this file use only the package's public API, on nodes from
// the shared in-process kit (internal/swarmtest).

func TestNodeForwardMatchesLocalShard(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	n := swarmtest.Node(t, p2p.NodeConfig{ModelPath: path, First: 0, Last: 5, IdleTimeout: 10 * time.Second})
	c := swarmtest.Client(t, n.Addrs())

	m, err := model.Open(path, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	sh, err := m.NewShard(0, m.Config().Blocks, model.ShardOptions{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	if err := sh.OpenSession("local", 64); err != nil {
		t.Fatal(err)
	}
	prompt := []int32{1, 403, 407, 261, 378}
	want, err := model.Generate(ctx, []model.Hop{model.SessionHop{Shard: sh, ID: "local"}}, prompt, model.GenOptions{MaxTokens: 20, TopK: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}

	s, err := p2p.OpenSession(ctx, c.Host, n.ID(), p2p.SessionOptions{ID: "remote", Digest: n.Digest(), First: 0, Last: 5, MaxLength: 64, Dim: m.Config().Dim})
	if err != nil {
		t.Fatal(err)
	}
	swarmtest.WaitSessions(t, 1, n)
	got, err := model.Generate(ctx, []model.Hop{s}, prompt, model.GenOptions{MaxTokens: 20, TopK: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Completion, want.Completion) {
		t.Fatalf("remote completion %v, local %v", got.Completion, want.Completion)
	}
	t.Logf("completion %v", got.Completion)
	for i := range want.Top {
		if !slices.Equal(got.Top[i], want.Top[i]) {
			t.Fatalf("step %d: remote top %v, local %v", i, got.Top[i], want.Top[i])
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	swarmtest.WaitSessions(t, 0, n)

	// The meta protocol gives the header, checked against the digest.
	f, err := p2p.FetchHeader(ctx, c.Host, n.ID(), n.Digest())
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := f.Architecture(); a != "llama" {
		t.Fatalf("fetched header has architecture %q", a)
	}
	if _, err := p2p.FetchHeader(ctx, c.Host, n.ID(), "00"+n.Digest()[2:]); err == nil {
		t.Fatal("meta request for an unknown digest succeeded")
	}
}

func TestDeadNodeVanishesWithinTTL(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	a := swarmtest.Node(t, p2p.NodeConfig{ModelPath: path, First: 0, Last: 2, IdleTimeout: 10 * time.Second})
	// b chooses its blocks: the range nobody holds.
	b := swarmtest.Node(t, p2p.NodeConfig{ModelPath: path, Bootstrap: a.Addrs()})
	if f, l := b.Range(); f != 2 || l != 5 {
		t.Fatalf("automatic blocks [%d,%d), want [2,5)", f, l)
	}
	c := swarmtest.Client(t, a.Addrs())
	has := func(id peer.ID) bool {
		ms, err := c.Members(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			if m.ID == id && !m.Withdrawn {
				return true
			}
		}
		return false
	}
	// A search may miss a node on a loaded machine (its phases have time
	// budgets); it is found by a later one.
	eventually := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(swarmtest.DefaultWaitTime)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatal(what)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	eventually("b never appeared in the swarm view", func() bool { return has(b.ID()) })
	m, err := c.Lookup(ctx, b.ID())
	if err != nil || m.Record.Models[0].State != wire.ServeState_STATE_ONLINE {
		t.Fatalf("lookup of b: %v %v", m, err)
	}
	b.Crash()
	// Crash returns once b stopped signing records, so every record of b,
	// in the DHT or anywhere, expires by then: from that moment on, b is
	// out of the view however late this goroutine runs.
	expired := time.Now().Add(swarmtest.RecordTTL + time.Millisecond)
	select {
	case <-time.After(time.Until(expired)):
	case <-ctx.Done():
		t.Fatal(ctx.Err())
	}
	if m, lerr := c.Lookup(ctx, b.ID()); lerr == nil {
		t.Fatalf("crashed node's record still valid a TTL after it stopped: %+v", m)
	}
	if has(b.ID()) {
		t.Fatal("crashed node still in the view a TTL after it stopped")
	}
	eventually("the live node vanished too", func() bool { return has(a.ID()) })
}

// TestNodeBatchesConcurrentStreams runs several sessions through a node at
// once over libp2p streams: every completion equals the same prompt
// generated alone on a local shard, the node reports its batch sizes on its
// registry, and a stream that is reset midway breaks nothing for the others.
func TestNodeBatchesConcurrentStreams(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	n := swarmtest.Node(t, p2p.NodeConfig{ModelPath: path, First: 0, Last: 5, IdleTimeout: 10 * time.Second})
	c := swarmtest.Client(t, n.Addrs())
	m, err := model.Open(path, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	sh, err := m.NewShard(0, m.Config().Blocks, model.ShardOptions{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()

	const sessions, tokens = 6, 24
	prompts := make([][]int32, sessions)
	want := make([]*model.Result, sessions)
	for i := range prompts {
		for j := range 2 + 3*i {
			prompts[i] = append(prompts[i], int32(1+(j*37+i*11)%400))
		}
		id := fmt.Sprint("local", i)
		if err := sh.OpenSession(id, 64); err != nil {
			t.Fatal(err)
		}
		if want[i], err = model.Generate(ctx, []model.Hop{model.SessionHop{Shard: sh, ID: id}}, prompts[i], model.GenOptions{MaxTokens: tokens, TopK: 2}, nil); err != nil {
			t.Fatal(err)
		}
	}
	open := func(id string) *p2p.Session {
		s, err := p2p.OpenSession(ctx, c.Host, n.ID(), p2p.SessionOptions{ID: id, Digest: n.Digest(), First: 0, Last: 5, MaxLength: 64, Dim: m.Config().Dim})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// A stream that is reset while others run.
	victim := open("victim")
	var wg sync.WaitGroup
	errs := make([]error, sessions)
	for i := range sessions {
		s := open(fmt.Sprint("remote", i))
		wg.Go(func() {
			defer func() { _ = s.Close() }()
			got, err := model.Generate(ctx, []model.Hop{s}, prompts[i], model.GenOptions{MaxTokens: tokens, TopK: 2}, nil)
			switch {
			case err != nil:
				errs[i] = err
			case !slices.Equal(got.Completion, want[i].Completion) || fmt.Sprint(got.Top) != fmt.Sprint(want[i].Top):
				errs[i] = fmt.Errorf("session %d: remote completion %v, alone %v", i, got.Completion, want[i].Completion)
			}
		})
	}
	var victimErr error
	wg.Go(func() {
		if _, err := victim.Forward(ctx, model.Input{Tokens: []int32{1, 2, 3}, Logits: model.LogitsLast}); err != nil {
			victimErr = fmt.Errorf("victim's first step: %w", err)
		}
		victim.Reset()
	})
	wg.Wait()
	if err := errors.Join(append(errs, victimErr)...); err != nil {
		t.Fatal(err)
	}
	swarmtest.WaitSessions(t, 0, n)

	mfs, err := n.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	var batches, steps float64
	for _, mf := range mfs {
		if mf.GetName() == "svc_node_batch_sessions" {
			h := mf.GetMetric()[0].GetHistogram()
			batches, steps = float64(h.GetSampleCount()), h.GetSampleSum()
		}
	}
	// Every step of every session went through a batch: a prompt and
	// tokens-1 decode steps each, the victim's one, and measure's none.
	if total := float64(sessions*tokens + 1); steps != total || batches == 0 || batches > total {
		t.Fatalf("svc_node_batch_sessions: %v batches of %v steps in all, want %v steps", batches, steps, total)
	}
	t.Logf("%v steps in %v batches (%.2f per batch)", steps, batches, steps/batches)
	if !strings.Contains(fmt.Sprint(mfs), "svc_node_queue_seconds") {
		t.Fatal("no svc_node_queue_seconds metric")
	}
}

// TestNodeRepliesWithBatch: a node's reply says how many steps it computed
// in one batch with the step, so that the router can announce the next
// hop's round (wire.Response.batch): a lone step says 1, and two steps
// sent as a round of two say 2 once the node has batched them (the node
// waits at most its gather bound for a round, so a loaded machine may
// split a try: a few tries are allowed).
func TestNodeRepliesWithBatch(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	n := swarmtest.Node(t, p2p.NodeConfig{ModelPath: path, First: 0, Last: 5, IdleTimeout: 10 * time.Second})
	c := swarmtest.Client(t, n.Addrs())
	dim := 64
	var ss [2]*p2p.Session
	for i := range ss {
		s, err := p2p.OpenSession(ctx, c.Host, n.ID(), p2p.SessionOptions{ID: fmt.Sprint("b", i), Digest: n.Digest(), First: 0, Last: 5, MaxLength: 64, Dim: dim})
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = s.Close() }()
		ss[i] = s
		out, err := s.Forward(ctx, model.Input{Tokens: []int32{1, int32(5 + i)}, Logits: model.LogitsLast})
		if err != nil {
			t.Fatal(err)
		}
		if out.Batch != 1 {
			t.Fatalf("lone prompt step: batch %d, want 1", out.Batch)
		}
	}
	for try := range 10 {
		var got [2]int
		var errs [2]error
		var wg sync.WaitGroup
		for i, s := range ss {
			wg.Go(func() {
				out, err := s.ForwardRound(ctx, model.Input{Tokens: []int32{int32(7 + try)}, Logits: model.LogitsLast}, 2)
				if err == nil {
					got[i] = out.Batch
				}
				errs[i] = err
			})
		}
		wg.Wait()
		if err := errors.Join(errs[:]...); err != nil {
			t.Fatal(err)
		}
		if got[0] != got[1] || got[0] < 1 || got[0] > 2 {
			t.Fatalf("try %d: batches %v, want both 1 or both 2", try, got)
		}
		if got[0] == 2 {
			return
		}
		t.Logf("try %d: the round was split", try)
	}
	t.Fatal("no round of two was computed as one batch in 10 tries")
}
