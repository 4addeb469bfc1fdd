package router_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/p2p"
	"svc/router"
)

// A generation of a batch that waits for room longer than the nodes'
// idle timeout keeps its place and then runs as it would alone, without
// a failover: it waits holding no sessions (a refused open closes the
// hops that did open). Its siblings, which hold sessions, step more
// often than the timeout.
func TestWavesWaitOutlastsIdle(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	// Two hops, each with room for two generations of 30 positions at a
	// time: the other two wait about as long as a generation of 26 tokens
	// at 8% of the idle timeout each, twice the timeout. The router sends
	// keepalives far more often than the timeout, so that a stalled test
	// process does not lose the running generations' sessions.
	const cache, maxTokens, gens, idle = 60, 26, 4, 2 * time.Second
	sw := swarmtest.Start(t, swarmtest.Config{Model: path, Shared: true, Ranges: [][2]int{{0, 2}, {2, 5}},
		Node:   p2p.NodeConfig{CacheTokens: cache, IdleTimeout: idle},
		Router: router.Config{KeepAlive: keepFast}})
	sw.WaitServed(t, "stories260K")
	stop := swarmtest.StopTokens(t, path)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	done := make(chan struct{})
	defer close(done)
	w := router.NewWaves(done)
	got := make([][]int32, gens)
	wants := make([][]int32, gens)
	errs := make([]error, gens)
	var wg sync.WaitGroup
	for i := range gens {
		p := []int32{1, 403 + int32(i), 407, 261, 378}
		wants[i], _ = swarmtest.Local(t, path, p, maxTokens)
		wg.Go(func() {
			_, errs[i] = sw.Router.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: p, MaxTokens: maxTokens, Stop: stop, Waves: w},
				func(tk router.Token) error {
					got[i] = append(got[i], tk.ID)
					time.Sleep(idle * 8 / 100)
					return nil
				})
		})
	}
	wg.Wait()
	for i := range gens {
		if errs[i] != nil {
			t.Errorf("generation %d: %v", i, errs[i])
		} else if !slices.Equal(got[i], wants[i]) {
			t.Errorf("generation %d: %v, alone %v", i, got[i], wants[i])
		}
	}
	if n := gauge(t, sw.Router, "svc_router_room_waits_total"); n < 1 {
		t.Errorf("%v waits for room: the batch did not run in waves", n)
	}
	if n := gauge(t, sw.Router, "svc_router_failovers_total"); n != 0 {
		t.Errorf("%v failovers", n)
	}
	sw.WaitNoSessions(t)
}
