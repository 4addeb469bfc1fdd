package model

import "svc/shards/tensor"

// This file is one transformer block, the same for Llama and Qwen2:
//
//	h   = x + Wo · Attention(RoPE(Wq·n + bq), RoPE(Wk·n + bk), Wv·n + bv),   n = RMSNorm(x)·g_attn
//	out = h + Wdown · (SiLU(Wgate·m) ⊙ Wup·m),                              m = RMSNorm(h)·g_ffn
//
// x holds n positions (rows) of the residual stream. Every matrix product
// processes all rows at once (a prompt is a matrix × matrix product).

// scratch is one session's working memory for a batch of rows; it grows to
// the largest batch seen and is reused.
type scratch struct {
	ws                  *tensor.Workspace
	xn                  []float32 // normalized input, rows × Dim
	q, att              []float32 // rows × QDim
	k, v                []float32 // rows × KVDim
	o                   []float32 // rows × Dim
	gate, up            []float32 // rows × FFN
	ropeCS              []float32 // RopeDims cos/sin pairs
	logitsXn            []float32 // final-normed rows for the head
	logits              []float32 // head output when the caller does not take it
	x                   []float32 // residual stream when it is not returned (last shard)
	attn                attnTask
	spans               []span     // the spans of the block being computed
	heads               []headPart // the steps whose rows go through the head
	loraX, loraT, loraD []float32  // an adapter's gathered x, A·x and B·(A·x)
	loraIn              []loraSpan // addLoRA's spans with their pairs
	loraSpans           []int      // the spans sharing one adapter product
	loraDone            []bool     // per span: its adapter product is added
	// Argument lists of the fused products (q/k/v, gate/up).
	many    [3]tensor.Matrix
	manyOut [3][]float32
}

// growTo returns s with length n, reusing its array when it is large
// enough.
func growTo[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func (sc *scratch) reserve(c *Config, rows int) {
	sc.xn = growTo(sc.xn, rows*c.Dim)
	sc.q = growTo(sc.q, rows*c.QDim())
	sc.att = growTo(sc.att, rows*c.QDim())
	sc.k = growTo(sc.k, rows*c.KVDim())
	sc.v = growTo(sc.v, rows*c.KVDim())
	sc.o = growTo(sc.o, rows*c.Dim)
	sc.gate = growTo(sc.gate, rows*c.FFN)
	sc.up = growTo(sc.up, rows*c.FFN)
	sc.ropeCS = growTo(sc.ropeCS, c.RopeDims)
}

// span is one session's share of a block's input rows: rows [row0,
// row0+rows) are its positions [pos0, pos0+rows). Everything but attention
// treats rows alike, so several sessions' spans share each matrix product;
// RoPE, the KV cache (lc, bounded by maxLen) and attention (with the
// session's own task, whose float order depends on its row count) are per
// span.
type span struct {
	row0, rows, pos0, maxLen int
	lc                       *layerCache
	attn                     *attnTask
	lora                     *blockLoRA // the session's adapter pairs, or nil
}

// blockForward runs block b over rows positions of x (updated in place),
// made of the given spans.
func (s *Shard) blockForward(b *blockWeights, x []float32, rows int, spans []span, sc *scratch) {
	c := &s.cfg
	qd, kvd := c.QDim(), c.KVDim()
	mm := func(w tensor.Matrix, in, out []float32) { s.matmul(s.pool, sc.ws, w, in, rows, out) }
	// Products of one input share one call (one activation conversion, one
	// synchronisation of the workers). The argument lists live in the
	// scratch: built on the stack they would escape through the func value.
	mmMany := func(in []float32, w ...tensor.Matrix) {
		k := len(w)
		copy(sc.many[:], w)
		s.matmulMany(s.pool, sc.ws, sc.many[:k], in, rows, sc.manyOut[:k])
	}

	// Attention sub-layer.
	rmsNormRows(sc.xn, x, b.attnNorm, rows, c.Dim, c.Eps)
	sc.manyOut = [3][]float32{sc.q, sc.k, sc.v}
	mmMany(sc.xn, b.wq, b.wk, b.wv)
	s.addLoRA(sc, spans, loraQ, sc.xn, c.Dim, sc.q, qd)
	s.addLoRA(sc, spans, loraK, sc.xn, c.Dim, sc.k, kvd)
	s.addLoRA(sc, spans, loraV, sc.xn, c.Dim, sc.v, kvd)
	addBias(sc.q, b.bq, rows)
	addBias(sc.k, b.bk, rows)
	addBias(sc.v, b.bv, rows)
	for _, g := range spans {
		for i := 0; i < g.rows; i++ {
			r := g.row0 + i
			s.rope.angles(g.pos0+i, sc.ropeCS)
			s.rope.rotate(sc.q[r*qd:(r+1)*qd], c.Heads, c.HeadDim, sc.ropeCS)
			s.rope.rotate(sc.k[r*kvd:(r+1)*kvd], c.KVHeads, c.HeadDim, sc.ropeCS)
		}
		g.lc.store(sc.k[g.row0*kvd:], sc.v[g.row0*kvd:], g.pos0, g.rows, kvd, g.maxLen)
		attention(s.pool, g.attn, s.attnBufs, c, g.lc,
			sc.q[g.row0*qd:(g.row0+g.rows)*qd], g.rows, g.pos0, sc.att[g.row0*qd:(g.row0+g.rows)*qd])
	}
	mm(b.wo, sc.att, sc.o)
	s.addLoRA(sc, spans, loraO, sc.att, qd, sc.o, c.Dim)
	addBias(sc.o, b.bo, rows)
	addInto(x[:rows*c.Dim], sc.o)

	// Feed-forward sub-layer (SwiGLU).
	rmsNormRows(sc.xn, x, b.ffnNorm, rows, c.Dim, c.Eps)
	sc.manyOut = [3][]float32{sc.gate, sc.up}
	mmMany(sc.xn, b.wgate, b.wup)
	s.addLoRA(sc, spans, loraGate, sc.xn, c.Dim, sc.gate, c.FFN)
	s.addLoRA(sc, spans, loraUp, sc.xn, c.Dim, sc.up, c.FFN)
	swiGLU(sc.gate, sc.up, rows, c.FFN)
	mm(b.wdown, sc.gate, sc.o)
	s.addLoRA(sc, spans, loraDown, sc.gate, c.FFN, sc.o, c.Dim)
	addInto(x[:rows*c.Dim], sc.o)
}
