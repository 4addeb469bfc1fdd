package model

import (
	"context"
	"fmt"
	"sort"

	"svc/shards/tensor"
)

// Batching several sessions at one shard: the new positions of every session
// in a ForwardBatch are stacked into one activation matrix, so each weight
// matrix is read once for all of them, while RoPE, the KV cache and
// attention stay per session. A position's bits are those it gets from a
// Forward of its own session's step:
//
//   - a session's step is cut into the same maxBatch chunks as Forward cuts
//     it, and chunk k of a session is computed (through every block) before
//     chunk k+1, as in Forward;
//   - attention is called per session with that session's chunk size, so it
//     takes the order Forward's chunk would (tinyBLAS for two or more rows,
//     ggml_vec_dot_f16 for one);
//   - the matrix products see more positions than Forward's would, which
//     changes nothing for the types tensor.BatchInvariant accepts. For the
//     others (BF16) the order depends only on whether a call has one
//     position or more, so a chunk of two or more rows may share a product
//     with other such chunks, while a one-row chunk (a decode step) is
//     computed alone, as Forward would. For the head, whose rows are the
//     selected logits rows, a BF16 head is applied per session.

// MaxBatch is the most positions a shard computes in one pass (Forward cuts
// longer steps into chunks of this size); a scheduler that fills batches up
// to it keeps every batch within the working memory of one long prompt.
const MaxBatch = maxBatch

// BatchStep is one session's step in a ForwardBatch.
type BatchStep struct {
	ID string
	In Input
	// Ctx, when set, cancels this step alone (the ForwardBatch context
	// cancels all of them).
	Ctx context.Context
}

// batchItem is a step of a ForwardBatch in progress.
type batchItem struct {
	step   *BatchStep
	ss     *session  // nil when the lookup failed
	locked bool      // the session's semaphore is held
	n      int       // positions of the step
	x      []float32 // the step's residual stream, n×Dim
	done   int       // positions already computed
	out    *Output
	err    error
	// cached: the step is a session's first, looked up in the prompt
	// cache under key; hit: it was found there and is not computed.
	cached, hit bool
	key         promptKey
	// lead is an earlier step of the batch with the same key: this one
	// is not computed but copied from it (unless lead fails). entry is
	// this step's copy once made, for its followers.
	lead  *batchItem
	entry *promptEntry
}

// segment is a chunk of one session's step inside a round: rows [row0,
// row0+rows) of the round's matrix, the session's positions [pos0,
// pos0+rows).
type segment struct {
	it         *batchItem
	row0, rows int
	pos0       int
}

// ForwardBatch runs one step for each of several sessions together and
// returns, for each step, what Forward would have returned for it alone, bit
// for bit. A session may appear once per call. The errors of one step (an
// unknown session, bad input, too many positions, its Ctx ending) fail that
// step alone, which then leaves its session as it was; ctx ending fails
// every step not yet finished. Working memory is bounded: a pass computes at
// most MaxBatch positions (or one longer step's first MaxBatch), further
// passes taking the rest.
func (s *Shard) ForwardBatch(ctx context.Context, steps []BatchStep) ([]*Output, []error) {
	outs, errs := make([]*Output, len(steps)), make([]error, len(steps))
	items := make([]batchItem, len(steps))
	for i := range steps {
		it := &items[i]
		it.step = &steps[i]
		for j := range i {
			if steps[j].ID == steps[i].ID {
				it.err = fmt.Errorf("model: session %q: %w: the session has another step in the same batch", steps[i].ID, ErrBadInput)
				break
			}
		}
		if it.err != nil {
			continue
		}
		it.ss, it.err = s.acquireLookup(steps[i].ID)
	}
	defer func() {
		for i := range items {
			it := &items[i]
			if it.locked {
				<-it.ss.sem
			}
			if it.ss != nil {
				s.release(it.ss)
			}
		}
	}()
	s.lockSessions(ctx, items)

	for i := range items {
		it := &items[i]
		if it.err != nil {
			continue
		}
		if it.n, it.err = s.checkInput(it.ss, it.step.In); it.err != nil {
			continue
		}
		it.out = &Output{}
		if it.ss.n == 0 && s.pcache.enabled() {
			it.cached, it.key = true, s.pcache.key(it.ss, it.step.In)
			if it.lead = leadOf(items[:i], it.key); it.lead != nil {
				// Copied from the lead once it is computed; the rounds
				// skip a step with nothing left.
				it.done = it.n
				continue
			}
			if it.hit = s.pcache.load(it.key, it.ss, s.cfg.KVDim(), it.out); it.hit {
				it.x, it.done, it.out.Cached = it.out.Hidden, it.n, it.n
				continue
			}
		}
		it.x = s.residual(it.ss, it.n, nil)
		if it.err = s.embed(it.ss, it.step.In, it.x); it.err != nil {
			continue
		}
	}

	bs := s.batchScratch()
	defer s.putBatchScratch(bs)
	for {
		for {
			segs, rows := s.nextRound(items, bs.segs[:0])
			bs.segs = segs
			if len(segs) == 0 {
				break
			}
			s.round(ctx, &bs.sc, segs, rows)
		}
		if !s.orphans(items) {
			break
		}
	}

	kvd := s.cfg.KVDim()
	for i := range items {
		it := &items[i]
		if it.err != nil {
			errs[i] = it.err
			continue
		}
		if it.lead != nil {
			// The lead comes earlier and is done: its own Output is
			// final, its entry made if it has followers.
			l := it.lead
			if l.entry == nil {
				l.entry = newPromptEntry(l.key, l.ss, l.n, kvd, l.out)
			}
			l.entry.apply(it.ss, kvd, it.out)
			it.x, it.out.Cached = it.out.Hidden, it.n
			s.pcache.count(true)
		}
		it.ss.n += it.n
		if !s.IsLast() {
			it.out.Hidden = it.x
		}
		if it.cached && !it.hit && it.lead == nil {
			it.entry = s.pcache.store(it.key, it.ss, it.n, kvd, it.out)
		}
		outs[i] = it.out
	}
	return outs, errs
}

