package p2p

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"svc/internal/testenv"
	"svc/shards/model"
)

// testShard opens stories260K as one shard with a session per id.
func testShard(t *testing.T, ids ...string) *model.Shard {
	t.Helper()
	m, err := model.Open(testenv.Path(t, "models", "stories260K.gguf"), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	sh, err := m.NewShard(0, m.Config().Blocks, model.ShardOptions{Threads: 2, IdleTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sh.Close)
	for _, id := range ids {
		if err := sh.OpenSession(id, 64); err != nil {
			t.Fatal(err)
		}
	}
	return sh
}

func testMetrics(t *testing.T) *nodeMetrics {
	t.Helper()
	n := &Node{name: "test", first: 0, last: 1}
	met, err := newNodeMetrics(n, prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	return met
}

func histCount(t *testing.T, h prometheus.Histogram) (count uint64, sum float64) {
	t.Helper()
	var m dto.Metric
	if err := h.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetHistogram().GetSampleCount(), m.GetHistogram().GetSampleSum()
}

// setBusy marks the shard busy (steps then queue instead of running at
// once) or free.
func setBusy(q *scheduler, busy bool) {
	q.mu.Lock()
	q.busy = busy
	q.mu.Unlock()
}

// queued waits until the scheduler holds want steps.
func queued(t *testing.T, q *scheduler, want int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		q.mu.Lock()
		n := len(q.queue)
		q.mu.Unlock()
		if n == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d steps queued, want %d", n, want)
		}
		time.Sleep(time.Millisecond)
	}
}

// submitAll starts do for each step and returns a function collecting the
// results.
func submitAll(q *scheduler, ctxs []context.Context, ids []string, ins []model.Input) func() []stepResult {
	return submitRound(q, ctxs, ids, ins, 0)
}

// submitRound is submitAll for steps that announce a round.
func submitRound(q *scheduler, ctxs []context.Context, ids []string, ins []model.Input, round int) func() []stepResult {
	res := make([]stepResult, len(ids))
	var wg sync.WaitGroup
	for i := range ids {
		wg.Go(func() {
			n := len(ins[i].Tokens)
			res[i] = q.do(ctxs[i], ids[i], ins[i], n, round)
		})
	}
	return func() []stepResult { wg.Wait(); return res }
}

// TestSchedulerBatchesWaitingSteps queues steps of several sessions (a
// prompt among decode steps, a step whose stream gave up) before the
// scheduler runs: they are computed as one batch, each stream gets the bits
// a Forward of its own gives, the abandoned one its context error. A lone
// step afterwards is a batch of one. Stopping the scheduler answers what is
// queued and refuses new steps.
func TestSchedulerBatchesWaitingSteps(t *testing.T) {
	ids := []string{"a", "b", "c", "d", "e"}
	sh := testShard(t, ids...)
	ref := testShard(t, ids...)
	met := testMetrics(t)
	q := newScheduler(sh, model.MaxBatch, met)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	gone, giveUp := context.WithCancel(ctx)
	ins := []model.Input{
		{Tokens: []int32{1, 403, 407, 261}, Logits: model.LogitsAll, TopK: 2},
		{Tokens: []int32{7}, Logits: model.LogitsLast, TopK: 3},
		{Tokens: []int32{9}, Logits: model.LogitsLast, OmitLogits: true},
		{Tokens: []int32{11}, Logits: model.LogitsLast},
		{Tokens: []int32{12, 13}, Logits: model.LogitsLast},
	}
	ctxs := []context.Context{ctx, ctx, ctx, gone, ctx}
	// As if a batch were running: the steps queue up.
	setBusy(q, true)
	wait := submitAll(q, ctxs, ids, ins)
	queued(t, q, len(ids))
	giveUp()
	setBusy(q, false)
	done := make(chan struct{})
	go func() { q.run(ctx); close(done) }()
	res := wait()
	for i, r := range res {
		if i == 3 {
			if !errors.Is(r.err, context.Canceled) {
				t.Fatalf("abandoned step: %v", r.err)
			}
			continue
		}
		if r.err != nil {
			t.Fatalf("step %s: %v", ids[i], r.err)
		}
		if r.sessions != 4 || r.positions != 8 {
			t.Fatalf("step %s was in a batch of %d steps, %d positions; want 4, 8", ids[i], r.sessions, r.positions)
		}
		want, err := ref.Forward(ctx, ids[i], ins[i])
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r.out.Logits, want.Logits) || !slices.Equal(r.out.Argmax, want.Argmax) || fmt.Sprint(r.out.Top) != fmt.Sprint(want.Top) {
			t.Fatalf("step %s: batched output differs from Forward alone", ids[i])
		}
	}
	if n, sum := histCount(t, met.batchSessions); n != 1 || sum != 4 {
		t.Fatalf("batch size histogram: %d batches, %v steps; want 1, 4", n, sum)
	}

	// A lone step runs at once, alone, on the caller's goroutine.
	r := q.do(ctx, "b", model.Input{Tokens: []int32{5}, Logits: model.LogitsLast}, 1, 0)
	if r.err != nil || r.sessions != 1 {
		t.Fatalf("lone step: %v, batch of %d", r.err, r.sessions)
	}
	// The loop takes over what queues while a caller computes.
	setBusy(q, true)
	wait = submitAll(q, ctxs[:2], ids[:2], []model.Input{{Tokens: []int32{6}}, {Tokens: []int32{7}}})
	queued(t, q, 2)
	q.idle()
	for i, r := range wait() {
		if r.err != nil || r.sessions != 2 {
			t.Fatalf("step %d queued behind a busy shard: %v, batch of %d", i, r.err, r.sessions)
		}
	}

	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("scheduler did not stop with its context")
	}
	if r := q.do(context.Background(), "b", model.Input{Tokens: []int32{5}}, 1, 0); !errors.Is(r.err, errSchedulerStopped) {
		t.Fatalf("step after stop: %v", r.err)
	}
}

