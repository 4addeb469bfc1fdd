package router_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/p2p"
	"svc/router"
)

// A route error names the blocks that lack a holder and why, also when
// the holder of other blocks is left out after a failure elsewhere (a
// step that timed out there, for another request): this generation would
// still try that one as a probe, so it is not what is missing. Before,
// the probe's blocks were named as missing ("blocks 0..4 have no usable
// holder: 1 holder is left out after failures") while the full node of
// blocks 3..4 went unmentioned, and a batch's generation failed instead
// of waiting for room.
func TestRouteErrorBesideAProbe(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	a := swarmtest.Node(t, p2p.NodeConfig{ModelPath: path, First: 0, Last: 3})
	b := swarmtest.Node(t, p2p.NodeConfig{ModelPath: path, First: 3, Last: 5, Bootstrap: a.Addrs(), CacheTokens: 100})
	r := swarmtest.Router(t, router.Config{Bootstrap: a.Addrs(), RefreshInterval: 300 * time.Millisecond, RouteWait: time.Millisecond, Backoff: time.Minute, Logger: testLogger(t)})
	waitState(t, r, "stories260K", router.StateServed, 30*time.Second)
	const maxTokens = 60
	// The first generation, of a batch, holds b's room.
	w := router.NewWaves(ctx.Done())
	holding := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		n := 0
		_, err := r.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: maxTokens, Waves: w}, func(router.Token) error {
			if n++; n == 1 {
				close(holding)
				<-release
			}
			return nil
		})
		done <- err
	}()
	<-holding
	// The router sees b announce itself full (while it keeps b busy, it
	// then leaves b out rather than be refused), and a is left out after a
	// failure of another request.
	need := uint64(len(prompt) + maxTokens - 1)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if free, ok := router.AnnouncedFree(r, b.ID(), b.Digest()); ok && free < need {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("b never announced itself full")
		}
	}
	router.Exclude(r, a.ID())

	_, err := r.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: maxTokens}, nil)
	var re *router.RouteError
	if !errors.As(err, &re) || re.First != 3 || re.Last != 5 || re.Busy != 1 || re.Excluded != 0 {
		t.Fatalf("a generation while b is full and a left out: %v; want blocks 3..4, one holder full", err)
	}
	if want := "blocks 3..4 have no usable holder: 1 holder is full"; re.Reason() != want {
		t.Errorf("reason %q, want %q", re.Reason(), want)
	}

	// Another generation of the batch waits for room there, and runs once
	// the first one ends.
	waiting := make(chan struct{}, 1)
	second := make(chan error, 1)
	go func() {
		_, err := r.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: maxTokens, Waves: w,
			Waiting: func() {
				select {
				case waiting <- struct{}{}:
				default:
				}
			}}, nil)
		second <- err
	}()
	select {
	case <-waiting:
	case err := <-second:
		t.Fatalf("a generation of the batch did not wait for room: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := <-second; err != nil {
		t.Fatalf("after the room came free: %v", err)
	}
	swarmtest.WaitSessions(t, 0, a, b)
}
