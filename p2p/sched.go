package p2p

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"svc/shards/model"
)

// The scheduler batches a node's work: the forward steps of all streams go
// through one queue, and whenever the shard is free the scheduler takes
// everything queued (up to a bound in positions) and computes it with one
// model.Shard.ForwardBatch, so that one read of the weights serves every
// waiting session. ForwardBatch gives each step the bits it would get alone.
//
// A step that finds the shard idle is computed at once, with one exception
// that keeps batches together: the steps computed in one batch (a cohort)
// come back at nearly the same time for their next step, and if the first
// to arrive started alone the cohort would split, and split again at the
// next node. So a step whose cohort still has members that have not sent
// their next step waits for them, for at most half of the cohort's
// last compute time (and maxGather). A lone stream is a cohort of one and
// never waits; a session that ends leaves its cohort.

// A step may also say how many steps its caller sent at the same time
// (wire.Step.round: the router's barrier released them together): it then
// waits, at most maxGather, until that many steps are queued, so that the
// round is computed as one batch from its first step on, which cohorts
// learn only from a batch. A round of one never waits.

// maxGather bounds how long a step waits for its cohort or round.
const maxGather = 20 * time.Millisecond

// cohort is the steps of one batch, as far as the next steps of their
// sessions are concerned.
type cohort struct {
	missing int           // sessions that have not yet sent their next step
	gather  time.Duration // how long a returning member waits for the rest
}

// errSchedulerStopped answers steps queued or submitted after the node
// began closing.
var errSchedulerStopped = errors.New("node is shutting down")

// stepReq is one stream's step waiting for, or in, a batch.
type stepReq struct {
	ctx    context.Context // the stream's: it cancels this step alone
	id     string
	in     model.Input
	n      int // positions
	round  int // steps its caller sent together with it (0: unknown)
	queued time.Time
	done   chan stepResult // buffered: the scheduler never blocks on it
	cohort *cohort         // the batch of the session's previous step, if any
}

// stepResult is a step's output with the batch it was computed in.
type stepResult struct {
	out       *model.Output
	err       error
	compute   time.Duration // the batch's ForwardBatch time
	sessions  int           // steps in the batch
	positions int           // positions in the batch
}

// scheduler serializes and batches the forward steps of one shard.
type scheduler struct {
	shard *model.Shard
	limit int // most positions per batch (a longer step runs alone)
	met   *nodeMetrics
	// gatherMax bounds the wait for a cohort or round (maxGather; tests
	// lengthen it so that only arrivals end a wait). Guarded by mu.
	gatherMax time.Duration

	mu      sync.Mutex
	queue   []*stepReq
	busy    bool // a batch is being computed (by the loop or a caller)
	stopped bool
	wake    chan struct{}      // capacity 1: "the queue may be non-empty"
	awaited map[string]*cohort // sessions whose next step their cohort awaits
}

func newScheduler(sh *model.Shard, limit int, met *nodeMetrics) *scheduler {
	return &scheduler{shard: sh, limit: max(limit, 1), met: met, gatherMax: maxGather, wake: make(chan struct{}, 1), awaited: map[string]*cohort{}}
}

// arrived takes session id out of the count of its cohort's missing
// members and returns that cohort (nil if none). Callers hold q.mu.
func (q *scheduler) arrived(id string) *cohort {
	c := q.awaited[id]
	if c != nil {
		delete(q.awaited, id)
		c.missing--
	}
	return c
}

// forget is called when a session ends: its cohort stops waiting for it.
func (q *scheduler) forget(id string) {
	q.mu.Lock()
	q.arrived(id)
	q.mu.Unlock()
	// Queued steps may have been waiting for this one.
	q.poke()
}

// do computes a step and waits for its result or for ctx to end. A step
// that finds the shard idle and nobody waiting is computed at once on the
// caller's goroutine (no hand-off, so a lone stream pays nothing for the
// scheduler); otherwise it is queued for the next batch. A step given up on
// is skipped if still queued, or dropped from its batch at the next block
// (ForwardBatch checks each step's context).
func (q *scheduler) do(ctx context.Context, id string, in model.Input, n, round int) stepResult {
	r := &stepReq{ctx: ctx, id: id, in: in, n: n, round: round, queued: time.Now(), done: make(chan stepResult, 1)}
	q.mu.Lock()
	if q.stopped {
		q.mu.Unlock()
		return stepResult{err: fmt.Errorf("session %q: %w", id, errSchedulerStopped)}
	}
	r.cohort = q.arrived(id)
	if !q.busy && len(q.queue) == 0 && (r.cohort == nil || r.cohort.missing == 0) && r.round <= 1 {
		q.busy = true
		q.mu.Unlock()
		// The stream's context is a child of the node's, so the node
		// closing ends this batch too.
		q.compute(ctx, []*stepReq{r})
		q.idle()
		return <-r.done
	}
	q.queue = append(q.queue, r)
	q.mu.Unlock()
	q.poke()
	select {
	case res := <-r.done:
		return res
	case <-ctx.Done():
		return stepResult{err: fmt.Errorf("session %q: %w", id, ctx.Err())}
	}
}

