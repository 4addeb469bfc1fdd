package router_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/p2p"
	"svc/router"
)

// A failover of a batch in waves waits for room like a first attempt: the
// nodes are full of the request's other generations, so the replacement
// for a node that stopped refuses it until one of them ends; the
// generation then goes on from where it was, as if undisturbed.
func TestWavesFailover(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	// Two holders of the whole model, each room for two generations of
	// the prompts below and their max tokens at a time. RouteWait is short
	// so that a failover does not find room merely by waiting for the
	// view to change while a's generations end.
	const cache, maxTokens, gens = 90, 30, 6
	sw := swarmtest.Start(t, swarmtest.Config{Model: path, Shared: true, Ranges: [][2]int{{0, 5}, {0, 5}},
		Node:   p2p.NodeConfig{CacheTokens: cache},
		Router: router.Config{Backoff: 2 * time.Second, RouteWait: time.Millisecond}})
	sw.WaitServed(t, "stories260K")
	a, b := sw.Nodes[0], sw.Nodes[1]
	for deadline := time.Now().Add(30 * time.Second); router.HoldersOf(sw.Router, a.Digest()) < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the router never saw both nodes")
		}
	}
	prompts := make([][]int32, gens)
	wants := make([][]int32, gens)
	for i := range prompts {
		prompts[i] = append([]int32{1, 403 + int32(i)}, 407, 261, 378)
		wants[i], _ = swarmtest.Local(t, path, prompts[i], maxTokens)
	}
	stop := swarmtest.StopTokens(t, path)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	done := make(chan struct{})
	defer close(done)
	w := router.NewWaves(done)
	// The first four generations to give a token hold both nodes' room
	// (two each) and wait there for one another; then b stops, and once
	// its sessions are gone they go on: b's two fail over to a, full.
	const holders = 4
	var firsts atomic.Int32
	stopped := make(chan struct{})
	var stopErr error
	stopB := func() error {
		if a.Sessions() != 2 || b.Sessions() != 2 {
			return fmt.Errorf("the nodes hold %d and %d sessions, want 2 each", a.Sessions(), b.Sessions())
		}
		// Close from another goroutine: it waits for its streams.
		go func() { _ = b.Close() }()
		for deadline := time.Now().Add(30 * time.Second); b.Sessions() > 0; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				return errors.New("the stopped node kept its sessions")
			}
		}
		return nil
	}
	first := func() error {
		if firsts.Add(1) == holders {
			stopErr = stopB()
			close(stopped)
		}
		select {
		case <-stopped:
			return stopErr
		case <-time.After(30 * time.Second):
			return fmt.Errorf("%d generations gave a token, want %d holding at once", firsts.Load(), holders)
		}
	}
	got := make([][]int32, gens)
	errs := make([]error, gens)
	var wg sync.WaitGroup
	for i := range prompts {
		wg.Go(func() {
			_, errs[i] = sw.Router.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: prompts[i], MaxTokens: maxTokens, Stop: stop, Waves: w},
				func(tk router.Token) error {
					got[i] = append(got[i], tk.ID)
					if len(got[i]) == 1 {
						return first()
					}
					return nil
				})
		})
	}
	wg.Wait()
	for i := range prompts {
		if errs[i] != nil {
			t.Errorf("generation %d: %v", i, errs[i])
		} else if !slices.Equal(got[i], wants[i]) {
			t.Errorf("generation %d: %v, undisturbed %v", i, got[i], wants[i])
		}
	}
	if n := gauge(t, sw.Router, "svc_router_failovers_total"); n != 2 {
		t.Errorf("%v failovers, want b's two generations'", n)
	}
	swarmtest.WaitSessions(t, 0, a)
}
