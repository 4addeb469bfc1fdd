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
// waiting session. A lone step is taken at once: nothing waits for company,
// so batches form only from steps that arrive while the shard is busy.
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
	stopped bool
	wake    chan struct{} // capacity 1: "the queue may be non-empty"
}

func newScheduler(sh *model.Shard, limit int, met *nodeMetrics) *scheduler {
	return &scheduler{shard: sh, limit: max(limit, 1), met: met, wake: make(chan struct{}, 1)}
}

// do queues a step and waits for its result or for ctx to end. A step given
// up on is skipped if still queued, or dropped from its batch at the next
// block (ForwardBatch checks each step's context).
func (q *scheduler) do(ctx context.Context, id string, in model.Input, n int) stepResult {
	r := &stepReq{ctx: ctx, id: id, in: in, n: n, queued: time.Now(), done: make(chan stepResult, 1)}
	q.mu.Lock()
	if q.stopped {
		q.mu.Unlock()
		return stepResult{err: fmt.Errorf("session %q: %w", id, errSchedulerStopped)}
	}
	q.queue = append(q.queue, r)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
	select {
	case res := <-r.done:
		return res
	case <-ctx.Done():
		return stepResult{err: fmt.Errorf("session %q: %w", id, ctx.Err())}
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
		}
	}
}

// take removes the next batch from the queue: steps in arrival order while
// their positions fit in the limit (the first is always taken). Steps whose
// stream has given up are answered and dropped.
func (q *scheduler) take() []*stepReq {
	q.mu.Lock()
	defer q.mu.Unlock()
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
