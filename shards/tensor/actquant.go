package tensor

// Activations are quantized the way llama.cpp's x86 CPU backend does before
// integer dot products. The block scales are kept as float32 (already
// rounded through f16 where ggml stores f16) so kernels need not convert.

// q8 rounds a scaled activation to the nearest integer (ties to even, the
// rounding of x86's cvtps2dq and of ggml's nearest_int) and limits it to
// [-127, 127]. Finite inputs never leave that range; for NaN and values
// past the int32 range it returns -127, which is what the SIMD conversion
// (the "integer indefinite" 0x80000000, then clamped) gives, so every path
// and platform agrees. -128 is never produced: it would break the sign
// trick of the SIMD dot products.
func q8(v float32) int8 {
	switch {
	case v != v || v >= 2147483648:
		return -127
	case v >= 127.5:
		return 127
	case v <= -127.5:
		return -127
	}
	return int8(nearestInt(v))
}

func absMax32(x []float32) float32 {
	var amax float32
	for _, v := range x {
		if a := abs32(v); a > amax {
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
			q[j] = q8(float32(v * id))
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
			q[j] = q8(float32(v * id))
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
		max, amax := signedMax(xb)
		bs := bsums[16*b : 16*b+16]
		if amax == 0 {
			d[b] = 0
			clear(q)
			clear(bs)
			continue
		}
		iscale := -127 / max
		for j, v := range xb {
			q[j] = q8(float32(iscale * v))
		}
		q8kBsums(q, bs)
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

// q8kBsums stores the sum of each 16 consecutive quants.
func q8kBsums(q []int8, bsums []int16) {
	for j := 0; j*16 < len(q); j++ {
		var sum int32
		for _, v := range q[16*j : 16*j+16] {
			sum += int32(v)
		}
		bsums[j] = int16(sum)
	}
}
