package router

import (
	"context"
	"testing"
	"time"
)

// waitAsync runs b.wait in a goroutine and returns a channel closed when it
// returns.
func waitAsync(ctx context.Context, b *stepBarrier, max time.Duration) chan struct{} {
	done := make(chan struct{})
	go func() {
		b.wait(ctx, max)
		close(done)
	}()
	return done
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
		b.join()
		within(t, waitAsync(ctx, b, time.Hour), "lone member")
	})

	t.Run("round opens when all arrive", func(t *testing.T) {
		b := newStepBarrier()
		b.join()
		b.join()
		b.join()
		a := waitAsync(ctx, b, time.Hour)
		c := waitAsync(ctx, b, time.Hour)
		blocked(t, a, "first of three")
		blocked(t, c, "second of three")
		b.wait(ctx, time.Hour) // the third opens the round
		within(t, a, "first of three")
		within(t, c, "second of three")
		if b.arrived != 0 {
			t.Fatalf("%d arrivals counted after the round opened", b.arrived)
		}
	})

	t.Run("leaving member releases the others", func(t *testing.T) {
		b := newStepBarrier()
		b.join()
		b.join()
		a := waitAsync(ctx, b, time.Hour)
		blocked(t, a, "waiting for the other")
		b.leave()
		within(t, a, "after the other left")
	})

	t.Run("wait is bounded", func(t *testing.T) {
		b := newStepBarrier()
		b.join()
		b.join()
		within(t, waitAsync(ctx, b, 20*time.Millisecond), "bounded wait")
		if b.arrived != 0 {
			t.Fatalf("a timed-out arrival is still counted (%d)", b.arrived)
		}
		// The next round still needs both.
		a := waitAsync(ctx, b, time.Hour)
		blocked(t, a, "next round")
		b.wait(ctx, time.Hour)
		within(t, a, "next round")
	})

	t.Run("cancelled wait returns", func(t *testing.T) {
		b := newStepBarrier()
		b.join()
		b.join()
		cctx, cancel := context.WithCancel(ctx)
		a := waitAsync(cctx, b, time.Hour)
		blocked(t, a, "before cancel")
		cancel()
		within(t, a, "after cancel")
		if b.arrived != 0 {
			t.Fatalf("a cancelled arrival is still counted (%d)", b.arrived)
		}
	})
}
