package router

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"svc/p2p"
	"svc/p2p/wire"
	"svc/shards/model"
)

// Waves lets the generations of one request (a completions prompt batch)
// share the room the nodes' KV caches have for them, so that a batch
// larger than the swarm holds at once runs in waves instead of failing.
//
// Each node reserves a session's whole length (prompt and max tokens) when
// it opens, and refuses one it has no room for (NO_CAPACITY). The router
// learns the room left only from those refusals: nodes announce their
// free positions every few seconds, too late for this. So every member
// first tries at once, as a lone request does; one refused for want of
// room while members of its request hold sessions queues, first refused
// first, and tries again when one of them has closed its sessions (its
// generation ended) — one member at a time, and after each success the
// next, so that each release costs one refusal at most. A member refused
// while none of its request holds or is opening sessions has no room to
// wait for (other requests fill the nodes): it fails as a lone request
// would, after one more try alone (its first refusal may have been caused
// by its siblings' sessions opening at the same moment).
//
// A failover (a hop failed mid-generation) gives the member's room back
// and tries again as a first attempt, so that it too waits when the
// replacement nodes are full of its siblings.
//
// A member waits only while another holds sessions, whose generation ends
// by its max tokens or its failure, so the waits end; a member that
// could never fit any chain fails before it queues (TooLongError); and
// done (the request's end: its client left, or another member failed)
// ends every wait at once.
//
// A Waves also paces its members' prompt steps (prompt, below), and their
// failovers' replays (paceReplay), so that a batch of many long prompts
// does not queue them at a node past their deadlines.
type Waves struct {
	done <-chan struct{}

	// Prompt steps in flight (paced, see prompt) and those waiting.
	pmu       sync.Mutex
	prompting int
	promptPos int
	promptQ   []*promptWaiter

	mu       sync.Mutex
	opening  int             // members in their first attempt
	holding  int             // members whose sessions are open
	queue    []chan struct{} // refused members; closing one's channel is its turn
	turn     bool            // a member is trying again in its turn
	released bool            // room may have come free since the last turn began
}

// NewWaves returns the room-sharing of one request's generations (set as
// each one's GenerateRequest.Waves); done ends their waits.
func NewWaves(done <-chan struct{}) *Waves { return &Waves{done: done} }

// Pacing of a batch's prompt steps: a node computes at most
// model.MaxBatch positions per pass and queues the rest, while a step's
// deadline (Config.StepTimeout plus ten announced token times per
// position) does not count the time it queues behind others. A batch of
// many long prompts sent at once (64 of 2,000 tokens) therefore made the
// last ones' steps time out in the first node's queue, and their
// failovers found the node still full of the timed-out sessions. So a
// member starts its generation (opens its sessions and sends its prompt)
// only while fewer than promptSteps of the batch's prompt steps are in
// flight, or while theirs and its positions are at most promptPositions:
// enough to keep a chain of three hops busy with prompts, while a node
// queues at most four of the batch's prompts (or four passes of short
// ones); a batch of short prompts (1,024 positions together) starts at
// once, as before.
const (
	promptSteps     = 4
	promptPositions = 4 * model.MaxBatch
)

type promptWaiter struct {
	n  int
	ch chan struct{}
}

// promptFits reports whether a prompt step of n positions may start.
// Callers hold w.pmu.
func (w *Waves) promptFits(n int) bool {
	return w.prompting < promptSteps || w.promptPos+n <= promptPositions
}

// prompt waits until a member's prompt step of n positions may start
// (calling waiting first if it must wait), and returns the function that
// marks it done, which is safe to call more than once.
func (w *Waves) prompt(ctx context.Context, n int, waiting func()) (func(), error) {
	done := func() func() {
		var once sync.Once
		return func() {
			once.Do(func() {
				w.pmu.Lock()
				w.prompting--
				w.promptPos -= n
				w.admitPrompts()
				w.pmu.Unlock()
			})
		}
	}
	w.pmu.Lock()
	if len(w.promptQ) == 0 && w.promptFits(n) {
		w.prompting++
		w.promptPos += n
		w.pmu.Unlock()
		return done(), nil
	}
	pw := &promptWaiter{n: n, ch: make(chan struct{})}
	w.promptQ = append(w.promptQ, pw)
	w.pmu.Unlock()
	if waiting != nil {
		waiting()
	}
	var err error
	select {
	case <-pw.ch:
		return done(), nil
	case <-ctx.Done():
		err = context.Cause(ctx)
	case <-w.done:
		err = ErrWavesEnded
	}
	w.pmu.Lock()
	defer w.pmu.Unlock()
	select {
	case <-pw.ch:
		// Admitted as it left.
		w.prompting--
		w.promptPos -= n
	default:
		w.promptQ = slices.DeleteFunc(w.promptQ, func(q *promptWaiter) bool { return q == pw })
	}
	w.admitPrompts()
	return nil, err
}

