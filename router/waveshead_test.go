package router_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/p2p"
	"svc/router"
)

// A prompt that fits only when the nodes' caches are (nearly) empty does
// not hold up a smaller one queued behind it: when one generation ends,
// the room it frees goes to the smaller one while the others still run;
// the large one runs once they have ended. Before, the smaller one waited
// until the large one had run.
func TestWavesSmallerPassesHead(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	// One node, 90 positions: three small generations (5 + 26 - 1 = 30
	// positions each) at a time, the large one (5 + 61 - 1 = 65) alone.
	const cache, small, large = 90, 26, 61
	sw := swarmtest.Start(t, swarmtest.Config{Model: path, Shared: true, Ranges: [][2]int{{0, 5}},
		Node: p2p.NodeConfig{CacheTokens: cache}})
	sw.WaitServed(t, "stories260K")
	stop := swarmtest.StopTokens(t, path)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	done := make(chan struct{})
	defer close(done)
	w := router.NewWaves(done)

	type member struct {
		prompt  []int32
		max     int
		want    []int32
		started chan struct{} // its first token came
		waiting chan struct{} // it waits for room
		release chan struct{} // closed: it may go on past its first token
		got     []int32
		err     chan error
	}
	start := func(i, max int, hold bool) *member {
		m := &member{prompt: []int32{1, 403 + int32(i), 407, 261, 378}, max: max,
			started: make(chan struct{}), waiting: make(chan struct{}, 1), release: make(chan struct{}), err: make(chan error, 1)}
		m.want, _ = swarmtest.Local(t, path, m.prompt, max)
		if !hold {
			close(m.release)
		}
		go func() {
			_, err := sw.Router.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: m.prompt, MaxTokens: max, Stop: stop, Waves: w,
				Waiting: func() {
					select {
					case m.waiting <- struct{}{}:
					default:
					}
				}},
				func(tk router.Token) error {
					m.got = append(m.got, tk.ID)
					if len(m.got) == 1 {
						close(m.started)
						select {
						case <-m.release:
						case <-ctx.Done():
							return ctx.Err()
						}
					}
					return nil
				})
			m.err <- err
		}()
		return m
	}
	await := func(what string, ch <-chan struct{}, m *member) {
		t.Helper()
		select {
		case <-ch:
		case err := <-m.err:
			t.Fatalf("%s: the generation ended: %v", what, err)
		case <-ctx.Done():
			t.Fatalf("%s: %v", what, ctx.Err())
		}
	}
	// Three small ones fill the cache and hold it.
	var holders []*member
	for i := range 3 {
		m := start(i, small, true)
		await("a small one starts", m.started, m)
		holders = append(holders, m)
	}
	big := start(3, large, false)
	await("the large one waits for room", big.waiting, big)
	behind := start(4, small, false)
	await("the small one behind it waits for room", behind.waiting, behind)

	// One small one ends: its room goes to the small one behind, while the
	// two others still hold theirs (the large one does not fit beside them).
	close(holders[0].release)
	await("the small one behind the large one starts once room for it is free", behind.started, behind)
	for _, m := range holders[1:] {
		close(m.release)
	}
	for _, m := range append(holders, big, behind) {
		if err := <-m.err; err != nil {
			t.Errorf("prompt %v: %v", m.prompt, err)
		} else if !slices.Equal(m.got, m.want) {
			t.Errorf("prompt %v: %v, alone %v", m.prompt, m.got, m.want)
		}
	}
	sw.WaitNoSessions(t)
}
