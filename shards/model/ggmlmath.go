package model

import (
	"math"

	"svc/shards/tensor"
)

// Bit-level agreement with llama.cpp matters more than it seems: activations
// are quantized to 8 bits before every quantized matrix product, so a value
// one ulp away from llama.cpp's can round to a different integer and the
// difference then grows through the layers. The functions here therefore
// reproduce the exact float32 operation sequences of ggml's x86 kernels
// (AVX-512 build) for the steps this package owns: RoPE's fused
// multiply-adds, SiLU's vectorized exponential, the softmax sums, and the
// f16 dot products of attention.
//
// Like llama.cpp, the attention products depend on the batch shape: for a
// batch of two or more positions ggml hands them to llamafile's tinyBLAS
// (one 16-lane accumulator per output over the whole inner dimension, then
// _mm512_reduce_add_ps), for a single position to ggml_vec_dot_f16 (four
// 16-lane accumulators, 64-element steps, a float64 tail). A position's
// numbers therefore depend on how it was batched, exactly as in llama.cpp,
// and the same sequence of batch shapes always gives the same bits.

// lanes is the SIMD width in float32 lanes of the reference build.
const lanes = 16

func fma32(a, b, c float32) float32 {
	return float32(math.FMA(float64(a), float64(b), float64(c)))
}

// vexpf is ggml's vectorized single-precision exponential (AVX-512 variant,
// after ARM's optimized routine): within 1.5 ulp of e^x, flushing to +Inf
// above ~88.4 and to 0 below ~-104.
func vexpf(x float32) float32 {
	const shift = 0x1.8p23
	z := fma32(x, 0x1.715476p+0, shift)
	n := z - shift
	b := fma32(-n, 0x1.7f7d1cp-20, fma32(-n, 0x1.62e4p-1, x))
	u := b * b
	j := fma32(fma32(fma32(0x1.0e4020p-7, b, 0x1.573e2ep-5), u, fma32(0x1.555e66p-3, b, 0x1.fffdb6p-2)), u, fma32(0x1.ffffecp-1, b, 1))
	if math.Abs(float64(n)) > 192 {
		if n <= 0 {
			return 0
		}
		return float32(math.Inf(1))
	}
	// scalef: j·2^n, rounded once to float32.
	return float32(math.Ldexp(float64(j), int(n)))
}

// expf is the scalar exponential of the C library (correctly rounded for
// practical purposes), used by ggml for the elements after the last full
// vector.
func expf(x float32) float32 { return float32(math.Exp(float64(x))) }

// siluRow sets y[i] = x[i]/(1+e^-x[i]) as ggml_vec_silu_f32 does: full
// vectors with vexpf, the tail with expf. It runs on the CPU's best kernel
// set (attn_kernels.go); all give siluRowGo's bits.
func siluRow(y, x []float32) { bestAttn.silu(y, x) }

// siluRowGo is siluRow in Go, the reference.
func siluRowGo(y, x []float32) {
	full := len(x) / lanes * lanes
	for i, v := range x {
		var e float32
		if i < full {
			e = vexpf(0 - v)
		} else {
			e = expf(-v)
		}
		y[i] = v / (1 + e)
	}
}

// fold4 reduces four 16-lane accumulators (acc[16j+l] is lane l of
// accumulator j) as GGML_F32x16_REDUCE does: (a0+a2)+(a1+a3), then hsum.
func fold4(acc []float32) float32 {
	var v [lanes]float32
	for l := range v {
		v[l] = (acc[l] + acc[2*lanes+l]) + (acc[lanes+l] + acc[3*lanes+l])
	}
	return hsum(v[:])
}

// hsum adds the lanes of a vector register the way x86 reductions do:
// halves are folded until four lanes remain, then (v0+v2)+(v1+v3).
func hsum(v []float32) float32 {
	var t [lanes]float32
	n := copy(t[:], v)
	for n > 4 {
		n /= 2
		for i := 0; i < n; i++ {
			t[i] = t[i] + t[i+n]
		}
	}
	return (t[0] + t[2]) + (t[1] + t[3])
}

// dotF16Tiny is llamafile's tinyBLAS f16 dot product (AVX-512 build,
// tinyBLAS<16, __m512, __m512, ggml_fp16_t, ggml_fp16_t, float>): one 16-lane
// accumulator, element l into lane l%16 with a fused multiply-add, then
// _mm512_reduce_add_ps. len(a) must be a multiple of 16. The product of two
// f16 values is exact in float32, so the fused multiply-add is a plain add.
func dotF16Tiny(a, b []uint16) float32 {
	var acc [lanes]float32
	for i0 := 0; i0 < len(a); i0 += lanes {
		for l := range acc {
			acc[l] += tensor.FP16ToFP32(a[i0+l]) * tensor.FP16ToFP32(b[i0+l])
		}
	}
	return hsum(acc[:])
}
