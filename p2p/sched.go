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
// waiting session. A step that finds the shard idle is computed at once:
// nothing waits for company, so batches form only from steps that arrive
// while the shard is busy.
// ForwardBatch gives each step the bits it would get alone.

// errSchedulerStopped answers steps queued or submitted after the node
// began closing.
var errSchedulerStopped = errors.New("node is shutting down")

// stepReq is one stream's step waiting for, or in, a batch.
type stepReq struct {
	ctx    context.Context // the stream's: it cancels this step alone
	id     string
	in     model.Input
	n      int // positions
	queued time.Time
	done   chan stepResult // buffered: the scheduler never blocks on it
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

	mu      sync.Mutex
	queue   []*stepReq
	busy    bool // a batch is being computed (by the loop or a caller)
	stopped bool
	wake    chan struct{} // capacity 1: "the queue may be non-empty"
}

func newScheduler(sh *model.Shard, limit int, met *nodeMetrics) *scheduler {
	return &scheduler{shard: sh, limit: max(limit, 1), met: met, wake: make(chan struct{}, 1)}
}

// do computes a step and waits for its result or for ctx to end. A step
// that finds the shard idle and nobody waiting is computed at once on the
// caller's goroutine (no hand-off, so a lone stream pays nothing for the
// scheduler); otherwise it is queued for the next batch. A step given up on
// is skipped if still queued, or dropped from its batch at the next block
// (ForwardBatch checks each step's context).
func (q *scheduler) do(ctx context.Context, id string, in model.Input, n int) stepResult {
	r := &stepReq{ctx: ctx, id: id, in: in, n: n, queued: time.Now(), done: make(chan stepResult, 1)}
	q.mu.Lock()
	if q.stopped {
		q.mu.Unlock()
		return stepResult{err: fmt.Errorf("session %q: %w", id, errSchedulerStopped)}
	}
	if !q.busy && len(q.queue) == 0 {
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
func (q *scheduler) idle() {
	q.mu.Lock()
	q.busy = false
	pending := len(q.queue) > 0
	q.mu.Unlock()
	if pending {
		q.poke()
	}
}

// run computes batches until ctx ends, then fails whatever is still queued.
func (q *scheduler) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			q.stop()
			return
		case <-q.wake:
		}
		for ctx.Err() == nil {
			batch := q.take()
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
// loop when done) or nothing is queued.
func (q *scheduler) take() []*stepReq {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.busy {
		return nil
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
	q.busy = len(batch) > 0
	return batch
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
