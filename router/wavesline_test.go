package router

import (
	"testing"
)

// holdWait starts the wait of a member begin did not let try.
func holdWait(w *Waves, t *testing.T) <-chan waitResult {
	ch := make(chan waitResult, 1)
	go func() {
		ok, err := w.hold(t.Context())
		ch <- waitResult{ok, err}
	}()
	return ch
}

// The line without blocking at its head: the head refused in its turn
// passes the turn to the member behind it, which may need less room;
// once maxPasses members have opened sessions while the head waited, the
// line is held for it (first attempts queue without trying, turns go to
// it alone) until it has opened its own.
func TestWavesLine(t *testing.T) {
	ctx := t.Context()
	w := NewWaves(nil)
	for range 4 {
		w.begin()
	}
	w.attempted(true, true) // A holds
	w.attempted(true, true) // A2 holds
	b := roomWait(w, ctx, true)
	noTurn(t, "B", w, b, 1)
	c := roomWait(w, ctx, true)
	noTurn(t, "C", w, c, 2)

	w.closed() // A ends: B's turn
	turnOf(t, "B after A ended", b)
	b = roomWait(w, ctx, false) // B needs more than came free
	turnOf(t, "C after B, at the head, was refused", c)
	w.attempted(false, true) // C fits: it passed B
	noTurn(t, "B once C opened", w, b, 1)

	// More pass B, up to maxPasses (C was the first).
	for i := 1; i < maxPasses; i++ {
		if !w.begin() {
			t.Fatalf("pass %d: a first attempt may not try", i+1)
		}
		w.attempted(true, true)
	}
	if w.begin() {
		t.Fatalf("after %d passes a first attempt may still try", maxPasses)
	}
	d := holdWait(w, t)
	noTurn(t, "D, held behind B", w, d, 2)
	// Releases give B alone its turns while the line is held.
	for range maxPasses { // every holder but one
		w.closed()
		turnOf(t, "B after a release", b)
		b = roomWait(w, ctx, false)
		noTurn(t, "D while the line is held for B", w, d, 2)
	}
	// Every other member ended: B tries alone, and fits.
	w.closed()
	turnOf(t, "B alone", b)
	w.attempted(false, true)
	turnOf(t, "D once B opened", d)
	w.attempted(false, true)
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.queue) != 0 || w.turn || w.holding != 2 || w.opening != 0 {
		t.Errorf("at the end: %d queued, turn %v, %d holding, %d opening", len(w.queue), w.turn, w.holding, w.opening)
	}
}