// admitPrompts starts the waiting prompt steps that fit, first come first.
// Callers hold w.pmu.
func (w *Waves) admitPrompts() {
	for len(w.promptQ) > 0 && w.promptFits(w.promptQ[0].n) {
		pw := w.promptQ[0]
		w.promptQ = w.promptQ[1:]
		w.prompting++
		w.promptPos += pw.n
		close(pw.ch)
	}
}

// ErrWavesEnded is returned by a generation whose request ended while it
// waited for room.
var ErrWavesEnded = errors.New("router: the request ended while this generation waited for room on the nodes")

// roomRefusal reports whether err says the nodes had no room for the
// session: a hop refused with NO_CAPACITY, or no chain was left and some
// holder of the missing blocks is full (others may be left out after
// failures: a failover's, which excludes the node that failed).
func roomRefusal(err error) bool {
	var re *p2p.RemoteError
	var routeErr *RouteError
	return errors.As(err, &re) && re.Code == wire.Code_NO_CAPACITY ||
		errors.As(err, &routeErr) && routeErr.Busy > 0
}

// begin counts a member's first attempt.
func (w *Waves) begin() {
	w.mu.Lock()
	w.opening++
	w.mu.Unlock()
}

// attempted records the end of an attempt (first: the member's first):
// whether its sessions opened.
func (w *Waves) attempted(first, opened bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if first {
		w.opening--
	} else {
		w.turn = false
	}
	if opened {
		w.holding++
		if !first {
			// There may be room for the next one too.
			w.released = true
		}
	}
	w.kick()
}

