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
// The others are at most one step behind, so the wait is bounded by the
// longest last step of any member: a generation that is ahead because it
// ran alone (a short step) still waits long enough for a group whose
// batched step takes longer, and a generation's first decode step (no step
// of its own yet) waits for the round in progress instead of starting a
// group of its own. The bound is at most maxWaitSteps of the waiter's own
// last step, so a member's unusually long step (a failover's replay) does
// not hold the others for long, and a stalled or slow generation delays
// the others by at most that; a lone generation never waits.
type stepBarrier struct {
	mu      sync.Mutex
	members map[*barrierMember]struct{} // generations in their decode phase
	arrived int                         // of them, waiting at the barrier now
	release chan struct{}               // closed when the current round is complete
}

// barrierMember is one generation at the barrier.
type barrierMember struct {
	last time.Duration // its last decode step (0: none yet); guarded by the barrier's mu
}

// maxWaitSteps bounds a wait in steps of the waiter's own.
const maxWaitSteps = 4

func newStepBarrier() *stepBarrier {
	return &stepBarrier{members: map[*barrierMember]struct{}{}, release: make(chan struct{})}
}

// join adds a generation.
func (b *stepBarrier) join() *barrierMember {
	m := &barrierMember{}
	b.mu.Lock()
	b.members[m] = struct{}{}
	b.mu.Unlock()
	return m
}

// leave removes a generation; the others stop waiting for it.
func (b *stepBarrier) leave(m *barrierMember) {
	b.mu.Lock()
	delete(b.members, m)
	b.releaseIfComplete()
	b.mu.Unlock()
}

// stepped records how long m's last decode step took.
func (b *stepBarrier) stepped(m *barrierMember, d time.Duration) {
	b.mu.Lock()
	m.last = d
	b.mu.Unlock()
}

// releaseIfComplete opens the round when everyone has arrived. Callers
// hold b.mu.
func (b *stepBarrier) releaseIfComplete() {
	if b.arrived > 0 && b.arrived >= len(b.members) {
		close(b.release)
		b.release = make(chan struct{})
		b.arrived = 0
	}
}

// bound is how long m waits for the others (see stepBarrier). Callers hold
// b.mu.
func (b *stepBarrier) bound(m *barrierMember) time.Duration {
	longest := m.last
	for o := range b.members {
		longest = max(longest, o.last)
	}
	if m.last > 0 {
		longest = min(longest, maxWaitSteps*m.last)
	}
	return longest
}

// wait blocks until every member has arrived, the bound has passed, or
// ctx ends.
func (b *stepBarrier) wait(ctx context.Context, m *barrierMember) {
	b.mu.Lock()
	b.arrived++
	ch := b.release
	b.releaseIfComplete()
	max := b.bound(m)
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
