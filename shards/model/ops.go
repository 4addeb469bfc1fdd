package model

import (
	"math"

	"svc/shards/tensor"
)

// The element-wise operations below follow ggml's CPU kernels: float32
// arithmetic, with the sums that ggml keeps in double kept in float64.

// rmsNorm sets out = x / sqrt(mean(x²) + eps) ⊙ w for one row, rounding as
// ggml does: the sum of squares in float64 (of float32 products), the scale
// in float32, then a float32 product with the weight.
func rmsNorm(out, x, w []float32, eps float32) {
	var sum float64
	for _, v := range x {
		sum += float64(v * v)
	}
	mean := float32(sum / float64(len(x)))
	scale := 1 / float32(math.Sqrt(float64(mean+eps)))
	for i, v := range x {
		out[i] = float32(v*scale) * w[i]
	}
}

// rmsNormRows normalizes n rows of width dim.
func rmsNormRows(out, x, w []float32, n, dim int, eps float32) {
	for i := 0; i < n; i++ {
		rmsNorm(out[i*dim:(i+1)*dim], x[i*dim:(i+1)*dim], w, eps)
	}
}

// addBias adds a per-feature bias to n rows (no-op for a nil bias).
func addBias(x, b []float32, n int) {
	if b == nil {
		return
	}
	w := len(b)
	for i := 0; i < n; i++ {
		row := x[i*w : (i+1)*w]
		for j := range row {
			row[j] += b[j]
		}
	}
}

// addInto sets x += y.
func addInto(x, y []float32) {
	for i := range x {
		x[i] += y[i]
	}
}

// swiGLU sets gate = SiLU(gate) ⊙ up for n rows of width w.
func swiGLU(gate, up []float32, n, w int) {
	for i := 0; i < n; i++ {
		g := gate[i*w : (i+1)*w]
		siluRow(g, g)
		for j, u := range up[i*w : (i+1)*w] {
			g[j] *= u
		}
	}
}

// rope rotates pairs of query/key features by position-dependent angles.
type rope struct {
	dims       int       // rotated features per head (the rest pass through)
	neox       bool      // pairs (i, i+dims/2) instead of (2i, 2i+1)
	thetaScale float32   // base^(-2/dims)
	freqScale  float32   // 1/linear scaling factor
	factors    []float32 // per-pair divisors (Llama 3 rope_freqs), or nil
}

func newRope(c *Config, factors []float32) *rope {
	// ggml: theta_scale = powf(freq_base, -2.0f/n_dims).
	ts := float32(math.Pow(float64(c.RopeBase), float64(float32(-2)/float32(c.RopeDims))))
	return &rope{dims: c.RopeDims, neox: c.RopeNeox, thetaScale: ts, freqScale: c.RopeFreqScale, factors: factors}
}

// angles fills cs with (cos, sin) for each rotated pair at position pos.
// As in ggml the angle of pair k is pos·theta_scale^k, built by repeated
// float32 multiplication.
func (r *rope) angles(pos int, cs []float32) {
	theta := float32(pos)
	for i := 0; i < r.dims; i += 2 {
		t := theta
		if r.factors != nil {
			t = theta / r.factors[i/2]
		}
		t = r.freqScale * t
		cs[i] = float32(math.Cos(float64(t)))
		cs[i+1] = float32(math.Sin(float64(t)))
		theta *= r.thetaScale
	}
}

// rotate applies the rotation for one position to each of heads heads of
// width headDim stored back to back in x.
func (r *rope) rotate(x []float32, heads, headDim int, cs []float32) {
	half := r.dims / 2
	for h := 0; h < heads; h++ {
		v := x[h*headDim : (h+1)*headDim]
		for i := 0; i < r.dims; i += 2 {
			c, s := cs[i], cs[i+1]
			a, b := i, i+1
			if r.neox {
				a, b = i/2, i/2+half
			}
			x0, x1 := v[a], v[b]
			// The C compiler contracts ggml's x0*cos - x1*sin and
			// x0*sin + x1*cos into fused multiply-adds; so do we.
			v[a] = fma32(x0, c, -(x1 * s))
			v[b] = fma32(x0, s, x1*c)
		}
	}
}

// toF16 rounds x to IEEE half precision (round to nearest even).
func toF16(dst []uint16, x []float32) {
	for i, v := range x {
		dst[i] = tensor.FP32ToFP16(v)
	}
}

// dotF16 is ggml_vec_dot_f16 of the AVX-512 build: whole steps of 64
// elements go to four 16-lane accumulators, folded (a0+a2)+(a1+a3) and
// reduced; the remaining elements are added one by one in float64.
// Products of two halves are exact in float32.
func dotF16(a, b []uint16) float32 {
	np := len(a) &^ (4*lanes - 1)
	var sum float64
	if np > 0 {
		var acc [4 * lanes]float32
		for i0 := 0; i0 < np; i0 += 4 * lanes {
			for l := range acc {
				acc[l] += tensor.FP16ToFP32(a[i0+l]) * tensor.FP16ToFP32(b[i0+l])
			}
		}
		sum = float64(fold4(acc[:]))
	}
	for i := np; i < len(a); i++ {
		sum += float64(tensor.FP16ToFP32(a[i]) * tensor.FP16ToFP32(b[i]))
	}
	return float32(sum)
}

// argmax returns the index of the largest element (the first on ties).
func argmax(x []float32) int32 {
	best := 0
	for i, v := range x {
		if v > x[best] {
			best = i
		}
	}
	return int32(best)
}

// logSumExp is log Σ e^x in float64.
func logSumExp(x []float32) float64 {
	m := float64(x[argmax(x)])
	var s float64
	for _, v := range x {
		s += math.Exp(float64(v) - m)
	}
	return m + math.Log(s)
}

// TokenLogprob is a token id with its log-probability (natural log).
type TokenLogprob struct {
	ID      int32   `json:"id"`
	Logprob float32 `json:"logprob"`
}

// Logprob is the log-softmax of a logits row at id, computed as Top's
// values are (the same bits for the same row).
func Logprob(logits []float32, id int32) float32 {
	return logprobWith(logits, id, logSumExp(logits))
}

// logprobWith is Logprob with the row's logSumExp already taken.
func logprobWith(logits []float32, id int32, lse float64) float32 {
	return float32(float64(logits[id]) - lse)
}

// topK returns the k most likely tokens of a logits row with their
// log-softmax values over the whole row, most likely first (lower id first
// on ties); lse is the row's logSumExp.
func topK(logits []float32, k int, lse float64) []TokenLogprob {
	k = min(k, len(logits))
	if k <= 0 {
		return nil
	}
	top := make([]int32, 0, k)
	// Insertion into a sorted list of k: vocabularies are large and k small.
	for i, v := range logits {
		if len(top) == k && v <= logits[top[k-1]] {
			continue
		}
		j := len(top)
		if j < k {
			top = append(top, 0)
		} else {
			j = k - 1
		}
		for j > 0 && logits[top[j-1]] < v {
			top[j] = top[j-1]
			j--
		}
		top[j] = int32(i)
	}
	out := make([]TokenLogprob, len(top))
	for i, id := range top {
		out[i] = TokenLogprob{ID: id, Logprob: logprobWith(logits, id, lse)}
	}
	return out
}
