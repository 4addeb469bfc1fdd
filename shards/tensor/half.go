package tensor

import "math"

// FP16ToFP32 converts an IEEE 754 binary16 value to float32 (exact).
func FP16ToFP32(h uint16) float32 {
	return f16Lookup[h]
}

// f16Lookup is filled once at package initialisation and only read after;
// decoding through it is faster than bit manipulation in the scalar kernels.
var f16Lookup = makeF16Lookup()

func makeF16Lookup() *[1 << 16]float32 {
	var t [1 << 16]float32
	for i := range t {
		t[i] = fp16ToFP32Bits(uint16(i))
	}
	return &t
}

func fp16ToFP32Bits(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch exp {
	case 0:
		// Zero or subnormal: mant * 2^-24, exact in float32.
		v := float32(mant) * (1.0 / (1 << 24))
		if sign != 0 {
			v = -v
		}
		return v
	case 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	}
	return math.Float32frombits(sign | (exp+(127-15))<<23 | mant<<13)
}

// FP32ToFP16 converts float32 to binary16 with round-to-nearest-even, the
// rounding of x86 F16C and of ggml's scalar fallback. Overflow gives ±Inf,
// NaN stays NaN.
func FP32ToFP16(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xff
	mant := b & 0x7fffff
	if exp == 0xff {
		if mant != 0 {
			return sign | 0x7e00 | uint16(mant>>13)
		}
		return sign | 0x7c00
	}
	e := exp - 127 + 15
	if e >= 0x1f {
		return sign | 0x7c00
	}
	if e <= 0 {
		// Result is subnormal (or zero): h = round(m * 2^(e-14)) with the
		// implicit bit made explicit. float32 subnormals are far below the
		// half range and round to zero here too.
		if exp == 0 {
			return sign
		}
		m := mant | 0x800000
		shift := uint32(14 - e)
		if shift >= 25 {
			return sign
		}
		q := m >> shift
		rem := m & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || (rem == half && q&1 == 1) {
			q++
		}
		return sign | uint16(q)
	}
	h := uint32(e)<<10 | mant>>13
	rem := mant & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && h&1 == 1) {
		h++ // may carry into the exponent, up to Inf: that is correct rounding
	}
	return sign | uint16(h)
}

// BF16ToFP32 converts a bfloat16 value to float32 (exact).
func BF16ToFP32(h uint16) float32 {
	return math.Float32frombits(uint32(h) << 16)
}

// FP32ToBF16 converts float32 to bfloat16 with round-to-nearest-even, as
// ggml's GGML_FP32_TO_BF16 does; NaNs are kept (and made quiet).
func FP32ToBF16(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 {
		return uint16(b>>16) | 64
	}
	return uint16((b + 0x7fff + (b>>16)&1) >> 16)
}