// leadOf returns the first of the earlier steps that computes the first
// step key, or nil.
func leadOf(earlier []batchItem, key promptKey) *batchItem {
	for j := range earlier {
		e := &earlier[j]
		if e.err == nil && e.cached && !e.hit && e.lead == nil && e.key == key {
			return e
		}
	}
	return nil
}

// orphans makes the steps waiting for a lead that failed (its context
// ended) compute themselves, and reports whether there are any.
func (s *Shard) orphans(items []batchItem) bool {
	more := false
	for i := range items {
		it := &items[i]
		if it.lead == nil || it.lead.err == nil || it.err != nil {
			continue
		}
		it.lead, it.done = nil, 0
		s.pcache.count(false)
		it.x = s.residual(it.ss, it.n, nil)
		if it.err = s.embed(it.ss, it.step.In, it.x); it.err != nil {
			continue
		}
		more = true
	}
	return more
}

// lockSessions takes the semaphores of the sessions found, in the order of
// their ids so that two batches sharing sessions cannot wait for each other.
func (s *Shard) lockSessions(ctx context.Context, items []batchItem) {
	order := make([]int, 0, len(items))
	for i := range items {
		if items[i].err == nil {
			order = append(order, i)
		}
	}
	sort.Slice(order, func(a, b int) bool { return items[order[a]].step.ID < items[order[b]].step.ID })
	for _, i := range order {
		it := &items[i]
		select {
		case it.ss.sem <- struct{}{}:
			it.locked = true
		case <-ctx.Done():
			it.err = fmt.Errorf("model: session %q: %w", it.ss.id, ctx.Err())
		case <-doneOf(it.step.Ctx):
			it.err = fmt.Errorf("model: session %q: %w", it.ss.id, it.step.Ctx.Err())
		}
	}
}

// doneOf is ctx.Done(), or a channel that never closes for a nil ctx.
func doneOf(ctx context.Context) <-chan struct{} {
	if ctx == nil {
		return nil
	}
	return ctx.Done()
}

// stepErr is the error that ends a step early, if its context or the
// batch's has ended.
func stepErr(ctx context.Context, it *batchItem) error {
	err := ctx.Err()
	if err == nil && it.step.Ctx != nil {
		err = it.step.Ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("model: session %q: %w", it.ss.id, err)
	}
	return nil
}

// nextRound picks the chunks computed together next: each unfinished step's
// next chunk (as Forward cuts it), in step order, while the round stays
// within maxBatch rows; the first chunk is always taken. When some product
// is not batch-invariant, a one-row chunk is computed alone (see the top of
// this file).
func (s *Shard) nextRound(items []batchItem, segs []segment) ([]segment, int) {
	rows := 0
	for i := range items {
		it := &items[i]
		if it.err != nil || it.done >= it.n {
			continue
		}
		k := min(maxBatch, it.n-it.done)
		if len(segs) > 0 {
			if rows+k > maxBatch || (!s.blocksInvariant && k == 1) {
				continue
			}
		}
		segs = append(segs, segment{it: it, row0: rows, rows: k, pos0: it.ss.n + it.done})
		rows += k
		if !s.blocksInvariant && k == 1 {
			break
		}
	}
	return segs, rows
}

