package model

import (
	"math"

	"svc/shards/tensor"
)

// legacyAttention is the attention of the all-Go implementation before the
// kernel sets (commit eefeb99's attnTask.heads, unchanged but for running
// all pairs in one goroutine with its own buffers). The tests hold every
// kernel set to its bits.
func legacyAttention(c *Config, lc *layerCache, q []float32, n, pos0 int, out []float32) {
	b := &legacyBuffers{}
	legacyHeads(b, c, lc, q, n, pos0, out, 0, n*c.Heads)
}

type legacyBuffers struct {
	q16   []uint16
	probs []float32
	acc   []float32
	sum   []float64
}

func (b *legacyBuffers) get(hd, positions int) ([]uint16, []float32, []float32, []float64) {
	if cap(b.q16) < hd {
		b.q16, b.acc, b.sum = make([]uint16, hd), make([]float32, hd*4*lanes), make([]float64, hd)
	}
	if cap(b.probs) < positions {
		b.probs = make([]float32, positions)
	}
	return b.q16[:hd], b.probs[:positions], b.acc[:hd*4*lanes], b.sum[:hd]
}

func legacyHeads(b *legacyBuffers, c *Config, lc *layerCache, q []float32, n, pos0 int, out []float32, lo, hi int) {
	hd, kvDim := c.HeadDim, c.KVDim()
	group := c.Heads / c.KVHeads
	scale := 1 / float32(math.Sqrt(float64(hd)))
	// llamafile_sgemm takes batches of two or more positions when the
	// shapes fit its tiles (inner size a multiple of 16, rows of 4); the
	// inner size of the value product is the cache length, which llama.cpp
	// pads to a multiple of 32.
	tinyKQ := n >= 2 && hd%lanes == 0
	tinyKQV := n >= 2 && hd%4 == 0
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
