package server

import (
	"context"
	"sync"
	"testing"
	"time"

	"svc/internal/testenv"
	"svc/p2p"
	"svc/router"
)

// scopeBackend is the real router, noting the prompt cache scope of each
// request it is given.
type scopeBackend struct {
	router.Backend
	mu     sync.Mutex
	scopes []string
}

func (b *scopeBackend) Generate(ctx context.Context, req router.GenerateRequest, emit func(int32) error) (router.GenerateResult, error) {
	b.mu.Lock()
	b.scopes = append(b.scopes, string(req.PromptCacheScope))
	b.mu.Unlock()
	return b.Backend.Generate(ctx, req, emit)
}

// TestManagedPromptCacheScope sends one chat three times over a real swarm,
// twice with one API key and once with another: each key is its own
// prompt cache scope, so the nodes answer the repeated prompt from their
// cache for the same key only.
func TestManagedPromptCacheScope(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	sw := startSwarm(t, path, [][2]int{{0, 2}, {2, 5}})
	sw.WaitServed(t, storiesName)
	be := &scopeBackend{Backend: sw.Router}
	k := newManagedKit(t, sw, be, nil)
	a := k.key(t, "tenant-a", []string{"*"}, 1000, time.Hour)
	b := k.key(t, "tenant-b", []string{"*"}, 1000, time.Hour)

	hits := func(n *p2p.Node) float64 {
		t.Helper()
		mfs, err := n.Registry().Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, mf := range mfs {
			if mf.GetName() == "svc_node_prompt_cache_hits_total" {
				return mf.GetMetric()[0].GetCounter().GetValue()
			}
		}
		t.Fatal("no svc_node_prompt_cache_hits_total")
		return 0
	}
	var before []float64
	for _, n := range sw.Nodes {
		before = append(before, hits(n))
	}
	for _, key := range []string{a, b, a} {
		r := k.call(t, "POST", "/v1/chat/completions", key, chatReq)
		if r.Status != 200 {
			t.Fatalf("chat: %d %s", r.Status, r.Body)
		}
	}
	be.mu.Lock()
	scopes := be.scopes
	be.mu.Unlock()
	if len(scopes) != 3 || scopes[0] == "" || scopes[0] != scopes[2] || scopes[0] == scopes[1] {
		t.Fatalf("scopes %q: want one per key, not empty", scopes)
	}
	for i, n := range sw.Nodes {
		if got := hits(n) - before[i]; got != 1 {
			t.Errorf("node %d: %v prompt cache hits, want 1 (the second request of the first key)", i, got)
		}
	}
}
