package model

import (
	"math"

	"svc/shards/tensor"
)

// attnKernels is one implementation of the steps of attention for a single
// (query row, head) pair (and of SiLU, which uses the same exponential). Every implementation performs the same float32 and
// float64 operations in the same order (the orders of llama.cpp described
// in ggmlmath.go); they differ only in the instructions, so all of them give
// the same bits. genericAttn is the reference; attn_amd64.go and
// attn_arm64.go add SIMD sets chosen from the CPU's features (none under
// -tags purego).
type attnKernels struct {
	name string

	// prepQ rounds the query head q to f16 (q16) and also keeps the rounded
	// values as float32 in qf, zero-padded to a multiple of 16.
	prepQ func(q16 []uint16, qf []float32, q []float32)

	// scoresTiny sets s[j] = dotF16Tiny(q16, k_j)·scale and scoresVec
	// s[j] = dotF16(q16, k_j)·scale, where k_j = k[j·stride : j·stride+len(q16)].
	// scoresTiny needs len(q16) to be a multiple of 16.
	scoresTiny, scoresVec func(q16 []uint16, qf []float32, k []uint16, stride int, scale float32, s []float32)

	// softmax turns the span scores p[:span] into probabilities rounded to
	// f16 and sets p[span:] (up to the next multiple of 16, which must be
	// within len(p)) to zero.
	softmax func(p []float32, span int)

	// kqvTiny and kqvVec set o = Σ_j p[j]·v_j over j < len(p), with
	// v_j = v[j·stride : j·stride+len(o)], in tinyBLAS's order and in
	// ggml_vec_dot_f16's order over a cache padded to 32 positions. acc is
	// scratch of at least attnAccLen(len(o)) floats, sum of len(o).
	kqvTiny func(p []float32, v []uint16, stride int, acc []float32, o []float32)
	kqvVec  func(p []float32, v []uint16, stride int, acc []float32, sum []float64, o []float32)

	// group, when set, computes attention for one position and up to
	// groupHeads query heads q (head size groupHD, len(out) = len(q)) that
	// share the key/value head k, v (stride and positions as above) over
	// span positions: for each head the steps prepQ, scoresVec, softmax and
	// kqvVec, with the same bits, but reading and converting each cached
	// key and value once for all the heads. It returns false, doing
	// nothing, for shapes it does not take.
	group func(q []float32, k, v []uint16, stride int, scale float32, span int, b *attnBuffers, out []float32) bool
	// groupLeast is the fewest heads group computes faster than the
	// per-head kernels (0: groupMinHeads).
	groupLeast int

	// group128, when set, is group for head size 2·groupHD (Llama 3 8B,
	// Mistral 7B, Qwen2 7B, Llama 3.2 3B), and group128Least the fewest
	// heads it computes faster than the per-head kernels (0: groupMinHeads).
	group128      func(q []float32, k, v []uint16, stride int, scale float32, span int, b *attnBuffers, out []float32) bool
	group128Least int

	// tile, when set, computes attention for several positions (tinyBLAS's
	// order, a batch of two or more) for rows·heads (row, query head)
	// pairs that share the key/value head k, v: the query of pair (r, h)
	// is q[r·qstride+h·hd:][:hd] and its output goes to the same place in
	// out, and row r sees the positions [0, span0+r). For each pair it
	// performs the steps prepQ, scoresTiny, softmax and kqvTiny, with the
	// same bits, but converts each cached key and value once for several
	// pairs. It returns false, doing nothing, for shapes it does not take.
	tile func(q []float32, qstride, rows, heads, hd int, k, v []uint16, stride, span0 int, scale float32, b *attnBuffers, out []float32) bool

	// silu is siluRow (ggmlmath.go), which shares the vector exponential
	// with the softmax.
	silu func(y, x []float32)

	// toF16 is toF16 (ops.go): dst[i] = x[i] rounded to f16, for the cache.
	toF16 func(dst []uint16, x []float32)
}

// groupHeads is the number of query heads attnKernels.group computes at
// once (fewer are padded), groupHD the head size it takes, and
// groupMinHeads the fewest heads for which it is faster than the per-head
// kernels (at 2000 positions on a Zen 2 core one group of eight costs
// about what three heads cost one at a time).
const (
	groupHeads    = 8
	groupHD       = 64
	groupMinHeads = 4
)

