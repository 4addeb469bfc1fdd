package model

import (
	"math"

	"svc/shards/tensor"
)

// layerCache holds one block's keys and values for one session, in f16 as
// llama.cpp keeps them: row p is position p, KVDim wide.
type layerCache struct {
	k, v []uint16
}

// store rounds n rows of keys and values (after RoPE) to f16 and writes
// them at positions [pos0, pos0+n), growing the cache as needed up to
// maxLen positions.
func (lc *layerCache) store(k, v []float32, pos0, n, kvDim, maxLen int) {
	need := (pos0 + n) * kvDim
	if len(lc.k) < need {
		// Grow geometrically but never past the session's reservation.
		c := max(need, min(2*len(lc.k), maxLen*kvDim))
		nk, nv := make([]uint16, c), make([]uint16, c)
		copy(nk, lc.k[:pos0*kvDim])
		copy(nv, lc.v[:pos0*kvDim])
		lc.k, lc.v = nk, nv
	}
	bestAttn.toF16(lc.k[pos0*kvDim:need], k[:n*kvDim])
	bestAttn.toF16(lc.v[pos0*kvDim:need], v[:n*kvDim])
}

// attnBuffers is one worker's scratch memory for attention, recycled
// through the shard's attnBufList so that decoding does not allocate per step.
type attnBuffers struct {
	q16   []uint16
	qf    []float32
	probs []float32
	acc   []float32
	sum   []float64

	// For attnKernels.group: the queries, the scores (position-major),
	// the converted values of one lane and the accumulators of the heads.
	gq16                     []uint16
	gq, gscores, gvals, gacc []float32

	// For attnKernels.tile: q16, the queries, the scores and the
	// accumulators of a tile's pairs.
	tq16                          []uint16
	tq, tscores, tacc, tk, tv, tp []float32
}

// attnBufList recycles attention scratch. Unlike a sync.Pool it keeps its
// buffers across garbage collections: a collection empties a sync.Pool, and
// the next decode step then allocated every worker's buffers anew (the
// engine benchmark counted 0 to 2 allocations per token from this alone).
type attnBufList chan *attnBuffers

// newAttnBufList keeps up to n buffers: one per thread that can run
// attention at once is enough.
func newAttnBufList(n int) attnBufList { return make(attnBufList, n) }

func (l attnBufList) get() *attnBuffers {
	select {
	case b := <-l:
		return b
	default:
		return &attnBuffers{}
	}
}

func (l attnBufList) put(b *attnBuffers) {
	select {
	case l <- b:
	default: // full: more concurrent users than expected; let it go
	}
}

func (b *attnBuffers) get(hd, positions int) ([]uint16, []float32, []float32, []float32, []float64) {
	if cap(b.q16) < hd {
		b.q16, b.qf = make([]uint16, hd), make([]float32, roundUp(hd, lanes))
		b.acc, b.sum = make([]float32, attnAccLen(hd)), make([]float64, hd)
	}
	if cap(b.probs) < positions {
		b.probs = make([]float32, positions)
	}
	return b.q16[:hd], b.qf[:roundUp(hd, lanes)], b.probs[:positions], b.acc[:attnAccLen(hd)], b.sum[:hd]
}

// group returns the scratch of attnKernels.group for head size hd and
// span positions: q16 (hd), the queries (groupHeads·hd), the scores
// (groupHeads per position, padded to 16 positions), the values of one
// accumulator lane (hd per 64 positions) and the accumulators
// (groupHeads·attnAccLen(hd)).
func (b *attnBuffers) group(hd, span int) (q16 []uint16, q, scores, vals, acc []float32) {
	if cap(b.gq16) < hd {
		b.gq16 = make([]uint16, hd)
	}
	if n := groupHeads * hd; cap(b.gq) < n {
		b.gq, b.gacc = make([]float32, n), make([]float32, groupHeads*attnAccLen(hd))
	}
	if n := groupHeads * roundUp(span, lanes); cap(b.gscores) < n {
		b.gscores = make([]float32, n)
	}
	if n := roundUp(span, 4*lanes) / (4 * lanes) * hd; cap(b.gvals) < n {
		b.gvals = make([]float32, n)
	}
	return b.gq16[:hd], b.gq[:groupHeads*hd], b.gscores[:groupHeads*roundUp(span, lanes)],
		b.gvals[:roundUp(span, 4*lanes)/(4*lanes)*hd], b.gacc[:groupHeads*attnAccLen(hd)]
}