// wait queues a member refused for room and waits for its turn. It
// returns false (with nothing queued) when the member has nothing to wait
// for: no other member holds or is opening sessions and this refusal was
// not its first.
func (w *Waves) wait(ctx context.Context, first bool) (bool, error) {
	w.mu.Lock()
	if first {
		w.opening--
	} else {
		w.turn = false
	}
	if !first && w.holding == 0 && w.opening == 0 {
		w.kick()
		w.mu.Unlock()
		return false, nil
	}
	ch := make(chan struct{})
	if first {
		w.queue = append(w.queue, ch)
	} else {
		// Refused in its turn: still the first in line.
		w.queue = append([]chan struct{}{ch}, w.queue...)
	}
	w.kick()
	w.mu.Unlock()
	var err error
	select {
	case <-ch:
		return true, nil
	case <-ctx.Done():
		err = context.Cause(ctx)
	case <-w.done:
		err = ErrWavesEnded
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	select {
	case <-ch:
		// Its turn came as it left: pass it on.
		w.turn = false
		w.kick()
	default:
		w.queue = slices.DeleteFunc(w.queue, func(q chan struct{}) bool { return q == ch })
	}
	return false, err
}

// closed records that a member holding sessions closed them.
func (w *Waves) closed() {
	w.mu.Lock()
	w.holding--
	w.released = true
	w.kick()
	w.mu.Unlock()
}

// kick gives the first queued member its turn when room may have come
// free, or when no other member holds or opens sessions (it then tries
// alone). Callers hold w.mu.
func (w *Waves) kick() {
	if w.turn || len(w.queue) == 0 || !(w.released || w.holding == 0 && w.opening == 0) {
		return
	}
	w.turn, w.released = true, false
	close(w.queue[0])
	w.queue = w.queue[1:]
}

// buildIn opens the chain's sessions as a member of w (nil: alone, as
// build does): a refusal for want of room while other members hold
// sessions waits for room and tries again, calling c.waiting (if set) as
// it begins to wait.
func (c *chain) buildIn(ctx context.Context, w *Waves) error {
	if w == nil {
		return c.build(ctx)
	}
	w.begin()
	first := true
	for {
		err := c.build(ctx)
		if err == nil || !roomRefusal(err) || ctx.Err() != nil {
			w.attempted(first, err == nil)
			if err == nil {
				c.waves = w
			}
			return err
		}
		// Waiting, it is not one of the model's generations for the step
		// barrier.
		c.barrier.leave(c.member)
		c.member = nil
		c.r.met.roomWaits.Inc()
		if c.waiting != nil {
			c.waiting()
		}
		ok, werr := w.wait(ctx, first)
		if werr != nil {
			return fmt.Errorf("%w (after: %w)", werr, err)
		}
		if !ok {
			return err
		}
		first = false
		c.member = c.barrier.join()
		// Room came free: try the nodes this generation found full, and
		// those announced full while busy.
		c.mu.Lock()
		for p, e := range c.excluded {
			if e.full {
				delete(c.excluded, p)
			}
		}
		c.mu.Unlock()
		c.afterRelease = true
	}
}

// rebuild opens a new chain after a hop failed and the chain's sessions
// were closed. A member of a Waves gives its room back, waits for its
// turn to replay (paceReplay), and tries again as in a first attempt: the
// nodes that could replace the failed one may be full of its request's
// other generations, and it then waits for one of them to end instead of
// failing the request.
func (c *chain) rebuild(ctx context.Context) error {
	w := c.waves
	if w == nil {
		return c.build(ctx)
	}
	c.waves = nil
	w.closed()
	if err := c.paceReplay(ctx, w); err != nil {
		return err
	}
	return c.buildIn(ctx, w)
}

// paceReplay waits for a failover's turn to replay the member's past
// steps, which send its prompt and the tokens so far to the new nodes at
// once: a prompt step like any other of the batch, and paced as they are
// (prompt). Unpaced, a node that died under many long prompts had them
// all prefilled again at once, queued past their deadlines at the nodes
// left. A member still in its prompt's turn (the prompt step failed)
// keeps it. The wait comes before the new sessions open, so the member
// holds nothing on the nodes that an idle timeout could end, and it
// leaves the step barrier meanwhile, as in a wait for room; the turn ends
// with the step that follows the replay (Forward), or the generation.
func (c *chain) paceReplay(ctx context.Context, w *Waves) error {
	n := 0
	for _, in := range c.history {
		n += len(in.Tokens)
	}
	if c.promptDone != nil || n == 0 {
		return nil
	}
	left := false
	done, err := w.prompt(ctx, n, func() {
		c.r.met.promptWaits.Inc()
		if c.member != nil {
			c.barrier.leave(c.member)
			c.member, left = nil, true
		}
		if c.waiting != nil {
			c.waiting()
		}
	})
	if left {
		c.member = c.barrier.join()
	}
	if err != nil {
		return err
	}
	c.promptDone = done
	return nil
}

// TooLongError refuses a generation longer than every node of some blocks
// accepts for one session (the cache positions of its prompt and max
// tokens exceed the node's whole KV cache, as its announcement says):
// retrying cannot help, a shorter prompt or fewer max tokens can.
type TooLongError struct {
	Model string
	// Need is the positions the generation needs (its prompt and max
	// tokens but the last); Max the most that a chain of the swarm's
	// nodes accepts.
	Need, Max int
}

func (e *TooLongError) Error() string {
	return fmt.Sprintf("router: model %q: the generation needs %d cache positions; the nodes accept at most %d for one", e.Model, e.Need, e.Max)
}

// fits checks the generation's length against the longest session the
// online holders of each block announce they accept; blocks nobody
// holds are left to build's route errors.
func (c *chain) fits() error {
	hs := c.r.snapshot()[c.digest]
	best := make([]int, c.total)
	for _, h := range hs {
		s := h.s
		if !c.serves(s) {
			continue
		}
		for b := max(int(s.First), 0); b < min(int(s.Last), c.total); b++ {
			best[b] = max(best[b], int(s.MaxLength))
		}
	}
	most := -1
	for _, m := range best {
		if m > 0 && (most < 0 || m < most) {
			most = m
		}
	}
	if most >= 0 && most < c.maxLen {
		return &TooLongError{Model: c.name, Need: c.maxLen, Max: most}
	}
	return nil
}
