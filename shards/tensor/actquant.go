package tensor

import "math"

// Activations are quantized the way llama.cpp's x86 CPU backend does before
// integer dot products. The block scales are kept as float32 (already
// rounded through f16 where ggml stores f16) so kernels need not convert.

// roundEven rounds to the nearest integer, ties to even (the rounding of
// _mm256_round_ps(_MM_ROUND_NEAREST) and of ggml's nearest_int).
func roundEven(v float32) int32 {
	return int32(math.RoundToEven(float64(v)))
}

// clampI8 limits a quantized activation to [-127, 127]. Finite inputs never
// leave that range; NaN inputs would, and -128 would break the sign trick
// of the SIMD kernels, so every path sees the same clamped value.
func clampI8(v int32) int8 {
	if v > 127 {
		return 127
	}
	if v < -127 {
		return -127
	}
	return int8(v)
}

func absMax32(x []float32) float32 {
	var amax float32
	for _, v := range x {
		a := float32(math.Abs(float64(v)))
		if a > amax {
			amax = a
		}
	}
	return amax
}

// quantQ8_0 quantizes x (a multiple of 32 long) to Q8_0 blocks: qs gets the
// int8 values, d the per-block scale (f16-rounded) as float32. It follows
// ggml's AVX2 quantize_row_q8_0: d = amax/127, multiplier 127/amax, round
// half to even.
func quantQ8_0(x []float32, qs []int8, d []float32) {
	for b := 0; b*32 < len(x); b++ {
		xb := x[32*b : 32*b+32]
		amax := absMax32(xb)
		dd := amax / 127
		d[b] = FP16ToFP32(FP32ToFP16(dd))
		var id float32
		if amax != 0 {
			id = 127 / amax
		}
		q := qs[32*b : 32*b+32]
		for j, v := range xb {
			q[j] = clampI8(roundEven(v * id))
		}
	}
}

// quantQ8_1 is quantQ8_0 plus s = d*sum(qs) per block (f16-rounded), as
// ggml's AVX2 quantize_row_q8_1.
func quantQ8_1(x []float32, qs []int8, d, s []float32) {
	for b := 0; b*32 < len(x); b++ {
		xb := x[32*b : 32*b+32]
		amax := absMax32(xb)
		dd := amax / 127
		d[b] = FP16ToFP32(FP32ToFP16(dd))
		var id float32
		if amax != 0 {
			id = 127 / amax
		}
		q := qs[32*b : 32*b+32]
		var sum int32
		for j, v := range xb {
			q[j] = clampI8(roundEven(v * id))
			sum += int32(q[j])
		}
		s[b] = FP16ToFP32(FP32ToFP16(dd * float32(sum)))
	}
}

// quantQ8_K quantizes x (a multiple of 256 long) to Q8_K super-blocks as
// ggml's quantize_row_q8_K_ref: the value of largest magnitude maps to -127,
// d = 1/iscale (float32), bsums holds the sums of each 16 quants.
func quantQ8_K(x []float32, qs []int8, d []float32, bsums []int16) {
	for b := 0; b*qkK < len(x); b++ {
		xb := x[qkK*b : qkK*b+qkK]
		q := qs[qkK*b : qkK*b+qkK]
		var amax, max float32
		for _, v := range xb {
			a := float32(math.Abs(float64(v)))
			if a > amax {
				amax, max = a, v
			}
		}
		bs := bsums[16*b : 16*b+16]
		if amax == 0 {
			d[b] = 0
			clear(q)
			clear(bs)
			continue
		}
		iscale := -127 / max
		for j, v := range xb {
			q[j] = clampI8(roundEven(iscale * v))
		}
		for j := range bs {
			var sum int32
			for _, v := range q[16*j : 16*j+16] {
				sum += int32(v)
			}
			bs[j] = int16(sum)
		}
		d[b] = 1 / iscale
	}
}

func toF16(x []float32, h []uint16) {
	for i, v := range x {
		h[i] = FP32ToFP16(v)
	}
}

func toBF16(x []float32, h []uint16) {
	for i, v := range x {
		h[i] = FP32ToBF16(v)
	}
}
