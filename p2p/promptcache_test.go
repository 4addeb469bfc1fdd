package p2p_test

import (
	"context"
	"testing"
	"time"

	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/p2p"
	"svc/shards/model"
)

// TestNodePromptCache runs the same prompt through a two-node chain in
// three sessions over real streams: the second session's first step is
// answered from both nodes' prompt caches with the bits the first computed
// (its decode steps too), the third, in another scope, is computed, and
// each node's metrics count one hit. Each reply says how many of its
// positions came from the cache (wire.Response.cached): the whole prompt
// for the second session's first step at both nodes, none otherwise.
func TestNodePromptCache(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	a := swarmtest.Node(t, p2p.NodeConfig{ModelPath: path, First: 0, Last: 2, IdleTimeout: 10 * time.Second})
	b := swarmtest.Node(t, p2p.NodeConfig{ModelPath: path, First: 2, Last: 5, IdleTimeout: 10 * time.Second, Bootstrap: a.Addrs()})
	c := swarmtest.Client(t, a.Addrs())
	m, err := model.Open(path, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	dim := m.Config().Dim

	prompt := []int32{1, 403, 407, 261, 378, 9}
	// run returns the logits of the first step and of three greedy decode
	// steps of a new session on the chain, and each hop's Output.Cached of
	// every step.
	run := func(id string, scope []byte) ([][]float32, [][2]int) {
		t.Helper()
		var hops []*p2p.Session
		for _, n := range []*p2p.Node{a, b} {
			first, last := n.Range()
			s, err := p2p.OpenSession(ctx, c.Host, n.ID(), p2p.SessionOptions{ID: id, Digest: n.Digest(), First: first, Last: last, MaxLength: 16, Dim: dim, PromptCacheScope: scope})
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = s.Close() }()
			hops = append(hops, s)
		}
		var logits [][]float32
		var cached [][2]int
		in := model.Input{Tokens: prompt, Logits: model.LogitsLast, TopK: 2}
		for range 4 {
			h, err := hops[0].Forward(ctx, model.Input{Tokens: in.Tokens})
			if err != nil {
				t.Fatal(err)
			}
			out, err := hops[1].Forward(ctx, model.Input{Hidden: h.Hidden, Logits: in.Logits, TopK: in.TopK})
			if err != nil {
				t.Fatal(err)
			}
			logits = append(logits, out.Logits)
			cached = append(cached, [2]int{h.Cached, out.Cached})
			in.Tokens = []int32{out.Argmax[0]}
		}
		return logits, cached
	}
	// The figures before: a node's startup measurement computes a first
	// step of its own.
	metrics := func(n *p2p.Node) map[string]float64 {
		t.Helper()
		got := map[string]float64{}
		mfs, err := n.Registry().Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, mf := range mfs {
			for _, mt := range mf.GetMetric() {
				got[mf.GetName()] = mt.GetCounter().GetValue() + mt.GetGauge().GetValue()
			}
		}
		return got
	}
	before := []map[string]float64{metrics(a), metrics(b)}
	cold, coldCached := run("cold", nil)
	hit, hitCached := run("hit", nil)
	other, otherCached := run("other-tenant", []byte("tenant-2"))
	for i := range coldCached {
		want := [2]int{}
		if i == 0 {
			want = [2]int{len(prompt), len(prompt)}
		}
		if coldCached[i] != [2]int{} || hitCached[i] != want || otherCached[i] != [2]int{} {
			t.Errorf("step %d: the hops' cached positions are %v (cold), %v (hit), %v (other scope); want none, %v, none",
				i, coldCached[i], hitCached[i], otherCached[i], want)
		}
	}
	for i := range cold {
		for _, got := range [][]float32{hit[i], other[i]} {
			if len(got) != len(cold[i]) || len(got) == 0 {
				t.Fatalf("step %d: %d vs %d logits", i, len(got), len(cold[i]))
			}
			for j := range got {
				if got[j] != cold[i][j] {
					t.Fatalf("step %d: logit %d is %v, computed %v", i, j, got[j], cold[i][j])
				}
			}
		}
	}
	for i, n := range []*p2p.Node{a, b} {
		first, last := n.Range()
		got := metrics(n)
		for k, v := range before[i] {
			got[k] -= v
		}
		want := map[string]float64{"svc_node_prompt_cache_hits_total": 1, "svc_node_prompt_cache_misses_total": 2, "svc_node_prompt_cache_entries": 2}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("node [%d,%d): %s = %v, want %v", first, last, k, got[k], v)
			}
		}
		if got["svc_node_prompt_cache_bytes"] <= 0 {
			t.Errorf("node [%d,%d): svc_node_prompt_cache_bytes = %v", first, last, got["svc_node_prompt_cache_bytes"])
		}
	}
}