// TestSchedulerLimit checks that a batch holds at most the limit in
// positions (a longer step alone), in arrival order, and that a scheduler
// stopped with steps queued fails them.
func TestSchedulerLimit(t *testing.T) {
	ids := []string{"a", "b", "c", "d"}
	sh := testShard(t, ids...)
	met := testMetrics(t)
	q := newScheduler(sh, 4, met)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ins := []model.Input{
		{Tokens: []int32{1, 2, 3}, Logits: model.LogitsLast},
		{Tokens: []int32{4}, Logits: model.LogitsLast},
		{Tokens: []int32{5, 6, 7, 8, 9, 10}, Logits: model.LogitsLast},
		{Tokens: []int32{11}, Logits: model.LogitsLast},
	}
	ctxs := []context.Context{ctx, ctx, ctx, ctx}
	setBusy(q, true)
	wait := submitAll(q, ctxs, ids, ins)
	queued(t, q, len(ids))
	setBusy(q, false)
	// Arrival order is whatever the goroutines made it; compute the
	// batches take must form from the queue as it stands.
	q.mu.Lock()
	var want [][]string
	var cur []string
	total := 0
	for _, r := range q.queue {
		if len(cur) > 0 && total+r.n > 4 {
			want, cur, total = append(want, cur), nil, 0
		}
		cur, total = append(cur, r.id), total+r.n
	}
	want = append(want, cur)
	q.mu.Unlock()
	var got [][]string
	for {
		b, _ := q.take(time.Now())
		if len(b) == 0 {
			break
		}
		var names []string
		for _, r := range b {
			names = append(names, r.id)
		}
		got = append(got, names)
		q.compute(ctx, b)
		q.idle()
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("batches %v, want %v", got, want)
	}
	for i, r := range wait() {
		if r.err != nil {
			t.Fatalf("step %s: %v", ids[i], r.err)
		}
	}

	// Stopping answers what is still queued.
	bg := []context.Context{context.Background(), context.Background()}
	setBusy(q, true)
	wait = submitAll(q, bg, ids[:2], []model.Input{{Tokens: []int32{1}}, {Tokens: []int32{2}}})
	queued(t, q, 2)
	cancel()
	q.run(ctx)
	for _, r := range wait() {
		if !errors.Is(r.err, errSchedulerStopped) {
			t.Fatalf("step queued at stop: %v", r.err)
		}
	}
}

// TestSchedulerKeepsCohorts checks that the steps computed together wait
// for each other at their next step: a step whose batch mates have not yet
// sent theirs is held (for at most the cohort's gather time), the last
// arrival releases the batch, and a mate whose session ends releases it too.
func TestSchedulerKeepsCohorts(t *testing.T) {
	ids := []string{"a", "b", "c"}
	sh := testShard(t, ids...)
	q := newScheduler(sh, model.MaxBatch, testMetrics(t))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	defer func() { cancel(); <-done }()
	step := func(tok int32) model.Input { return model.Input{Tokens: []int32{tok}, Logits: model.LogitsLast} }
	bg := []context.Context{ctx, ctx, ctx}

	// Three steps computed as one batch form a cohort.
	setBusy(q, true)
	wait := submitAll(q, bg, ids, []model.Input{step(1), step(2), step(3)})
	queued(t, q, 3)
	setBusy(q, false)
	go func() { q.run(ctx); close(done) }()
	q.poke()
	for _, r := range wait() {
		if r.err != nil || r.sessions != 3 {
			t.Fatalf("first batch: %v, %d steps", r.err, r.sessions)
		}
	}
	q.mu.Lock()
	if len(q.awaited) != 3 {
		t.Fatalf("%d sessions awaited, want 3", len(q.awaited))
	}
	for _, c := range q.awaited {
		c.gather = time.Minute // long enough that only arrivals can end it
	}
	q.mu.Unlock()

	// Two come back: they wait for the third, which then joins them.
	wait = submitAll(q, bg[:2], ids[:2], []model.Input{step(4), step(5)})
	queued(t, q, 2)
	time.Sleep(50 * time.Millisecond)
	queued(t, q, 2)
	last := q.do(ctx, "c", step(6), 1, 0)
	if last.err != nil || last.sessions != 3 {
		t.Fatalf("last of the cohort: %v, batch of %d", last.err, last.sessions)
	}
	for _, r := range wait() {
		if r.err != nil || r.sessions != 3 {
			t.Fatalf("cohort step: %v, batch of %d", r.err, r.sessions)
		}
	}

	// Again, but the third session ends instead of sending a step.
	q.mu.Lock()
	for _, c := range q.awaited {
		c.gather = time.Minute
	}
	q.mu.Unlock()
	wait = submitAll(q, bg[:2], ids[:2], []model.Input{step(7), step(8)})
	queued(t, q, 2)
	q.forget("c")
	for _, r := range wait() {
		if r.err != nil || r.sessions != 2 {
			t.Fatalf("cohort step after a mate left: %v, batch of %d", r.err, r.sessions)
		}
	}
	q.forget("a")
	q.forget("b")
	q.mu.Lock()
	n := len(q.awaited)
	q.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d sessions still awaited after all ended", n)
	}
}