// poke tells the loop that there may be work.
func (q *scheduler) poke() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// idle marks the shard free and hands what queued meanwhile to the loop.
// With nothing queued, the next step is at least a network round trip
// away (in a chain, the other nodes compute it first), so the shard's pool
// workers park at once rather than spin on a core that those nodes, on a
// shared machine, need now.
func (q *scheduler) idle() {
	q.mu.Lock()
	q.busy = false
	pending := len(q.queue) > 0
	q.mu.Unlock()
	if pending {
		q.poke()
		return
	}
	q.shard.Rest()
}

// run computes batches until ctx ends, then fails whatever is still queued.
func (q *scheduler) run(ctx context.Context) {
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			q.stop()
			return
		case <-q.wake:
		case <-timer.C:
		}
		for ctx.Err() == nil {
			batch, wait := q.take(time.Now())
			if wait > 0 {
				// Gathering a cohort: come back when it is complete
				// (poked by its last arrival) or the wait is over.
				timer.Reset(wait)
				break
			}
			if len(batch) == 0 {
				break
			}
			q.compute(ctx, batch)
			q.idle()
		}
	}
}

// take claims the shard and removes the next batch from the queue: steps
// in arrival order while their positions fit in the limit (the first is
// always taken). Steps whose stream has given up are answered and dropped.
// It returns nothing when the shard is busy (whoever holds it pokes the
// loop when done) or nothing is queued, and nothing but the time left to
// wait while a queued step's cohort or round is incomplete (see the top of
// the file).
func (q *scheduler) take(now time.Time) ([]*stepReq, time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.busy || len(q.queue) == 0 {
		return nil, 0
	}
	var gather time.Duration
	live, positions := 0, 0
	for _, r := range q.queue {
		if r.ctx.Err() == nil {
			live++
			positions += r.n
		}
	}
	for _, r := range q.queue {
		if r.ctx.Err() != nil {
			continue
		}
		if c := r.cohort; c != nil && c.missing > 0 {
			gather = max(gather, c.gather)
		}
		if r.round > live && positions < q.limit {
			// Its round is incomplete, and the queue does not fill a
			// batch yet.
			gather = q.gatherMax
		}
	}
	if wait := q.queue[0].queued.Add(gather).Sub(now); wait > 0 {
		return nil, wait
	}
	var batch []*stepReq
	total, i := 0, 0
	for ; i < len(q.queue); i++ {
		r := q.queue[i]
		if err := r.ctx.Err(); err != nil {
			r.done <- stepResult{err: fmt.Errorf("session %q: %w", r.id, err)}
			continue
		}
		if len(batch) > 0 && total+r.n > q.limit {
			break
		}
		batch = append(batch, r)
		total += r.n
	}
	rest := copy(q.queue, q.queue[i:])
	clear(q.queue[rest:])
	q.queue = q.queue[:rest]
	for _, r := range q.queue {
		// Left over from a full batch: its round's other steps are
		// computing now, so it waits for no more.
		r.round = 0
	}
	q.busy = len(batch) > 0
	return batch, 0
}

// compute runs one batch and answers each of its steps.
func (q *scheduler) compute(ctx context.Context, batch []*stepReq) {
	steps := make([]model.BatchStep, len(batch))
	positions := 0
	now := time.Now()
	for i, r := range batch {
		steps[i] = model.BatchStep{ID: r.id, In: r.in, Ctx: r.ctx}
		positions += r.n
		q.met.queueWait.Observe(now.Sub(r.queued).Seconds())
	}
	outs, errs := q.shard.ForwardBatch(ctx, steps)
	el := time.Since(now)
	q.met.batchSessions.Observe(float64(len(batch)))
	q.met.batchPositions.Observe(float64(positions))
	// The sessions that go on form the cohort their next steps wait for.
	// (A session's stream ends, and forgets it, only after its answer.)
	q.mu.Lock()
	c := &cohort{gather: min(el/2, q.gatherMax)}
	for i, r := range batch {
		if errs[i] == nil && len(batch) > 1 {
			q.awaited[r.id] = c
			c.missing++
		}
	}
	q.mu.Unlock()
	for i, r := range batch {
		r.done <- stepResult{out: outs[i], err: errs[i], compute: el, sessions: len(batch), positions: positions}
	}
}

// stop fails the queued steps and refuses new ones.
func (q *scheduler) stop() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.stopped = true
	for _, r := range q.queue {
		r.done <- stepResult{err: fmt.Errorf("session %q: %w", r.id, errSchedulerStopped)}
	}
	q.queue = nil
}
