package router

import (
	"context"
	"testing"
	"time"
)

// waitAsync runs b.wait in a goroutine and returns a channel closed when it
// returns.
func waitAsync(ctx context.Context, b *stepBarrier, m *barrierMember) chan struct{} {
	done := make(chan struct{})
	go func() {
		b.wait(ctx, m)
		close(done)
	}()
	return done
}

// member joins b with a last step of d.
func member(b *stepBarrier, d time.Duration) *barrierMember {
	m := b.join()
	b.stepped(m, d)
	return m
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
		b.wait(ctx, m3) // the third opens the round
		within(t, a, "first of three")
		within(t, c, "second of three")
		if b.arrived != 0 {
			t.Fatalf("%d arrivals counted after the round opened", b.arrived)
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
		if b.arrived != 0 {
			t.Fatalf("a timed-out arrival is still counted (%d)", b.arrived)
		}
		// The next round still needs both.
		b.stepped(m1, time.Hour)
		b.stepped(m2, time.Hour)
		a := waitAsync(ctx, b, m1)
		blocked(t, a, "next round")
		b.wait(ctx, m2)
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
		if b.arrived != 0 {
			t.Fatalf("a cancelled arrival is still counted (%d)", b.arrived)
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
			got := b.bound(c.m)
			b.mu.Unlock()
			if got != c.want {
				t.Errorf("bound of a member whose last step took %v: %v, want %v", c.m.last, got, c.want)
			}
		}
		b.stepped(m2, time.Hour)
		b.mu.Lock()
		got := b.bound(m1)
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
		b.wait(ctx, running)
		within(t, a, "after the running member arrived")
	})

	t.Run("a member's long step holds the others a few of their own steps at most", func(t *testing.T) {
		b := newStepBarrier()
		m1, _ := member(b, 5*time.Millisecond), member(b, time.Hour)
		within(t, waitAsync(ctx, b, m1), "capped wait")
		if b.arrived != 0 {
			t.Fatalf("a timed-out arrival is still counted (%d)", b.arrived)
		}
	})

	t.Run("no step yet anywhere: no wait", func(t *testing.T) {
		b := newStepBarrier()
		m1, _ := b.join(), b.join()
		within(t, waitAsync(ctx, b, m1), "first steps of all")
	})
}