// tile returns the scratch of attnKernels.tile: q16 (hd), nq floats of
// queries, ns of scores and na of accumulators.
func (b *attnBuffers) tile(hd, nq, ns, na int) (q16 []uint16, q, scores, acc []float32) {
	b.tq16, b.tq, b.tscores, b.tacc = growTo(b.tq16, hd), growTo(b.tq, nq), growTo(b.tscores, ns), growTo(b.tacc, na)
	return b.tq16, b.tq, b.tscores, b.tacc
}

// tileKeys returns the scratch of a block of attnKernels.tile's keys.
func (b *attnBuffers) tileKeys(n int) []float32 {
	b.tk = growTo(b.tk, n)
	return b.tk
}

// tileLane returns the scratch of one lane of attnKernels.tile's value
// products: nv floats of values and np of probabilities.
func (b *attnBuffers) tileLane(nv, np int) (vals, probs []float32) {
	b.tv, b.tp = growTo(b.tv, nv), growTo(b.tp, np)
	return b.tv, b.tp
}

// attention computes causal grouped-query attention for n query rows whose
// first position is pos0, against the cache positions [0, pos0+n):
//
//	out_h = Σ_j softmax_j(q_h·k_j / √d) v_j
//
// with llama.cpp's roundings: the query and the probabilities are rounded
// to f16 for the products with the f16 cache, the softmax is float32 with
// ggml's vectorized exponential and a float64 sum. The two dot products run
// in the order llama.cpp uses for a batch of this shape (see ggmlmath.go):
// tinyBLAS's for n >= 2, ggml_vec_dot_f16's for a single position. A
// (row, head) pair is computed by one goroutine in an order fixed by its
// position and the batch size alone, so the result does not depend on the
// thread count or on how the blocks are split into shards. The steps run
// on the CPU's best kernel set (attn_kernels.go), which gives the same bits
// as the pure-Go one. A single position on a set with a group kernel is
// computed a key/value head (up to groupHeads query heads) at a time,
// which reads the cache once per key/value head instead of once per query
// head, with the same bits. Several positions on a set with a tile kernel
// (AVX2 and AVX-512; NEON still takes the heads one at a time) are
// computed in tiles of up to tileRows rows and the query heads of one
// key/value head, which reads and converts the cache once per tile
// instead of once per (row, query head), with the same bits: every pair
// keeps tinyBLAS's order, and the causal mask makes a row's positions
// past its own add nothing, as in the per-head kernels.
func attention(p *tensor.Pool, t *attnTask, bufs attnBufList, c *Config, lc *layerCache, q []float32, n, pos0 int, out []float32) {
	if t.fn == nil {
		t.fn = t.heads
	}
	if t.kern == nil {
		t.kern = bestAttn
	}
	if t.gfn == nil {
		t.gfn = t.groups
	}
	t.bufs, t.c, t.lc, t.q, t.n, t.pos0, t.out = bufs, c, lc, q, n, pos0, out
	if t.tfn == nil {
		t.tfn = t.tiles
	}
	if gk, least := t.kern.groupFor(c.HeadDim); n == 1 && gk != nil && c.Heads/c.KVHeads >= least {
		p.For(c.KVHeads*groupsPerKV(c), t.gfn)
	} else if n >= 2 && t.kern.tile != nil && c.HeadDim%lanes == 0 {
		p.For(c.KVHeads*((n+tileRows(c)-1)/tileRows(c)), t.tfn)
	} else {
		p.For(n*c.Heads, t.fn)
	}
	// Drop the references to the caller's memory until the next call.
	*t = attnTask{fn: t.fn, gfn: t.gfn, tfn: t.tfn, kern: t.kern}
}

// groupFor returns the set's group kernel for head size hd (nil if it has
// none) and the fewest query heads it takes.
func (k *attnKernels) groupFor(hd int) (func(q []float32, k, v []uint16, stride int, scale float32, span int, b *attnBuffers, out []float32) bool, int) {
	fn, least := k.group, k.groupLeast
	switch hd {
	case groupHD:
	case 2 * groupHD:
		fn, least = k.group128, k.group128Least
	default:
		return nil, 0
	}
	if least == 0 {
		least = groupMinHeads
	}
	return fn, least
}

// tileRows is the number of rows (positions) in a tile of
// attnKernels.tile: about 24 (row, query head) pairs, three octets.
func tileRows(c *Config) int { return max(1, 24/(c.Heads/c.KVHeads)) }

// groupsPerKV is the number of calls of attnKernels.group for the query
// heads of one key/value head.
func groupsPerKV(c *Config) int {
	return (c.Heads/c.KVHeads + groupHeads - 1) / groupHeads
}

