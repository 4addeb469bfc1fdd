package tensor

import "math"

// BF16 weights follow llama.cpp's CPU build on x86 with AVX512_BF16, whose
// summation order depends on how many positions a product covers:
//
//   - one position (a decode step): ggml_vec_dot_bf16, two 16-lane
//     accumulators over 64-element steps (elements [0,32) of a step into
//     the first, [32,64) into the second), each lane taking a pair of
//     elements as VDPBF16PS does (odd element first, then even, each
//     addition rounded), the two accumulators reduced separately and summed
//     in float64 with the leftover elements;
//   - two or more positions (a prompt): llamafile's tinyBLAS, one 16-lane
//     accumulator per output over 32-element steps with the same pairing,
//     reduced once.
//
// Matching both is what makes a BF16 model's log-probabilities equal
// llama.cpp's; a batch of n ≥ 2 therefore gives other last bits than n
// single steps, exactly as it does in llama.cpp. Products of two bf16
// values are exact in float32 unless they underflow or overflow, so only
// the order of additions matters; the Go order rounds such a product
// before adding it (see bf16Exact for the kernels that might not).

// reduce16 sums 16 lanes in the order _mm512_reduce_add_ps uses.
func reduce16(acc *[16]float32) float32 {
	var t [8]float32
	for i := range t {
		t[i] = acc[i+8] + acc[i]
	}
	u0, u1, u2, u3 := t[4]+t[0], t[5]+t[1], t[6]+t[2], t[7]+t[3]
	return (u0 + u2) + (u1 + u3)
}

// dpbf16 is one VDPBF16PS over 32 elements: lane i adds the products of
// elements 2i+1 and 2i, in that order. Like the instruction it treats
// subnormal inputs as zero and flushes subnormal sums to zero (it ignores
// MXCSR and always runs with DAZ and FTZ).
func dpbf16(acc *[16]float32, w []byte, x []uint16) {
	w, x = w[:64], x[:32]
	for i := 0; i < 16; i++ {
		// float32(...): a rounded product, not fused into the sum (the
		// Go compiler fuses x*y+z on arm64, which differs where a
		// product is tiny or overflows).
		hi := float32(bf16DAZ(le16(w[4*i+2:])) * bf16DAZ(x[2*i+1]))
		lo := float32(bf16DAZ(le16(w[4*i:])) * bf16DAZ(x[2*i]))
		acc[i] = ftz(float32(acc[i] + hi))
		acc[i] = ftz(float32(acc[i] + lo))
	}
}

// bf16DAZ converts a bfloat16 to float32, subnormals to a zero of their sign.
func bf16DAZ(h uint16) float32 {
	if h&0x7f80 == 0 {
		h &= 0x8000
	}
	return BF16ToFP32(h)
}

// ftz flushes a subnormal float32 to a zero of its sign.
func ftz(f float32) float32 {
	if b := math.Float32bits(f); b&0x7f800000 == 0 {
		return math.Float32frombits(b & 0x80000000)
	}
	return f
}

// dotBF16Step is the one-position order (ggml_vec_dot_bf16).
func dotBF16Step(w []byte, x []uint16) float32 {
	var c [2][16]float32
	n := len(x) / 64 * 64
	for l := 0; l < n; l += 64 {
		dpbf16(&c[0], w[2*l:], x[l:])
		dpbf16(&c[1], w[2*l+64:], x[l+32:])
	}
	return finishBF16Step(&c, w, x, n)
}

// finishBF16Step reduces the two accumulators of the one-position order and
// adds the elements from n on.
func finishBF16Step(c *[2][16]float32, w []byte, x []uint16, n int) float32 {
	return finishBF16Sums([2]float32{reduce16(&c[0]), reduce16(&c[1])}, w, x, n)
}

// finishBF16Sums is finishBF16Step with the two accumulators already
// reduced (r), as the AVX2 kernels return them.
func finishBF16Sums(r [2]float32, w []byte, x []uint16, n int) float32 {
	s := float64(r[0])
	s += float64(r[1])
	for i := n; i < len(x); i++ {
		s += float64(BF16ToFP32(le16(w[2*i:])) * BF16ToFP32(x[i]))
	}
	return float32(s)
}

// dotBF16Batch is the order of a product over several positions (tinyBLAS);
// tinyBLAS declines rows whose length is not a multiple of 32, and ggml then
// uses the one-position order.
func dotBF16Batch(w []byte, x []uint16) float32 {
	if len(x)%32 != 0 {
		return dotBF16Step(w, x)
	}
	var acc [16]float32
	for l := 0; l < len(x); l += 32 {
		dpbf16(&acc, w[2*l:], x[l:])
	}
	return reduce16(&acc)
}