// TestSchedulerRounds checks that steps announcing a round (wire.Step.round)
// are computed as one batch although the first finds the shard idle and no
// cohort is known: the first ones wait until the round is complete. A round
// whose last step never comes is computed after the gather bound, and a
// round of one is computed at once.
func TestSchedulerRounds(t *testing.T) {
	ids := []string{"a", "b", "c"}
	sh := testShard(t, ids...)
	q := newScheduler(sh, model.MaxBatch, testMetrics(t))
	q.gatherMax = time.Minute // only arrivals end a wait
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	defer func() { cancel(); <-done }()
	go func() { q.run(ctx); close(done) }()
	step := func(tok int32) model.Input { return model.Input{Tokens: []int32{tok}, Logits: model.LogitsLast} }
	bg := []context.Context{ctx, ctx, ctx}

	wait := submitRound(q, bg[:2], ids[:2], []model.Input{step(1), step(2)}, 3)
	queued(t, q, 2)
	time.Sleep(50 * time.Millisecond)
	queued(t, q, 2) // still waiting for the third
	last := q.do(ctx, "c", step(3), 1, 3)
	if last.err != nil || last.sessions != 3 {
		t.Fatalf("last of the round: %v, batch of %d", last.err, last.sessions)
	}
	for _, r := range wait() {
		if r.err != nil || r.sessions != 3 {
			t.Fatalf("round step: %v, batch of %d", r.err, r.sessions)
		}
	}
	// The three now form a cohort; forget it, so that only rounds count.
	for _, id := range ids {
		q.forget(id)
	}

	// A round of two whose second step never comes.
	q.mu.Lock()
	q.gatherMax = 20 * time.Millisecond
	q.mu.Unlock()
	if r := q.do(ctx, "a", step(4), 1, 2); r.err != nil || r.sessions != 1 {
		t.Fatalf("round whose mate never came: %v, batch of %d", r.err, r.sessions)
	}
	q.forget("a")
	if r := q.do(ctx, "b", step(5), 1, 1); r.err != nil || r.sessions != 1 {
		t.Fatalf("round of one: %v, batch of %d", r.err, r.sessions)
	}
	q.forget("b")
}

// TestSchedulerRoundOverLimit checks that a round larger than a batch is
// computed in full batches without waiting for steps already computed: the
// steps left over from the first batch are computed next, at once.
func TestSchedulerRoundOverLimit(t *testing.T) {
	ids := []string{"a", "b", "c"}
	sh := testShard(t, ids...)
	q := newScheduler(sh, 2, testMetrics(t))
	q.gatherMax = time.Minute // only arrivals end a wait
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	defer func() { cancel(); <-done }()
	step := func(tok int32) model.Input { return model.Input{Tokens: []int32{tok}, Logits: model.LogitsLast} }
	wait := submitRound(q, []context.Context{ctx, ctx, ctx}, ids, []model.Input{step(1), step(2), step(3)}, 3)
	queued(t, q, 3)
	go func() { q.run(ctx); close(done) }()
	q.poke()
	results := make(chan []stepResult, 1)
	go func() { results <- wait() }()
	var res []stepResult
	select {
	case res = <-results:
	case <-time.After(10 * time.Second): // a hang check: the left-over step must not wait for its round
		t.Fatal("steps of the round still waiting")
	}
	sizes := map[int]int{}
	for i, r := range res {
		if r.err != nil {
			t.Fatalf("step %s: %v", ids[i], r.err)
		}
		sizes[r.sessions]++
	}
	if sizes[2] != 2 || sizes[1] != 1 {
		t.Fatalf("batch sizes of the steps %v, want two in a batch of 2 and one alone", sizes)
	}
}
