package router

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

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
// room while members of its request hold sessions queues (the line, first
// refused first) and tries again when one of them has closed its sessions
// (its generation ended): one member at a time, from the head of the
// line, and after each success the next. A member refused while none of
// its request holds or is opening sessions has no room to wait for (other
// requests fill the nodes): it fails as a lone request would, after one
// more try alone (its first refusal may have been caused by its siblings'
// sessions opening at the same moment).
//
// The line is fair without blocking at its head. A member refused in its
// turn keeps its place; when it heads the line (it needs more room than
// has come free: a long prompt, or many max tokens), the turn passes to
// the one behind it, which may need less, and the round goes on down the
// line while they open their sessions, up to the first refusal behind the
// head. So each release costs two refusals at most, and a prompt that
// fits only when the caches are nearly empty no longer holds up every
// smaller one behind it. It is not starved either: once maxPasses members
// have opened sessions while it waited (first attempts included), the line
// is held for it. Nobody else opens sessions until it has: first attempts
// queue at the end of the line without trying, turns go to it alone, and
// as the members holding sessions end, each a release, it finds its room
// (or, none of them left, tries alone, as above).
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

	mu      sync.Mutex
	opening int           // members in their first attempt
	holding int           // members whose sessions are open
	queue   []*roomWaiter // the line: refused members, first refused first
	seq     uint64        // the place in line the next refused member takes
	turn    bool          // a member is trying again in its turn
	inTurn  *roomWaiter   // that member, out of the line meanwhile
	// released: room may have come free since the last turn began; next
	// is the place in line that turns go to (0, the head, after a
	// release; further down the line while those before it are refused).
	released bool
	next     int
	// passed counts the members that opened sessions while passHead (the
	// place of the member waiting longest) waited; at maxPasses the line
	// is held for it.
	passHead uint64
	passed   int
	// lastClosed: when a member last closed its sessions (settling).
	lastClosed time.Time
}

// roomWaiter is a member in line for room: closing ch is its turn; seq
// its place, which it keeps when refused in its turn.
type roomWaiter struct {
	ch  chan struct{}
	seq uint64
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

// maxPasses bounds how many members may open their sessions while the
// member waiting longest for room still waits (see Waves: the line).
const maxPasses = 8

// begin counts a member's first attempt, and reports whether it may make
// one: not while the line is held for the member waiting longest, which
// it would pass; it then queues without trying (hold).
func (w *Waves) begin() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.held() {
		return false
	}
	w.opening++
	return true
}

// oldest is the place of the member waiting longest for room (in line or
// in its turn). Callers hold w.mu.
func (w *Waves) oldest() (uint64, bool) {
	seq, ok := uint64(math.MaxUint64), false
	if len(w.queue) > 0 {
		seq, ok = w.queue[0].seq, true
	}
	if w.inTurn != nil && w.inTurn.seq < seq {
		seq, ok = w.inTurn.seq, true
	}
	return seq, ok
}

// held reports whether maxPasses members have opened sessions while the
// member waiting longest waited: none more may until it has. Callers
// hold w.mu.
func (w *Waves) held() bool {
	h, ok := w.oldest()
	return ok && h == w.passHead && w.passed >= maxPasses
}

// opened counts the sessions a member (at place seq; MaxUint64 for a
// first attempt) opened, and whether it passed a member that waited
// longer. Callers hold w.mu.
func (w *Waves) opened(seq uint64) {
	w.holding++
	h, ok := w.oldest()
	if !ok || h > seq {
		return
	}
	if h != w.passHead {
		w.passHead, w.passed = h, 0
	}
	w.passed++
}

// attempted records the end of an attempt (first: the member's first)
// that was not refused for room: whether its sessions opened.
func (w *Waves) attempted(first, opened bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	seq := uint64(math.MaxUint64)
	if first {
		w.opening--
	} else {
		w.turn = false
		seq = w.inTurn.seq
		w.inTurn = nil
		// There may be room for the next one too (opened), or the room
		// this one was given is still free (it failed).
		w.released = true
	}
	if opened {
		w.opened(seq)
	}
	w.kick()
}

// wait queues a member refused for room (first: in its first attempt,
// else in its turn) and waits for its turn. It returns false (with
// nothing queued) when the member has nothing to wait for: no other
// member holds or is opening sessions and this refusal was not its
// first.
func (w *Waves) wait(ctx context.Context, first bool) (bool, error) {
	w.mu.Lock()
	var me *roomWaiter
	if first {
		w.opening--
	} else {
		w.turn = false
		me, w.inTurn = w.inTurn, nil
		if w.holding == 0 && w.opening == 0 {
			w.kick()
			w.mu.Unlock()
			return false, nil
		}
	}
	return w.queued(ctx, me)
}

// hold queues a member that begin did not let try (the line is held), at
// the end of the line, and waits for its turn.
func (w *Waves) hold(ctx context.Context) (bool, error) {
	w.mu.Lock()
	return w.queued(ctx, nil)
}

