package router

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// waitAsync runs b.wait in a goroutine, with an hour as the bound of a
// fresh barrier, and returns a channel closed when it returns.
func waitAsync(ctx context.Context, b *stepBarrier, m *barrierMember) chan struct{} {
	return waitFreshAsync(ctx, b, m, time.Hour)
}

// waitFreshAsync is waitAsync with the given bound for a fresh barrier.
func waitFreshAsync(ctx context.Context, b *stepBarrier, m *barrierMember, fresh time.Duration) chan struct{} {
	done := make(chan struct{})
	go func() {
		b.wait(ctx, m, fresh, nil)
		close(done)
	}()
	return done
}

// member joins b as a generation in its decode phase whose last step took
// d (0: it has not finished one yet).
func member(b *stepBarrier, d time.Duration) *barrierMember {
	m := b.join()
	b.mu.Lock()
	m.decoding = true
	b.decoding++
	b.mu.Unlock()
	b.stepped(m, d)
	return m
}

// arrivals is the number of members waiting at b.
func arrivals(b *stepBarrier) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.waiting)
}

// within fails the test if done is not closed within a generous bound (a
// hang check, not a speed check).
func within(t *testing.T, done chan struct{}, what string) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: still waiting", what)
	}
}

func blocked(t *testing.T, done chan struct{}, what string) {
	t.Helper()
	select {
	case <-done:
		t.Fatalf("%s: returned early", what)
	case <-time.After(50 * time.Millisecond):
	}
}