// attnTask is one attention call in progress, kept in the session's scratch
// so that handing it to the pool does not allocate: heads computes the
// (row, head) pairs [lo, hi).
type attnTask struct {
	bufs    attnBufList
	c       *Config
	lc      *layerCache
	q, out  []float32
	n, pos0 int
	fn      func(lo, hi int) // t.heads, bound once
	gfn     func(lo, hi int) // t.groups, bound once
	tfn     func(lo, hi int) // t.tiles, bound once
	kern    *attnKernels     // bestAttn unless a test chose another set
}

func (t *attnTask) heads(lo, hi int) {
	bufs, c, lc, q, n, pos0, out, kern := t.bufs, t.c, t.lc, t.q, t.n, t.pos0, t.out, t.kern
	hd, kvDim := c.HeadDim, c.KVDim()
	group := c.Heads / c.KVHeads
	scale := 1 / float32(math.Sqrt(float64(hd)))
	// llamafile_sgemm takes batches of two or more positions when the
	// shapes fit its tiles (inner size a multiple of 16, rows of 4); the
	// inner size of the value product is the cache length, which llama.cpp
	// pads to a multiple of 32.
	scores := kern.scoresVec
	if n >= 2 && hd%lanes == 0 {
		scores = kern.scoresTiny
	}
	tinyKQV := n >= 2 && hd%4 == 0
	b := bufs.get()
	defer bufs.put(b)
	q16, qf, probs, acc, sum := b.get(hd, roundUp(pos0+n, lanes))
	for t := lo; t < hi; t++ {
		i, h := t/c.Heads, t%c.Heads
		kvOff := (h / group) * hd
		kern.prepQ(q16, qf, q[i*c.QDim()+h*hd:i*c.QDim()+(h+1)*hd])
		span := pos0 + i + 1 // causal: positions [0, pos0+i]
		scores(q16, qf, lc.k[kvOff:], kvDim, scale, probs[:span])
		kern.softmax(probs, span)
		o := out[i*c.QDim()+h*hd : i*c.QDim()+(h+1)*hd]
		if tinyKQV {
			kern.kqvTiny(probs[:span], lc.v[kvOff:], kvDim, acc, o)
		} else {
			kern.kqvVec(probs[:span], lc.v[kvOff:], kvDim, acc, sum, o)
		}
	}
}

// groups computes the head groups [lo, hi) of a single position (row 0):
// group u is up to groupHeads consecutive query heads of key/value head
// u/groupsPerKV.
func (t *attnTask) groups(lo, hi int) {
	c, lc := t.c, t.lc
	hd, kvDim := c.HeadDim, c.KVDim()
	gk, least := t.kern.groupFor(hd)
	group, per := c.Heads/c.KVHeads, groupsPerKV(c)
	scale := 1 / float32(math.Sqrt(float64(hd)))
	span := t.pos0 + 1
	b := t.bufs.get()
	defer t.bufs.put(b)
	for u := lo; u < hi; u++ {
		kv, first := u/per, (u%per)*groupHeads
		h0, h1 := kv*group+first, kv*group+min(group, first+groupHeads)
		q, out := t.q[h0*hd:h1*hd], t.out[h0*hd:h1*hd]
		// The group kernel computes whole blocks of heads: for fewer than
		// its least the per-head kernels do less work. They also take the
		// shapes the group kernel does not.
		if h1-h0 < least || !gk(q, lc.k[kv*hd:], lc.v[kv*hd:], kvDim, scale, span, b, out) {
			t.heads(h0, h1)
		}
	}
}

// tiles computes the tiles [lo, hi) of several positions: tile u is the
// query heads of key/value head u%KVHeads for up to tileRows rows, the
// last rows (the longest spans) first so that the pool's last chunks are
// the short ones.
func (t *attnTask) tiles(lo, hi int) {
	c, lc, kern := t.c, t.lc, t.kern
	hd, kvDim, qDim := c.HeadDim, c.KVDim(), c.QDim()
	group, rows := c.Heads/c.KVHeads, tileRows(c)
	nt := (t.n + rows - 1) / rows
	scale := 1 / float32(math.Sqrt(float64(hd)))
	b := t.bufs.get()
	defer t.bufs.put(b)
	for u := lo; u < hi; u++ {
		kv, r0 := u%c.KVHeads, (nt-1-u/c.KVHeads)*rows
		r1 := min(t.n, r0+rows)
		off := r0*qDim + kv*group*hd
		if !kern.tile(t.q[off:], qDim, r1-r0, group, hd, lc.k[kv*hd:], lc.v[kv*hd:], kvDim, t.pos0+r0+1, scale, b, t.out[off:]) {
			for r := r0; r < r1; r++ {
				t.heads(r*c.Heads+kv*group, r*c.Heads+(kv+1)*group)
			}
		}
	}
}