// queued puts a member in line (me: at the place it keeps, refused in its
// turn; nil: a new place at the end), unlocks w.mu, and waits for its
// turn. The head refused in its turn passes the turn on to those behind
// it, which may need less room, unless the line is held for it.
func (w *Waves) queued(ctx context.Context, me *roomWaiter) (bool, error) {
	if me == nil {
		me = &roomWaiter{seq: w.seq}
		w.seq++
		w.queue = append(w.queue, me)
	} else {
		k, _ := slices.BinarySearchFunc(w.queue, me.seq, func(q *roomWaiter, seq uint64) int { return cmp.Compare(q.seq, seq) })
		w.queue = slices.Insert(w.queue, k, me)
		// Refused in its turn: it keeps its place. Unless room came free
		// meanwhile (released: the turns start again from the head), the
		// round goes on behind it only when it heads the line and the line
		// is not held.
		if !w.released && k == 0 && !w.held() {
			w.released, w.next = true, 1
		}
	}
	me.ch = make(chan struct{})
	ch := me.ch
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
		w.turn, w.inTurn, w.released = false, nil, true
	default:
		k := slices.Index(w.queue, me)
		w.queue = slices.Delete(w.queue, k, k+1)
		if k < w.next {
			w.next--
		}
	}
	w.kick()
	return false, err
}

// closed records that a member holding sessions closed them: the turns
// start again from the head of the line.
func (w *Waves) closed() {
	w.mu.Lock()
	w.holding--
	w.lastClosed = time.Now()
	w.released, w.next = true, 0
	w.kick()
	w.mu.Unlock()
}

// Nodes give a closed session's room back asynchronously (they notice the
// closed streams a moment later), so a member trying alone right after the
// last holder closed may be refused for room that is on its way back: it
// tries again after settleDelay, doubling, at most maxSettles times, while
// the last close is under settleWindow old.
const (
	settleWindow = 2 * time.Second
	settleDelay  = 25 * time.Millisecond
	maxSettles   = 5
)

// settling reports whether a member closed its sessions within
// settleWindow.
func (w *Waves) settling() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return !w.lastClosed.IsZero() && time.Since(w.lastClosed) < settleWindow
}

// kick gives a queued member its turn: the one at place next in line when
// room may have come free, or the head when no other member holds or
// opens sessions (it then tries alone). Callers hold w.mu.
func (w *Waves) kick() {
	if w.turn || len(w.queue) == 0 {
		return
	}
	i := w.next
	switch {
	case w.holding == 0 && w.opening == 0:
		i = 0
	case !w.released || i >= len(w.queue) || i > 0 && w.held():
		return
	}
	me := w.queue[i]
	w.queue = slices.Delete(w.queue, i, i+1)
	// The next turn goes to the one behind it, if it opens its sessions.
	w.turn, w.inTurn, w.released, w.next = true, me, false, i
	close(me.ch)
}

// buildIn opens the chain's sessions as a member of w (nil: alone, as
// build does): a refusal for want of room while other members hold
// sessions waits for room and tries again, calling c.waiting (if set) as
// it begins to wait; so does a member that may not try yet (the line is
// held).
func (c *chain) buildIn(ctx context.Context, w *Waves) error {
	if w == nil {
		return c.build(ctx)
	}
	first, try := true, w.begin()
	settles := 0
	var err error // the last refusal
	for {
		if try {
			err = c.build(ctx)
			if err == nil || !roomRefusal(err) || ctx.Err() != nil {
				w.attempted(first, err == nil)
				if err == nil {
					c.waves = w
				}
				return err
			}
		}
		// Waiting, it is not one of the model's generations for the step
		// barrier.
		c.barrier.leave(c.member)
		c.member = nil
		c.r.met.roomWaits.Inc()
		if c.waiting != nil {
			c.waiting()
		}
		var ok bool
		var werr error
		if try {
			ok, werr = w.wait(ctx, first)
		} else {
			ok, werr = w.hold(ctx)
		}
		if werr != nil {
			if err == nil {
				return werr
			}
			return fmt.Errorf("%w (after: %w)", werr, err)
		}
		if !ok {
			// Nothing left to wait for, unless room is still coming back.
			if settles >= maxSettles || !w.settling() {
				return err
			}
			t := time.NewTimer(settleDelay << settles)
			settles++
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return fmt.Errorf("%w (after: %w)", context.Cause(ctx), err)
			case <-w.done:
				t.Stop()
				return fmt.Errorf("%w (after: %w)", ErrWavesEnded, err)
			}
			first, try = true, w.begin()
		} else {
			first, try = false, true
		}
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
	return c.promptTurn(ctx, w, n)
}

// promptTurn waits for the member's turn to send a prompt step of n
// positions (Waves.prompt) and keeps the turn's end in c.promptDone.
// While it waits it counts a prompt wait, calls c.waiting, and is out of
// the step barrier if it was in it (a failover's replay).
func (c *chain) promptTurn(ctx context.Context, w *Waves, n int) error {
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
