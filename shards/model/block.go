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
	ws       *tensor.Workspace
	xn       []float32 // normalized input, rows × Dim
	q, att   []float32 // rows × QDim
	k, v     []float32 // rows × KVDim
	o        []float32 // rows × Dim
	gate, up []float32 // rows × FFN
	ropeCS   []float32 // RopeDims cos/sin pairs
	logitsXn []float32 // final-normed rows for the head
	logits   []float32 // head output when the caller does not take it
	x        []float32 // residual stream when it is not returned (last shard)
	attn     attnTask
}

func growTo(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
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

// blockForward runs block b over rows positions of x (updated in place); the
// first row is position pos0 of the session. The block's keys and values
// for these positions are written to lc.
func (s *Shard) blockForward(b *blockWeights, lc *layerCache, x []float32, rows, pos0, maxLen int, sc *scratch) {
	c := &s.cfg
	mm := func(w tensor.Matrix, in, out []float32) { s.matmul(s.pool, sc.ws, w, in, rows, out) }

	// Attention sub-layer.
	rmsNormRows(sc.xn, x, b.attnNorm, rows, c.Dim, c.Eps)
	mm(b.wq, sc.xn, sc.q)
	addBias(sc.q, b.bq, rows)
	mm(b.wk, sc.xn, sc.k)
	addBias(sc.k, b.bk, rows)
	mm(b.wv, sc.xn, sc.v)
	addBias(sc.v, b.bv, rows)
	for i := 0; i < rows; i++ {
		s.rope.angles(pos0+i, sc.ropeCS)
		s.rope.rotate(sc.q[i*c.QDim():(i+1)*c.QDim()], c.Heads, c.HeadDim, sc.ropeCS)
		s.rope.rotate(sc.k[i*c.KVDim():(i+1)*c.KVDim()], c.KVHeads, c.HeadDim, sc.ropeCS)
	}
	lc.store(sc.k, sc.v, pos0, rows, c.KVDim(), maxLen)
	attention(s.pool, &sc.attn, &s.attnBufs, c, lc, sc.q, rows, pos0, sc.att)
	mm(b.wo, sc.att, sc.o)
	addBias(sc.o, b.bo, rows)
	addInto(x[:rows*c.Dim], sc.o)

	// Feed-forward sub-layer (SwiGLU).
	rmsNormRows(sc.xn, x, b.ffnNorm, rows, c.Dim, c.Eps)
	mm(b.wgate, sc.xn, sc.gate)
	mm(b.wup, sc.xn, sc.up)
	swiGLU(sc.gate, sc.up, rows, c.FFN)
	mm(b.wdown, sc.gate, sc.o)
	addInto(x[:rows*c.Dim], sc.o)
}