// attnAccLen is the scratch the kqv kernels need for head dimension hd: 64
// lanes of accumulators per output, the outputs padded to whole vectors.
func attnAccLen(hd int) int { return 4 * lanes * roundUp(hd, lanes) }

func roundUp(n, m int) int { return (n + m - 1) / m * m }

// genericAttn is the pure-Go reference implementation.
var genericAttn = &attnKernels{
	name:       "go",
	prepQ:      prepQGo,
	scoresTiny: scoresTinyGo,
	scoresVec:  scoresVecGo,
	softmax:    softmaxGo,
	kqvTiny:    kqvTinyGo,
	kqvVec:     kqvVecGo,
	silu:       siluRowGo,
	toF16:      toF16,
}

func prepQGo(q16 []uint16, qf []float32, q []float32) {
	toF16(q16, q)
	for i, h := range q16 {
		qf[i] = tensor.FP16ToFP32(h)
	}
	clear(qf[len(q16):roundUp(len(q16), lanes)])
}

func scoresTinyGo(q16 []uint16, _ []float32, k []uint16, stride int, scale float32, s []float32) {
	hd := len(q16)
	for j := range s {
		s[j] = dotF16Tiny(q16, k[j*stride:j*stride+hd]) * scale
	}
}

func scoresVecGo(q16 []uint16, _ []float32, k []uint16, stride int, scale float32, s []float32) {
	hd := len(q16)
	for j := range s {
		s[j] = dotF16(q16, k[j*stride:j*stride+hd]) * scale
	}
}

// softmaxGo is ggml's soft_max in float32 with the vectorized exponential
// and a float64 sum of the per-vector sums; rows are padded to whole
// vectors with zero probabilities, as llama.cpp pads its cache view. The
// probabilities are then rounded to f16 for the product with the f16 values.
func softmaxGo(p []float32, span int) {
	mx := float32(math.Inf(-1))
	for _, s := range p[:span] {
		mx = max(mx, s)
	}
	end := roundUp(span, lanes)
	var total float64
	for j0 := 0; j0 < end; j0 += lanes {
		for j := j0; j < j0+lanes; j++ {
			if j < span {
				p[j] = vexpf(p[j] - mx)
			} else {
				p[j] = 0
			}
		}
		total += float64(hsum(p[j0 : j0+lanes]))
	}
	inv := float32(1 / total)
	for j := 0; j < span; j++ {
		p[j] = tensor.FP16ToFP32(tensor.FP32ToFP16(p[j] * inv))
	}
}

// kqvTinyGo is tinyBLAS's order: per output one 16-lane accumulator,
// position j in lane j%16, positions in order, then hsum. Positions past
// len(p) (masked or padding) have probability exactly 0 in llama.cpp and
// add nothing.
func kqvTinyGo(p []float32, v []uint16, stride int, acc []float32, o []float32) {
	hd := len(o)
	ta := acc[:hd*lanes]
	clear(ta)
	for j, pj := range p {
		lane := j & (lanes - 1)
		for d, x := range v[j*stride : j*stride+hd] {
			ta[d*lanes+lane] += pj * tensor.FP16ToFP32(x)
		}
	}
	for d := range o {
		o[d] = hsum(ta[d*lanes : (d+1)*lanes])
	}
}

// kqvVecGo is ggml_vec_dot_f16 over the cache padded to a multiple of 32
// positions: 64-position vector steps into lane j%64, folded and reduced,
// the positions after the last whole step added one by one in float64.
func kqvVecGo(p []float32, v []uint16, stride int, acc []float32, sum []float64, o []float32) {
	hd, span := len(o), len(p)
	nkv := max(32, roundUp(span, 32))
	np := min(nkv&^(4*lanes-1), span)
	acc = acc[:hd*4*lanes]
	clear(acc)
	clear(sum)
	for j := 0; j < np; j++ {
		pj, lane := p[j], j&(4*lanes-1)
		for d, x := range v[j*stride : j*stride+hd] {
			acc[d*4*lanes+lane] += pj * tensor.FP16ToFP32(x)
		}
	}
	if nkv >= 4*lanes {
		for d := range sum {
			sum[d] = float64(fold4(acc[d*4*lanes : (d+1)*4*lanes]))
		}
	}
	for j := np; j < span; j++ {
		pj := p[j]
		for d, x := range v[j*stride : j*stride+hd] {
			sum[d] += float64(pj * tensor.FP16ToFP32(x))
		}
	}
	for d := range o {
		o[d] = float32(sum[d])
	}
}