// splitBF16 widens bf16 values to float32 in the order the AVX2 kernels
// multiply them (acts.hf): per 16 elements, the 8 odd ones, then the 8
// even ones (len(h) a multiple of 16). It returns their exponent range as
// the kernels use it: the smallest nonzero biased exponent minus one (511
// if there is none) in bits 16 on, the largest in bits 0..15.
func splitBF16(h []uint16, hf []float32) uint32 {
	hf = hf[:len(h)]
	lo, hi := uint32(511), uint32(0)
	for c := 0; c+16 <= len(h); c += 16 {
		o, e := hf[c:c+8], hf[c+8:c+16]
		for j, v := range h[c : c+16] {
			x := uint32(v>>7) & 0xff
			hi = max(hi, x)
			if x != 0 {
				lo = min(lo, x-1)
			}
			if j&1 == 1 {
				o[j>>1] = math.Float32frombits(uint32(v) << 16)
			} else {
				e[j>>1] = math.Float32frombits(uint32(v) << 16)
			}
		}
	}
	return lo<<16 | hi
}

// bf16Range merges the exponent ranges splitBF16 returned for several
// positions into one in the same encoding: the smallest lower bound and
// the largest upper one.
func bf16Range(hx []uint32) uint32 {
	lo, hi := uint32(511), uint32(0)
	for _, r := range hx {
		lo, hi = min(lo, r>>16), max(hi, r&0xffff)
	}
	return lo<<16 | hi
}

// bf16BatchGo computes rows [r0, r1) (row stride rs) of positions [p0, p1)
// from i with the Go kernel of the several-position order, into
// out[p*os+r]: the tiles' answer where a kernel declines or flags a
// subnormal.
func bf16BatchGo(w []byte, rs int, a *acts, i, p0, p1, r0, r1, os int, out []float32) {
	for p := p0; p < p1; p++ {
		x := a.hrow(i + p)
		for r := r0; r < r1; r++ {
			out[p*os+r] = dotBF16Batch(w[r*rs:], x)
		}
	}
}

// expRange is the smallest and largest exponent field (1 to 255) of the
// nonzero values of some bf16 data, subnormals counted as zero (the
// kernels flush them); lo > hi when all are zero.
type expRange struct{ lo, hi int }

func newExpRange() expRange { return expRange{lo: 256, hi: 0} }

// add widens r to the exponent field e of one value (0: a zero, skipped).
func (r *expRange) add(e int) {
	if e != 0 {
		r.lo, r.hi = min(r.lo, e), max(r.hi, e)
	}
}

func (r expRange) empty() bool { return r.lo > r.hi }

// bf16Exponents is the exponent range of m's weights: the one Pack
// recorded, or a pass over them.
func (m Matrix) bf16Exponents() expRange {
	if m.bf16Known {
		return m.bf16e
	}
	rb, _ := RowBytes(m.Type, m.Cols)
	data := m.Data[:m.Rows*rb]
	r := newExpRange()
	for i := 0; i+2 <= len(data); i += 2 {
		r.add(int(data[i+1]&0x7f)<<1 | int(data[i]>>7))
	}
	return r
}

// actExponents is the exponent range of activations x rounded to bf16.
func actExponents(x []float32) expRange {
	r := newExpRange()
	for _, v := range x {
		r.add(int(FP32ToBF16(v)>>7) & 0xff)
	}
	return r
}

// bf16Exact reports whether every product of weights of exponent range
// we with activations of range xe is exact in float32: no Inf or NaN, and
// each product of two nonzero normal values at least 2^-126 and below
// 2^128, which exponent fields summing to 128..380 guarantee (the
// mantissas' product, at most 16 bits, fits float32's 24). There rounding
// the product before adding it, as the Go order does, and fusing it into
// the sum, as VDPBF16PS may, give the same bits; elsewhere (products that
// underflow or overflow, never seen in real weights and activations) a set
// with bf16Guard hands the product to a set that gives the Go order's bits
// on any data (bf16Kernels).
func bf16Exact(we, xe expRange) bool {
	if we.empty() || xe.empty() {
		return true // every product is a zero
	}
	return we.hi < 255 && xe.hi < 255 && we.lo+xe.lo >= 128 && we.hi+xe.hi <= 380
}

// bf16Kernels is the set that computes BF16 weights ws with activations
// x: ks, or its bf16Guard where some product might not be exact.
func (ks *kernelSet) bf16Kernels(x []float32, ws ...Matrix) *kernelSet {
	if ks.bf16Guard == nil || len(ws) == 0 || ws[0].Type != BF16 {
		return ks
	}
	xe := actExponents(x)
	for _, w := range ws {
		if !bf16Exact(w.bf16Exponents(), xe) {
			return ks.bf16Guard
		}
	}
	return ks
}