// round computes one chunk of each segment through every block and, on the
// last shard, its logits. A segment whose context ends is dropped from the
// round (its step fails; the others go on).
func (s *Shard) round(ctx context.Context, sc *scratch, segs []segment, rows int) {
	c := &s.cfg
	d := c.Dim
	sc.x = growTo(sc.x, rows*d)
	for _, g := range segs {
		copy(sc.x[g.row0*d:(g.row0+g.rows)*d], g.it.x[g.it.done*d:])
	}
	sc.reserve(c, rows)
	for l, b := range s.blocks {
		segs, rows = s.dropEnded(ctx, sc.x, segs, rows)
		if len(segs) == 0 {
			return
		}
		sc.spans = sc.spans[:0]
		for _, g := range segs {
			ss := g.it.ss
			// The session's own attention task: its semaphore is held.
			sc.spans = append(sc.spans, span{row0: g.row0, rows: g.rows, pos0: g.pos0, maxLen: ss.maxLen, lc: &ss.layers[l], attn: &ss.sc.attn, lora: ss.blockAdapter(l)})
		}
		s.blockForward(b, sc.x, rows, sc.spans, sc)
	}
	for _, g := range segs {
		it := g.it
		if !s.IsLast() {
			copy(it.x[it.done*d:(it.done+g.rows)*d], sc.x[g.row0*d:])
		}
	}
	if s.IsLast() {
		s.batchLogits(sc, segs)
	}
	for _, g := range segs {
		g.it.done += g.rows
	}
}

// dropEnded removes the segments whose step's context has ended, moving the
// later rows of x up; it returns the remaining segments and rows.
func (s *Shard) dropEnded(ctx context.Context, x []float32, segs []segment, rows int) ([]segment, int) {
	d := s.cfg.Dim
	kept := segs[:0]
	shift := 0
	for _, g := range segs {
		if err := stepErr(ctx, g.it); err != nil {
			g.it.err = err
			shift += g.rows
			continue
		}
		if shift > 0 {
			copy(x[(g.row0-shift)*d:], x[g.row0*d:(g.row0+g.rows)*d])
			g.row0 -= shift
		}
		kept = append(kept, g)
	}
	return kept, rows - shift
}

// batchLogits applies the output norm and head to the rows of the round
// that each step's logits mode selects. With a batch-invariant head all
// selected rows go through one product; otherwise each segment's rows go
// through their own, exactly as Forward's logits does.
func (s *Shard) batchLogits(sc *scratch, segs []segment) {
	d := s.cfg.Dim
	if !s.headInvariant {
		for _, g := range segs {
			s.logits(sc, sc.x[g.row0*d:], g.it.done, g.rows, g.it.n, g.it.step.In, g.it.out, g.it.ss.headAdapter())
		}
		return
	}
	sc.heads = sc.heads[:0]
	for _, g := range segs {
		lo, k := selected(g.it.step.In, g.it.done, g.rows, g.it.n)
		sc.heads = append(sc.heads, headPart{x: sc.x[(g.row0+lo)*d : (g.row0+lo+k)*d], k: k, in: g.it.step.In, out: g.it.out, lora: g.it.ss.headAdapter()})
	}
	s.applyHead(sc, sc.heads)
}

// batchScratch is a ForwardBatch's working memory: the round's activations
// and the list of its segments, grown to the largest round seen.
type batchScratch struct {
	sc   scratch
	segs []segment
}

// batchScratch takes an idle ForwardBatch scratch (or a new one); each
// concurrent ForwardBatch needs its own.
func (s *Shard) batchScratch() *batchScratch {
	s.batchMu.Lock()
	defer s.batchMu.Unlock()
	if k := len(s.batchFree); k > 0 {
		sc := s.batchFree[k-1]
		s.batchFree = s.batchFree[:k-1]
		return sc
	}
	return &batchScratch{sc: scratch{ws: tensor.NewWorkspace()}}
}

func (s *Shard) putBatchScratch(sc *batchScratch) {
	s.batchMu.Lock()
	s.batchFree = append(s.batchFree, sc)
	s.batchMu.Unlock()
}
