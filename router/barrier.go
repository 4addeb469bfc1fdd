package router

import (
	"context"
	"sync"
	"time"
)

// stepBarrier lines up the decode steps of a model's generations. Nodes
// compute the steps that reach them together as one batch (one read of the
// weights for all), but generations that started at different times drift
// into groups that chase each other round the chain and never meet, so
// each node computes several small batches per round. At the barrier a
// generation's next decode step waits until every other generation in its
// decode phase has also finished its step, then all go on together and
// reach the first node at once; from there the nodes keep them together.
//
// The wait is bounded by about one step of the waiting generation (the
// others are at most one step behind), so a stalled or slow generation
// delays the others by at most that; a lone generation never waits.
type stepBarrier struct {
	mu      sync.Mutex
	members int           // generations in their decode phase
	arrived int           // of them, waiting at the barrier now
	release chan struct{} // closed when the current round is complete
}

func newStepBarrier() *stepBarrier { return &stepBarrier{release: make(chan struct{})} }

// join adds a generation.
func (b *stepBarrier) join() {
	b.mu.Lock()
	b.members++
	b.mu.Unlock()
}

// leave removes a generation; the others stop waiting for it.
func (b *stepBarrier) leave() {
	b.mu.Lock()
	b.members--
	b.releaseIfComplete()
	b.mu.Unlock()
}

// releaseIfComplete opens the round when everyone has arrived. Callers
// hold b.mu.
func (b *stepBarrier) releaseIfComplete() {
	if b.arrived > 0 && b.arrived >= b.members {
		close(b.release)
		b.release = make(chan struct{})
		b.arrived = 0
	}
}

// wait blocks until every member has arrived, max has passed, or ctx ends.
func (b *stepBarrier) wait(ctx context.Context, max time.Duration) {
	b.mu.Lock()
	b.arrived++
	ch := b.release
	b.releaseIfComplete()
	b.mu.Unlock()
	if max <= 0 {
		b.giveUp(ch)
		return
	}
	t := time.NewTimer(max)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
		b.giveUp(ch)
	case <-ctx.Done():
		b.giveUp(ch)
	}
}

// giveUp withdraws an arrival from round ch if that round is still open.
func (b *stepBarrier) giveUp(ch chan struct{}) {
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-ch:
	default:
		b.arrived--
	}
}
