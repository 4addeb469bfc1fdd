package router

import (
	"context"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
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
//
// Generations join when they start, before their prompt, and count as
// decoding from their first decode step. When only first decode steps have
// arrived (requests that started together: the first ones, or a new wave
// after the previous one ended), the round also waits for the members
// still in their prompt, at most the chain's estimated time of one step
// while no decoding member has finished a step: otherwise each would run
// its first steps alone, and the group would form only over several rounds
// of small batches. Generations that are decoding never wait for a prompt.
type stepBarrier struct {
	mu       sync.Mutex
	members  map[*barrierMember]struct{} // generations of the model, from their start
	decoding int                         // of them, in their decode phase
	waiting  map[*barrierMember]struct{} // of them, waiting at the barrier now
	release  chan struct{}               // closed when the current round is complete
}

// barrierMember is one generation at the barrier. Its fields are guarded
// by the barrier's mu.
type barrierMember struct {
	last     time.Duration // its last decode step (0: none yet)
	decoding bool          // it has reached its first decode step
	// hops are the peers of its chain for the step it waits for; round,
	// once its round opens, for each hop the number of the round's steps
	// that reach that peer together (those whose chains agree up to it).
	hops  []peer.ID
	round []int
}

// maxWaitSteps bounds a wait in steps of the waiter's own.
const maxWaitSteps = 4

func newStepBarrier() *stepBarrier {
	return &stepBarrier{members: map[*barrierMember]struct{}{}, waiting: map[*barrierMember]struct{}{}, release: make(chan struct{})}
}

// join adds a generation that has not reached its decode phase yet.
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
	if m.decoding {
		b.decoding--
	}
	b.releaseIfComplete()
	b.mu.Unlock()
}

// stepped records how long m's last decode step took.
func (b *stepBarrier) stepped(m *barrierMember, d time.Duration) {
	b.mu.Lock()
	m.last = d
	b.mu.Unlock()
}

// releaseIfComplete opens the round when everyone has arrived: every
// decoding member, and while only first decode steps are waiting, every
// member. Callers hold b.mu.
func (b *stepBarrier) releaseIfComplete() {
	if len(b.waiting) == 0 {
		return
	}
	need := b.decoding
	if need < len(b.members) && b.onlyFirstSteps() {
		need = len(b.members)
	}
	if len(b.waiting) >= need {
		for m := range b.waiting {
			m.round = make([]int, len(m.hops))
			for o := range b.waiting {
				for i, p := range m.hops {
					if i >= len(o.hops) || o.hops[i] != p {
						break
					}
					m.round[i]++
				}
			}
		}
		close(b.release)
		b.release = make(chan struct{})
		clear(b.waiting)
	}
}

// onlyFirstSteps reports whether every waiting member is at its first
// decode step. Callers hold b.mu.
func (b *stepBarrier) onlyFirstSteps() bool {
	for o := range b.waiting {
		if o.last > 0 {
			return false
		}
	}
	return true
}

// bound is how long m waits for the others (see stepBarrier); fresh is the
// bound while no member has finished a decode step. Callers hold b.mu.
func (b *stepBarrier) bound(m *barrierMember, fresh time.Duration) time.Duration {
	longest := m.last
	for o := range b.members {
		longest = max(longest, o.last)
	}
	if longest == 0 {
		return fresh
	}
	if m.last > 0 {
		longest = min(longest, maxWaitSteps*m.last)
	}
	return longest
}

// wait blocks until every member has arrived, the bound has passed, or
// ctx ends; fresh bounds the wait while no member has finished a decode
// step (the chain's estimate of one step). m's first wait starts its
// decode phase. hops are the peers m's step goes through; when its round
// opened, wait returns for each the number of the round's steps that reach
// it together (wire.Step.round), else nil.
func (b *stepBarrier) wait(ctx context.Context, m *barrierMember, fresh time.Duration, hops []peer.ID) []int {
	b.mu.Lock()
	m.hops, m.round = hops, nil
	if !m.decoding {
		m.decoding = true
		b.decoding++
	}
	b.waiting[m] = struct{}{}
	ch := b.release
	b.releaseIfComplete()
	max := b.bound(m, fresh)
	b.mu.Unlock()
	if max <= 0 {
		return b.giveUp(ch, m)
	}
	t := time.NewTimer(max)
	defer t.Stop()
	select {
	case <-ch:
		b.mu.Lock()
		defer b.mu.Unlock()
		return m.round
	case <-t.C:
	case <-ctx.Done():
	}
	return b.giveUp(ch, m)
}

// giveUp withdraws m's arrival from round ch if that round is still open,
// and returns m's round if it opened meanwhile.
func (b *stepBarrier) giveUp(ch chan struct{}, m *barrierMember) []int {
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-ch:
		return m.round
	default:
		delete(b.waiting, m)
		return nil
	}
}
