package model

import (
	"math"
	"sync"

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
	toF16(lc.k[pos0*kvDim:need], k[:n*kvDim])
	toF16(lc.v[pos0*kvDim:need], v[:n*kvDim])
}

// attnBuffers is one worker's scratch memory for attention, recycled
// through the shard's pool so that decoding does not allocate per step.
type attnBuffers struct {
	q16   []uint16
	probs []float32
	acc   []float32
	sum   []float64
}

func (b *attnBuffers) get(hd, positions int) ([]uint16, []float32, []float32, []float64) {
	if cap(b.q16) < hd {
		b.q16, b.acc, b.sum = make([]uint16, hd), make([]float32, hd*4*lanes), make([]float64, hd)
	}
	if cap(b.probs) < positions {
		b.probs = make([]float32, positions)
	}
	return b.q16[:hd], b.probs[:positions], b.acc[:hd*4*lanes], b.sum[:hd]
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
// thread count or on how the blocks are split into shards.
func attention(p *tensor.Pool, t *attnTask, bufs *sync.Pool, c *Config, lc *layerCache, q []float32, n, pos0 int, out []float32) {
	if t.fn == nil {
		t.fn = t.heads
	}
	t.bufs, t.c, t.lc, t.q, t.n, t.pos0, t.out = bufs, c, lc, q, n, pos0, out
	p.For(n*c.Heads, t.fn)
	// Drop the references to the caller's memory until the next call.
	*t = attnTask{fn: t.fn}
}

// attnTask is one attention call in progress, kept in the session's scratch
// so that handing it to the pool does not allocate: heads computes the
// (row, head) pairs [lo, hi).
type attnTask struct {
	bufs    *sync.Pool
	c       *Config
	lc      *layerCache
	q, out  []float32
	n, pos0 int
	fn      func(lo, hi int) // t.heads, bound once
}

func (t *attnTask) heads(lo, hi int) {
	bufs, c, lc, q, n, pos0, out := t.bufs, t.c, t.lc, t.q, t.n, t.pos0, t.out
	hd, kvDim := c.HeadDim, c.KVDim()
	group := c.Heads / c.KVHeads
	scale := 1 / float32(math.Sqrt(float64(hd)))
	// llamafile_sgemm takes batches of two or more positions when the
	// shapes fit its tiles (inner size a multiple of 16, rows of 4); the
	// inner size of the value product is the cache length, which llama.cpp
	// pads to a multiple of 32.
	tinyKQ := n >= 2 && hd%lanes == 0
	tinyKQV := n >= 2 && hd%4 == 0
	b, _ := bufs.Get().(*attnBuffers)
	if b == nil {
		b = &attnBuffers{}
	}
	defer bufs.Put(b)
	padded := (pos0 + n + lanes - 1) / lanes * lanes
	q16, probs, acc, sum := b.get(hd, padded)
	for t := lo; t < hi; t++ {
		i, h := t/c.Heads, t%c.Heads
		kvOff := (h / group) * hd
		toF16(q16, q[i*c.QDim()+h*hd:i*c.QDim()+(h+1)*hd])
		span := pos0 + i + 1 // causal: positions [0, pos0+i]

		// Scores and softmax. Rows are padded to whole vectors with
		// zero probabilities, as llama.cpp pads its cache view.
		mx := float32(math.Inf(-1))
		for j := 0; j < span; j++ {
			kj := lc.k[j*kvDim+kvOff : j*kvDim+kvOff+hd]
			var s float32
			if tinyKQ {
				s = dotF16Tiny(q16, kj)
			} else {
				s = dotF16(q16, kj)
			}
			s *= scale
			probs[j] = s
			mx = max(mx, s)
		}
		end := (span + lanes - 1) / lanes * lanes
		var total float64
		for j0 := 0; j0 < end; j0 += lanes {
			for j := j0; j < j0+lanes; j++ {
				if j < span {
					probs[j] = vexpf(probs[j] - mx)
				} else {
					probs[j] = 0
				}
			}
			total += float64(hsum(probs[j0 : j0+lanes]))
		}
		inv := float32(1 / total)
		for j := 0; j < span; j++ {
			probs[j] = tensor.FP16ToFP32(tensor.FP32ToFP16(probs[j] * inv))
		}

		o := out[i*c.QDim()+h*hd : i*c.QDim()+(h+1)*hd]
		if tinyKQV {
			// tinyBLAS: per output one 16-lane accumulator, position j
			// in lane j%16, positions in order. Masked and padding
			// positions have probability exactly 0 and add nothing.
			ta := acc[:hd*lanes]
			clear(ta)
			for j := 0; j < span; j++ {
				pj, lane := probs[j], j&(lanes-1)
				vj := lc.v[j*kvDim+kvOff : j*kvDim+kvOff+hd]
				for d, v := range vj {
					ta[d*lanes+lane] += pj * tensor.FP16ToFP32(v)
				}
			}
			for d := range o {
				o[d] = hsum(ta[d*lanes : (d+1)*lanes])
			}
			continue
		}

		// Weighted sum of values: ggml_vec_dot_f16 over the cache
		// padded to a multiple of 32 positions, i.e. 64-position
		// vector steps into lane j%64, the tail in float64.
		nkv := max(32, (span+31)/32*32)
		np := min(nkv&^(4*lanes-1), span)
		clear(acc)
		clear(sum)
		for j := 0; j < np; j++ {
			pj, lane := probs[j], j&(4*lanes-1)
			vj := lc.v[j*kvDim+kvOff : j*kvDim+kvOff+hd]
			for d, v := range vj {
				acc[d*4*lanes+lane] += pj * tensor.FP16ToFP32(v)
			}
		}
		if nkv >= 4*lanes {
			for d := range sum {
				sum[d] = float64(fold4(acc[d*4*lanes : (d+1)*4*lanes]))
			}
		}
		for j := np; j < span; j++ {
			pj := probs[j]
			vj := lc.v[j*kvDim+kvOff : j*kvDim+kvOff+hd]
			for d, v := range vj {
				sum[d] += float64(pj * tensor.FP16ToFP32(v))
			}
		}
		for d := range o {
			o[d] = float32(sum[d])
		}
	}
}
