package router_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/p2p"
	"svc/router"
)

// Many long prompts at once queue at a node, some for longer than its
// idle timeout: their sessions must outlive the wait, since a step
// waiting for its turn is not idle. Before, the node dropped them ("no
// such session"), and their generations failed over again and again
// until they failed. The router's step timeout, which the wait counts
// against, is long enough for the whole queue on a loaded machine (or
// under -race), and it sends keepalives between steps far more often than
// the timeout (none can be sent during a step, so they cannot hide the
// queued steps' sessions being dropped): a failover here can only be a
// queued session lost.
func TestQueuedPromptKeepsSession(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	sw := swarmtest.Start(t, swarmtest.Config{Model: path, Shared: true, Ranges: [][2]int{{0, 5}},
		Node:   p2p.NodeConfig{IdleTimeout: 2 * time.Second},
		Router: router.Config{KeepAlive: keepFast, StepTimeout: time.Minute}})
	sw.WaitServed(t, "stories260K")
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	const prompts, long = 40, 450
	errs := make([]error, prompts)
	var wg sync.WaitGroup
	for i := range prompts {
		p := make([]int32, long)
		for j := range p {
			p[j] = int32(300 + (i+j)%200)
		}
		p[0] = 1
		wg.Go(func() {
			_, errs[i] = sw.Router.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: p, MaxTokens: 2}, nil)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("prompt %d: %v", i, err)
		}
	}
	if n := gauge(t, sw.Router, "svc_router_failovers_total"); n != 0 {
		t.Errorf("%v failovers", n)
	}
	sw.WaitNoSessions(t)
}
