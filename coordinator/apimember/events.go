package apimember

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"svc/server"
)

// auditQueue sends the API's refused-request records to the coordinator's
// audit trail. Refused never blocks a request: records wait in a bounded
// queue and go out in batches; when the queue is full (the coordinator is
// away for long) the newest are dropped and counted — the journal on disk
// still has every one of them.
type auditQueue struct {
	send func(ctx context.Context, batch []json.RawMessage) error
	log  *slog.Logger

	mu      sync.Mutex
	queue   []json.RawMessage
	wake    chan struct{}
	dropped atomic.Int64
}

const (
	auditQueueMax = 4096
	auditBatch    = 256
)

func newAuditQueue(send func(context.Context, []json.RawMessage) error, log *slog.Logger) *auditQueue {
	return &auditQueue{send: send, log: log, wake: make(chan struct{}, 1)}
}

// Refused implements server.AuditSink.
func (q *auditQueue) Refused(r server.Record) {
	b, err := json.Marshal(r)
	if err != nil {
		return
	}
	q.mu.Lock()
	if len(q.queue) >= auditQueueMax {
		q.mu.Unlock()
		if q.dropped.Add(1) == 1 {
			q.log.Warn("the audit queue is full; refused requests reach only the journal until the coordinator answers")
		}
		return
	}
	q.queue = append(q.queue, b)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// Dropped is how many records never reached the queue.
func (q *auditQueue) Dropped() int64 { return q.dropped.Load() }

// Pending is how many records wait.
func (q *auditQueue) Pending() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.queue)
}

// run sends batches until ctx ends; a failed batch is retried after a
// pause, in order.
func (q *auditQueue) run(ctx context.Context) {
	retry := time.Second
	failing := false
	for {
		q.mu.Lock()
		n := min(len(q.queue), auditBatch)
		batch := q.queue[:n:n]
		q.mu.Unlock()
		if n == 0 {
			select {
			case <-ctx.Done():
				return
			case <-q.wake:
			}
			continue
		}
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := q.send(sctx, batch)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			if !failing {
				// Once per outage: the journal has them meanwhile.
				q.log.Warn("audit records not delivered; retrying every second", "records", n, "err", err)
				failing = true
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(retry):
			}
			continue
		}
		if failing {
			q.log.Info("audit records delivered again")
			failing = false
		}
		q.mu.Lock()
		q.queue = append([]json.RawMessage(nil), q.queue[n:]...)
		q.mu.Unlock()
	}
}