func TestStepBarrier(t *testing.T) {
	ctx := context.Background()

	t.Run("lone member never waits", func(t *testing.T) {
		b := newStepBarrier()
		within(t, waitAsync(ctx, b, member(b, time.Hour)), "lone member")
	})

	t.Run("round opens when all arrive", func(t *testing.T) {
		b := newStepBarrier()
		m1, m2, m3 := member(b, time.Hour), member(b, time.Hour), member(b, time.Hour)
		a := waitAsync(ctx, b, m1)
		c := waitAsync(ctx, b, m2)
		blocked(t, a, "first of three")
		blocked(t, c, "second of three")
		b.wait(ctx, m3, time.Hour, nil) // the third opens the round
		within(t, a, "first of three")
		within(t, c, "second of three")
		if arrivals(b) != 0 {
			t.Fatalf("%d arrivals counted after the round opened", arrivals(b))
		}
	})

	t.Run("leaving member releases the others", func(t *testing.T) {
		b := newStepBarrier()
		m1, m2 := member(b, time.Hour), member(b, time.Hour)
		a := waitAsync(ctx, b, m1)
		blocked(t, a, "waiting for the other")
		b.leave(m2)
		within(t, a, "after the other left")
	})

	t.Run("wait is bounded", func(t *testing.T) {
		b := newStepBarrier()
		m1, m2 := member(b, 20*time.Millisecond), member(b, 20*time.Millisecond)
		within(t, waitAsync(ctx, b, m1), "bounded wait")
		if arrivals(b) != 0 {
			t.Fatalf("a timed-out arrival is still counted (%d)", arrivals(b))
		}
		// The next round still needs both.
		b.stepped(m1, time.Hour)
		b.stepped(m2, time.Hour)
		a := waitAsync(ctx, b, m1)
		blocked(t, a, "next round")
		b.wait(ctx, m2, time.Hour, nil)
		within(t, a, "next round")
	})

	t.Run("cancelled wait returns", func(t *testing.T) {
		b := newStepBarrier()
		m1, _ := member(b, time.Hour), member(b, time.Hour)
		cctx, cancel := context.WithCancel(ctx)
		a := waitAsync(cctx, b, m1)
		blocked(t, a, "before cancel")
		cancel()
		within(t, a, "after cancel")
		if arrivals(b) != 0 {
			t.Fatalf("a cancelled arrival is still counted (%d)", arrivals(b))
		}
	})

	t.Run("the others' longer step bounds the wait", func(t *testing.T) {
		// A member that ran alone (a short step) waits as long as the
		// others' batched step, up to maxWaitSteps of its own.
		b := newStepBarrier()
		m1, m2 := member(b, 10*time.Millisecond), member(b, 30*time.Millisecond)
		m3 := member(b, 0)
		for _, c := range []struct {
			m    *barrierMember
			want time.Duration
		}{{m1, 30 * time.Millisecond}, {m2, 30 * time.Millisecond}, {m3, 30 * time.Millisecond}} {
			b.mu.Lock()
			got := b.bound(c.m, time.Hour)
			b.mu.Unlock()
			if got != c.want {
				t.Errorf("bound of a member whose last step took %v: %v, want %v", c.m.last, got, c.want)
			}
		}
		b.stepped(m2, time.Hour)
		b.mu.Lock()
		got := b.bound(m1, time.Hour)
		b.mu.Unlock()
		if got != maxWaitSteps*10*time.Millisecond {
			t.Errorf("bound with another member's hour-long step: %v, want %v", got, maxWaitSteps*10*time.Millisecond)
		}
	})

	t.Run("a first decode step waits for the round in progress", func(t *testing.T) {
		b := newStepBarrier()
		fresh, running := member(b, 0), member(b, time.Hour)
		a := waitAsync(ctx, b, fresh)
		blocked(t, a, "first step while another member's step runs")
		b.wait(ctx, running, time.Hour, nil)
		within(t, a, "after the running member arrived")
	})

	t.Run("a member's long step holds the others a few of their own steps at most", func(t *testing.T) {
		b := newStepBarrier()
		m1, _ := member(b, 5*time.Millisecond), member(b, time.Hour)
		within(t, waitAsync(ctx, b, m1), "capped wait")
		if arrivals(b) != 0 {
			t.Fatalf("a timed-out arrival is still counted (%d)", arrivals(b))
		}
	})

	t.Run("generations that started together take their first decode step together", func(t *testing.T) {
		b := newStepBarrier()
		m1, m2 := b.join(), b.join() // both still in their prompts
		a := waitAsync(ctx, b, m1)
		blocked(t, a, "first decode step while the other is in its prompt")
		b.wait(ctx, m2, time.Hour, nil)
		within(t, a, "after the other's first decode step")
		if arrivals(b) != 0 || b.decoding != 2 {
			t.Fatalf("after the round: %d arrivals, %d decoding, want 0 and 2", arrivals(b), b.decoding)
		}
	})

	t.Run("a prompt holds the first decode steps at most the fresh bound", func(t *testing.T) {
		b := newStepBarrier()
		m1, _ := b.join(), b.join()
		within(t, waitFreshAsync(ctx, b, m1, 20*time.Millisecond), "bounded first step")
		if arrivals(b) != 0 {
			t.Fatalf("a timed-out arrival is still counted (%d)", arrivals(b))
		}
	})

	t.Run("a prompt that ends without decoding releases the first steps", func(t *testing.T) {
		b := newStepBarrier()
		m1, m2 := b.join(), b.join()
		a := waitAsync(ctx, b, m1)
		blocked(t, a, "waiting for the other's prompt")
		b.leave(m2)
		within(t, a, "after the other left")
	})

	t.Run("a new wave's first steps wait for its prompts while the last one ends", func(t *testing.T) {
		b := newStepBarrier()
		old := member(b, time.Hour) // finishing its last step
		n1, n2 := b.join(), b.join()
		a := waitAsync(ctx, b, n1)
		blocked(t, a, "first decode step")
		b.leave(old)
		blocked(t, a, "first decode step once the old generation ended")
		b.wait(ctx, n2, time.Hour, nil)
		within(t, a, "after the other's first decode step")
	})

	t.Run("once a step is done, prompts are not waited for", func(t *testing.T) {
		// Generations that are decoding do not wait for one that just
		// started (its prompt may take long); it joins their rounds at
		// its first decode step.
		b := newStepBarrier()
		m1 := member(b, time.Hour)
		late := b.join()
		within(t, waitAsync(ctx, b, m1), "decoding member with a prompt running")
		b.stepped(m1, time.Hour)
		a := waitAsync(ctx, b, late)
		blocked(t, a, "the late one's first decode step while the other's step runs")
		b.wait(ctx, m1, time.Hour, nil)
		within(t, a, "after the other arrived")
	})

	t.Run("a round tells each hop how many of its steps reach it together", func(t *testing.T) {
		// Two chains share their first hop and differ at the second:
		// the third hop gets the steps of a chain only after that
		// chain's second hop, so only those count together.
		b := newStepBarrier()
		a, bb, c, d := peer.ID("a"), peer.ID("b"), peer.ID("c"), peer.ID("d")
		m1, m2, m3 := member(b, time.Hour), member(b, time.Hour), member(b, time.Hour)
		r1, r2 := make(chan []int, 1), make(chan []int, 1)
		go func() { r1 <- b.wait(ctx, m1, time.Hour, []peer.ID{a, bb, c}) }()
		go func() { r2 <- b.wait(ctx, m2, time.Hour, []peer.ID{a, bb, c}) }()
		r3 := b.wait(ctx, m3, time.Hour, []peer.ID{a, d, c})
		var got1, got2 []int
		select {
		case got1 = <-r1:
		case <-time.After(10 * time.Second):
			t.Fatal("first member still waiting")
		}
		select {
		case got2 = <-r2:
		case <-time.After(10 * time.Second):
			t.Fatal("second member still waiting")
		}
		if fmt.Sprint(got1, got2, r3) != "[3 2 2] [3 2 2] [3 1 1]" {
			t.Fatalf("rounds %v %v %v, want [3 2 2] [3 2 2] [3 1 1]", got1, got2, r3)
		}
		// A lone generation's round is one step everywhere; one that
		// gave up has none.
		lone := newStepBarrier()
		if got := lone.wait(ctx, member(lone, time.Hour), time.Hour, []peer.ID{a, bb}); fmt.Sprint(got) != "[1 1]" {
			t.Fatalf("lone round %v, want [1 1]", got)
		}
		b2 := newStepBarrier()
		m, _ := member(b2, 5*time.Millisecond), member(b2, 5*time.Millisecond)
		if got := b2.wait(ctx, m, time.Hour, []peer.ID{a}); got != nil {
			t.Fatalf("round %v after giving up, want none", got)
		}
	})
}

// TestHopRound: a hop is told the barrier's count for it, capped by the
// batch the previous hop computed the step in, when that hop said.
func TestHopRound(t *testing.T) {
	rounds := []int{8, 8, 3}
	for _, c := range []struct{ i, batch, want int }{
		{0, 0, 8}, // first hop: the barrier's count
		{1, 0, 8}, // previous hop did not say (older node)
		{1, 7, 7}, // the round split 7+1 at the previous hop: the seven
		{1, 1, 1}, // and the eighth, alone
		{2, 8, 3}, // the chains part: the barrier's count is lower
		{3, 2, 0}, // beyond the barrier's hops: no round
	} {
		if got := hopRound(rounds, c.i, c.batch); got != c.want {
			t.Errorf("hopRound(%v, %d, %d) = %d, want %d", rounds, c.i, c.batch, got, c.want)
		}
	}
	if got := hopRound(nil, 0, 5); got != 0 {
		t.Errorf("no rounds: %d, want 0", got)
	}
}
