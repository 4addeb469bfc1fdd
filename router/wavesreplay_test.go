package router_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/p2p"
	"svc/router"
)

// A failover's replay (its prompt and tokens so far, sent to the new
// nodes at once) waits for a turn of the batch's prompt pacing like a
// prompt, and waits holding nothing on the nodes: here it waits longer
// than their idle timeout, and its new sessions, opened after the wait,
// are not ended by it. Before, replays went at once, whatever the
// batch's other prompts in flight.
func TestWavesReplayPaced(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	// The router sends keepalives far more often than the idle timeout, so
	// that a stalled test process does not lose the sessions of the
	// generation as it runs (the wait below holds none).
	const idle, maxTokens = 2 * time.Second, 30
	sw := swarmtest.Start(t, swarmtest.Config{Model: path, Shared: true, Ranges: [][2]int{{0, 5}, {0, 5}},
		Node:   p2p.NodeConfig{IdleTimeout: idle},
		Router: router.Config{Backoff: time.Minute, RouteWait: time.Millisecond, KeepAlive: keepFast}})
	sw.WaitServed(t, "stories260K")
	for deadline := time.Now().Add(30 * time.Second); router.HoldersOf(sw.Router, sw.Nodes[0].Digest()) < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the router never saw both nodes")
		}
	}
	p := []int32{1, 403, 407, 261, 378, 425, 270}
	want, _ := swarmtest.Local(t, path, p, maxTokens)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	done := make(chan struct{})
	defer close(done)
	w := router.NewWaves(done)

	// At its first token, the node the generation runs on stops, and the
	// batch's other prompts (taken here) fill the pacing.
	var release func()
	first := func() error {
		var used *p2p.Node
		for _, n := range sw.Nodes {
			if n.Sessions() == 1 {
				used = n
			}
		}
		if used == nil {
			return errors.New("no node holds the generation's session")
		}
		go func() { _ = used.Close() }() // it waits for its streams
		for deadline := time.Now().Add(30 * time.Second); used.Sessions() > 0; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				return errors.New("the stopped node kept its session")
			}
		}
		var err error
		release, err = router.FillPrompts(ctx, w)
		return err
	}
	waiting := make(chan struct{}, 1)
	type result struct {
		got []int32
		err error
	}
	res := make(chan result, 1)
	go func() {
		var got []int32
		_, err := sw.Router.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: p, MaxTokens: maxTokens,
			Stop: swarmtest.StopTokens(t, path), Waves: w,
			Waiting: func() {
				select {
				case waiting <- struct{}{}:
				default:
				}
			}},
			func(tk router.Token) error {
				got = append(got, tk.ID)
				if len(got) == 1 {
					return first()
				}
				return nil
			})
		res <- result{got, err}
	}()
	select {
	case <-waiting:
	case r := <-res:
		t.Fatalf("the failover replayed without waiting for its turn (%v): the replay was not paced", r.err)
	}
	// Longer than the nodes' idle timeout: sessions opened before the wait
	// would be gone after it.
	time.Sleep(2 * idle)
	release()
	r := <-res
	if r.err != nil {
		t.Fatal(r.err)
	}
	if !slices.Equal(r.got, want) {
		t.Errorf("after the failover: %v, undisturbed %v", r.got, want)
	}
	if n := gauge(t, sw.Router, "svc_router_failovers_total"); n != 1 {
		t.Errorf("%v failovers, want 1", n)
	}
}
