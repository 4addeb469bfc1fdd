package router

import (
	"context"
	"errors"
	"testing"
	"time"
)

// waitResult is what a member's wait returned.
type waitResult struct {
	ok  bool
	err error
}

// roomWait starts a member's wait for room; its result comes on the
// channel.
func roomWait(w *Waves, ctx context.Context, first bool) <-chan waitResult {
	ch := make(chan waitResult, 1)
	go func() {
		ok, err := w.wait(ctx, first)
		ch <- waitResult{ok, err}
	}()
	return ch
}

// queued waits (bounded) until n members are queued.
func queued(t *testing.T, w *Waves, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		w.mu.Lock()
		k := len(w.queue)
		w.mu.Unlock()
		if k == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d members queued, want %d", k, n)
		}
		time.Sleep(time.Millisecond)
	}
}

func turnOf(t *testing.T, what string, ch <-chan waitResult) {
	t.Helper()
	select {
	case r := <-ch:
		if !r.ok || r.err != nil {
			t.Fatalf("%s: wait returned %v, %v; want its turn", what, r.ok, r.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: no turn", what)
	}
}

func noTurn(t *testing.T, what string, w *Waves, ch <-chan waitResult, n int) {
	t.Helper()
	queued(t, w, n)
	select {
	case r := <-ch:
		t.Fatalf("%s: wait returned %v, %v while nothing freed room", what, r.ok, r.err)
	default:
	}
}

// The turns: a refused member waits while another holds sessions, gets
// its turn when one closes them, and after a success the next tries; one
// refused in its turn keeps its place; first refused, first served.
func TestWavesTurns(t *testing.T) {
	ctx := t.Context()
	w := NewWaves(nil)
	for range 3 {
		w.begin()
	}
	w.attempted(true, true) // A holds
	b := roomWait(w, ctx, true)
	noTurn(t, "B", w, b, 1)
	c := roomWait(w, ctx, true)
	noTurn(t, "C", w, c, 2)

	w.closed() // A ends: B's turn, not C's
	turnOf(t, "B after A ended", b)
	noTurn(t, "C during B's turn", w, c, 1)
	w.attempted(false, true) // B holds: C may fit too
	turnOf(t, "C after B's success", c)
	c = roomWait(w, ctx, false) // refused in its turn: waits for B
	noTurn(t, "C refused in its turn", w, c, 1)
	w.closed() // B ends
	turnOf(t, "C after B ended", c)
	// C, refused alone, with nothing of the request holding or opening
	// sessions: nothing to wait for.
	if ok, err := w.wait(ctx, false); ok || err != nil {
		t.Fatalf("a member refused alone waits: %v %v", ok, err)
	}
}

// Refused in their first, simultaneous attempts with nothing holding
// (their opens got in each other's way): once every first attempt has
// ended, they try again one at a time.
func TestWavesFirstAttempts(t *testing.T) {
	ctx := t.Context()
	w := NewWaves(nil)
	w.begin()
	w.begin()
	a := roomWait(w, ctx, true)
	noTurn(t, "A while B opens", w, a, 1)
	b := roomWait(w, ctx, true)
	turnOf(t, "A once every first attempt ended", a)
	noTurn(t, "B during A's turn", w, b, 1)
	w.attempted(false, true)
	turnOf(t, "B after A's success", b)
}

// Leaving: the request's end (done) or a member's context ends its wait,
// and the member leaves the queue.
func TestWavesLeave(t *testing.T) {
	done := make(chan struct{})
	w := NewWaves(done)
	w.begin()
	w.begin()
	w.begin()
	w.attempted(true, true)
	cctx, cancel := context.WithCancelCause(t.Context())
	cause := errors.New("client left")
	a := roomWait(w, cctx, true)
	noTurn(t, "A", w, a, 1)
	b := roomWait(w, t.Context(), true)
	noTurn(t, "B", w, b, 2)
	cancel(cause)
	if r := <-a; r.ok || !errors.Is(r.err, cause) {
		t.Fatalf("A after its context ended: %v %v", r.ok, r.err)
	}
	queued(t, w, 1)
	// A left the queue: B is next.
	w.closed()
	turnOf(t, "B", b)
	// C waits during B's turn when the request ends.
	w.begin()
	c := roomWait(w, t.Context(), true)
	queued(t, w, 1)
	close(done)
	if r := <-c; r.ok || !errors.Is(r.err, ErrWavesEnded) {
		t.Fatalf("a wait when the request ended: %v %v", r.ok, r.err)
	}
	w.attempted(false, true) // B holds
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.queue) != 0 || w.turn {
		t.Errorf("after leaving: %d queued, turn %v", len(w.queue), w.turn)
	}
}

// Prompt steps: a batch's start while fewer than promptSteps are in
// flight or their positions with the new one are at most
// promptPositions, the others in order as those end; a waiting member
// is told, and leaves with its context or the request.
func TestWavesPromptPacing(t *testing.T) {
	ctx := t.Context()
	done := make(chan struct{})
	w := NewWaves(done)
	const long = promptPositions // one long prompt fills the positions alone
	now := func(n int) func() {
		t.Helper()
		end, err := w.prompt(ctx, n, func() { t.Errorf("a prompt of %d positions waited", n) })
		if err != nil {
			t.Fatal(err)
		}
		return end
	}
	type res struct {
		end func()
		err error
	}
	later := func(ctx context.Context, n int) <-chan res {
		waited := make(chan struct{})
		ch := make(chan res, 1)
		go func() {
			end, err := w.prompt(ctx, n, func() { close(waited) })
			ch <- res{end, err}
		}()
		select {
		case <-waited:
		case r := <-ch:
			t.Fatalf("a prompt of %d positions did not wait: %v", n, r.err)
		case <-time.After(10 * time.Second):
			t.Fatalf("a prompt of %d positions neither waited nor started", n)
		}
		return ch
	}
	admitted := func(what string, ch <-chan res) func() {
		t.Helper()
		select {
		case r := <-ch:
			if r.err != nil {
				t.Fatalf("%s: %v", what, r.err)
			}
			return r.end
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: not admitted", what)
			return nil
		}
	}
	var short []func()
	for range promptSteps + 2 {
		short = append(short, now(1)) // short prompts: all at once
	}
	cctx, cancel := context.WithCancelCause(ctx)
	c := later(cctx, long) // over the positions, with promptSteps in flight
	d := later(ctx, 1)     // first come, first served: behind C
	cause := errors.New("gone")
	cancel(cause)
	if r := <-c; r.end != nil || !errors.Is(r.err, cause) {
		t.Fatalf("C after its context ended: %v", r.err)
	}
	short = append(short, admitted("D once C left", d))
	e := later(ctx, long)
	for i, end := range short {
		end()
		if i == 0 {
			end() // a second call changes nothing
		}
	}
	endE := admitted("E once the short ones ended", e)
	// Long prompts: promptSteps at once.
	ends := []func(){endE}
	for range promptSteps - 1 {
		ends = append(ends, now(long))
	}
	f := later(ctx, 1)
	close(done)
	if r := <-f; r.end != nil || !errors.Is(r.err, ErrWavesEnded) {
		t.Fatalf("F when the request ended: %v", r.err)
	}
	for _, end := range ends {
		end()
	}
	w.pmu.Lock()
	defer w.pmu.Unlock()
	if w.prompting != 0 || w.promptPos != 0 || len(w.promptQ) != 0 {
		t.Errorf("after every step ended: %d steps, %d positions, %d waiting", w.prompting, w.promptPos, len(w.promptQ))
	}
}

// Settling: a refusal soon after a member closed its sessions may be for
// room the nodes are still giving back (buildIn then tries again); long
// after, or before any close, it is not.
func TestWavesSettling(t *testing.T) {
	w := NewWaves(nil)
	if w.settling() {
		t.Fatal("settling before any member closed its sessions")
	}
	w.begin()
	w.attempted(true, true)
	w.closed()
	if !w.settling() {
		t.Fatal("not settling right after a member closed its sessions")
	}
	w.mu.Lock()
	w.lastClosed = time.Now().Add(-settleWindow)
	w.mu.Unlock()
	if w.settling() {
		t.Fatalf("settling %s after the last close", settleWindow)
	}
}
