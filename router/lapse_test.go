package router

import (
	"context"
	"testing"
	"time"

	"svc/internal/testenv"
	"svc/p2p"
)

// TestLapsedViewWaitsForRenewal: when every holder's record lapsed at once
// while the nodes run (renewals late by a stall of a loaded machine), a
// request for the model waits for the renewal the lapse asks for, instead
// of answering that the model is not on the swarm. The router's own rounds
// are a minute apart here, so only that renewal can bring the node back.
func TestLapsedViewWaitsForRenewal(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	loopback := []string{"/ip4/127.0.0.1/tcp/0"}
	n, err := p2p.NewNode(t.Context(), p2p.NodeConfig{ModelPath: path, First: 0, Last: 5, Listen: loopback, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = n.Close() })
	// RouteWait is a hang guard here: the wait ends when the node is back.
	r, err := New(t.Context(), Config{Listen: loopback, Bootstrap: n.Addrs(), RefreshInterval: time.Minute, RouteWait: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	if err := r.WaitState(ctx, "stories260K", StateServed); err != nil {
		t.Fatal(err)
	}

	// Every record in the view lapses, as when its renewal came too late.
	r.mu.Lock()
	for id, m := range r.nodes {
		m.Expires = time.Now().Add(-time.Millisecond)
		r.nodes[id] = m
	}
	r.mu.Unlock()
	r.sweep(time.Now())
	if ms := r.Models(ctx); len(ms) != 0 {
		t.Fatalf("view after the lapse: %+v, want empty", ms)
	}

	info, err := r.Model(ctx, "stories260K")
	if err != nil {
		t.Fatalf("model whose holder's record lapsed while it runs: %v", err)
	}
	if info.Digest != n.Digest() || info.State != StateServed {
		t.Fatalf("model info %+v", info.ModelStatus)
	}
}
