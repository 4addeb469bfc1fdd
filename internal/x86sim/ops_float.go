package x86sim

import "math"

// fma32 is a*b+c rounded once to float32 (round to nearest even), as the
// FMA instructions compute it. The product of two float32s is exact in
// float64; the sum is made exact as the pair (s, lo) (TwoSum), then rounded
// to odd in float64 (s, or its neighbour toward lo when s is inexact and
// even), which float64's 29 extra bits make safe to round again to float32.
func fma32(a, b, c float32) float32 {
	p := float64(float64(a) * float64(b))
	s := p + float64(c)
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return float32(s)
	}
	bb := s - p
	lo := (p - (s - bb)) + (float64(c) - bb)
	if u := math.Float64bits(s); lo != 0 && u&1 == 0 {
		if (lo > 0) == (s > 0) {
			u++
		} else {
			u--
		}
		s = math.Float64frombits(u)
	}
	return float32(s)
}

// fop is an element-wise float32 operation (Dst may alias the sources).
func fop(f func(x, y float32) float32) func(*OpArgs) {
	return func(a *OpArgs) {
		for i := 0; i < a.Bits/32; i++ {
			a.Dst.SetF32(i, f(a.Src1.F32(i), a.Src2.F32(i)))
		}
	}
}

// scalar is the scalar form of f: lane 0 computed, lanes 1-3 from Src1.
func scalar(f func(x, y float32) float32) func(*OpArgs) {
	return func(a *OpArgs) {
		x := f(a.Src1.F32(0), a.Src2.F32(0))
		copy(a.Dst[4:16], a.Src1[4:16])
		a.Dst.SetF32(0, x)
	}
}

// maxps and minps are the x86 max/min: the second source unless the first
// compares greater (less), so NaNs and equal zeros give Src2.
func maxps(x, y float32) float32 {
	if x > y {
		return x
	}
	return y
}

func minps(x, y float32) float32 {
	if x < y {
		return x
	}
	return y
}

func four(bits int) int { return 4 }

// addFloatOps adds the single-precision arithmetic, the FMAs, the
// conversions and VDPBF16PS.
func addFloatOps(m map[string]VecOp) {
	add := func(x, y float32) float32 { return float32(x + y) }
	sub := func(x, y float32) float32 { return float32(x - y) }
	mul := func(x, y float32) float32 { return float32(x * y) }
	div := func(x, y float32) float32 { return float32(x / y) }
	for _, op := range []struct {
		name string
		f    func(x, y float32) float32
	}{{"ADD", add}, {"SUB", sub}, {"MUL", mul}, {"DIV", div}, {"MAX", maxps}, {"MIN", minps}} {
		m["V"+op.name+"PS"] = VecOp{Exec: fop(op.f), Elem: 4}
		m["V"+op.name+"SS"] = VecOp{Exec: scalar(op.f), Elem: 4, Mem: four}
	}

	// The FMAs by operand order (Intel's 1, 2, 3 = Dst, Src1, Src2):
	// 231 is src1*src2+dst, 213 is src1*dst+src2; VFNMADD negates the
	// product.
	type fma struct {
		name string
		f    func(d, s1, s2 float32) float32
	}
	for _, op := range []fma{
		{"VFMADD231", func(d, s1, s2 float32) float32 { return fma32(s1, s2, d) }},
		{"VFMADD213", func(d, s1, s2 float32) float32 { return fma32(s1, d, s2) }},
		{"VFMADD132", func(d, s1, s2 float32) float32 { return fma32(d, s2, s1) }},
		{"VFNMADD231", func(d, s1, s2 float32) float32 { return fma32(-s1, s2, d) }},
		{"VFNMADD213", func(d, s1, s2 float32) float32 { return fma32(-s1, d, s2) }},
		{"VFNMADD132", func(d, s1, s2 float32) float32 { return fma32(-d, s2, s1) }},
	} {
		f := op.f
		m[op.name+"PS"] = VecOp{Elem: 4, Exec: func(a *OpArgs) {
			for i := 0; i < a.Bits/32; i++ {
				a.Dst.SetF32(i, f(a.Dst.F32(i), a.Src1.F32(i), a.Src2.F32(i)))
			}
		}}
		// Scalar: lanes 1-3 of the destination are kept.
		m[op.name+"SS"] = VecOp{Elem: 4, Mem: four, Exec: func(a *OpArgs) {
			a.Dst.SetF32(0, f(a.Dst.F32(0), a.Src1.F32(0), a.Src2.F32(0)))
		}}
	}

	// VCMPPS (VEX): all ones where predicate imm[4:0] holds. Bit 4 only
	// changes which NaNs signal, not the result.
	m["VCMPPS"] = VecOp{Elem: 4, Exec: func(a *OpArgs) {
		for i := 0; i < a.Bits/32; i++ {
			var r uint32
			if cmpPredicate(a.Imm, a.Src1.F32(i), a.Src2.F32(i)) {
				r = ^uint32(0)
			}
			a.Dst.SetU32(i, r)
		}
	}}

	m["VCVTDQ2PS"] = VecOp{Elem: 4, Exec: func(a *OpArgs) {
		for i := 0; i < a.Bits/32; i++ {
			a.Dst.SetF32(i, float32(a.Src2.I32(i))) // CVTSI2SS: nearest even
		}
	}}
	// VCVTPS2DQ rounds to nearest even (Go's MXCSR); NaN and out of range
	// give the integer indefinite 0x80000000.
	m["VCVTPS2DQ"] = VecOp{Elem: 4, Exec: func(a *OpArgs) {
		for i := 0; i < a.Bits/32; i++ {
			x := float64(a.Src2.F32(i))
			r := math.RoundToEven(x)
			if !(r >= -(1<<31) && r < 1<<31) {
				a.Dst.SetU32(i, 0x80000000)
				continue
			}
			a.Dst.SetI32(i, int32(r))
		}
	}}
	// VCVTPH2PS widens Bits/32 halves from the low part of Src2, exactly.
	m["VCVTPH2PS"] = VecOp{Elem: 4, Mem: func(bits int) int { return bits / 16 }, Exec: func(a *OpArgs) {
		var r Vec
		for i := 0; i < a.Bits/32; i++ {
			r.SetU32(i, halfToFloatBits(a.Src2.U16(i)))
		}
		copy(a.Dst[:a.Bits/8], r[:a.Bits/8])
	}}
	// VCVTPS2PH narrows Bits/32 floats into the low half of Dst; imm bit 2
	// selects MXCSR's rounding (nearest even under Go), else imm[1:0].
	m["VCVTPS2PH"] = VecOp{Elem: 2, Mem: func(bits int) int { return bits / 16 }, Exec: func(a *OpArgs) {
		mode := a.Imm & 3
		if a.Imm&4 != 0 {
			mode = 0
		}
		var r Vec
		n := a.Bits / 32
		for i := 0; i < n; i++ {
			r.SetU16(i, floatToHalf(a.Src2.U32(i), mode))
		}
		copy(a.Dst[:2*n], r[:2*n])
		clear(a.Dst[2*n : max(16, 2*n)])
	}}
	// VCVTSI2SSL: the int32 in Src2's low bytes converted into lane 0,
	// lanes 1-3 from Src1.
	m["VCVTSI2SSL"] = VecOp{Exec: func(a *OpArgs) {
		x := float32(a.Src2.I32(0))
		copy(a.Dst[4:16], a.Src1[4:16])
		a.Dst.SetF32(0, x)
	}, Mem: four}

	// VDPBF16PS (AVX512_BF16), the manual's pseudo-code: per dword lane,
	// srcdest += src1.bf16[2i+1]*src2.bf16[2i+1], then the same with
	// [2i]; each an FP32 FMA "with DAZ in, FTZ out and RNE rounding",
	// MXCSR neither consulted nor updated. DAZ is applied to every input
	// of the FMA, the accumulator included.
	m["VDPBF16PS"] = VecOp{Elem: 4, Exec: func(a *OpArgs) {
		for i := 0; i < a.Bits/32; i++ {
			acc := a.Dst.F32(i)
			for _, k := range []int{2*i + 1, 2 * i} {
				x := bf16DAZ(a.Src1.U16(k))
				y := bf16DAZ(a.Src2.U16(k))
				acc = flushZ(fma32(x, y, daz32(acc)))
			}
			a.Dst.SetF32(i, acc)
		}
	}}
}

// cmpPredicate is the comparison predicate imm[3:0] of CMPPS (bit 4
// selects signalling behaviour only).
func cmpPredicate(imm uint8, x, y float32) bool {
	unord := x != x || y != y
	switch imm & 15 {
	case 0: // EQ_OQ
		return x == y
	case 1: // LT_OS
		return x < y
	case 2: // LE_OS
		return x <= y
	case 3: // UNORD_Q
		return unord
	case 4: // NEQ_UQ
		return !(x == y)
	case 5: // NLT_US
		return !(x < y)
	case 6: // NLE_US
		return !(x <= y)
	case 7: // ORD_Q
		return !unord
	case 8: // EQ_UQ
		return x == y || unord
	case 9: // NGE_US
		return !(x >= y)
	case 10: // NGT_US
		return !(x > y)
	case 11: // FALSE_OQ
		return false
	case 12: // NEQ_OQ
		return x != y && !unord
	case 13: // GE_OS
		return x >= y
	case 14: // GT_OS
		return x > y
	}
	return true // TRUE_UQ
}

// bf16DAZ is a bfloat16 as float32, a subnormal as a zero of its sign.
func bf16DAZ(h uint16) float32 {
	if h&0x7f80 == 0 {
		h &= 0x8000
	}
	return math.Float32frombits(uint32(h) << 16)
}

// daz32 and flushZ both make a subnormal float32 a zero of its sign (on
// input and on output).
func daz32(f float32) float32 { return flushZ(f) }

func flushZ(f float32) float32 {
	if b := math.Float32bits(f); b&0x7f800000 == 0 {
		return math.Float32frombits(b & 0x80000000)
	}
	return f
}

// halfToFloatBits converts an IEEE half to float32 bits exactly
// (subnormals normalized; a NaN quieted, its payload kept).
func halfToFloatBits(h uint16) uint32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		if man == 0 {
			return sign | 0x7f800000
		}
		return sign | 0x7fc00000 | man<<13
	case exp == 0:
		if man == 0 {
			return sign
		}
		// man·2^-24: normalize.
		e := uint32(127 - 15 + 1)
		for man&0x400 == 0 {
			man <<= 1
			e--
		}
		return sign | e<<23 | (man&0x3ff)<<13
	}
	return sign | (exp+127-15)<<23 | man<<13
}

// floatToHalf converts float32 bits to a half with rounding mode mode (0
// nearest even, 1 down, 2 up, 3 toward zero), subnormal halves included;
// a NaN is quieted and keeps its payload's high bits.
func floatToHalf(f uint32, mode uint8) uint16 {
	sign := uint16(f>>16) & 0x8000
	neg := sign != 0
	exp := int(f>>23) & 0xff
	man := f & 0x7fffff
	if exp == 0xff {
		if man == 0 {
			return sign | 0x7c00
		}
		return sign | 0x7e00 | uint16(man>>13)
	}
	if exp == 0 && man == 0 {
		return sign
	}
	// The value is m·2^(e) with m an integer of up to 24 bits.
	m := uint64(man)
	e := exp - 150
	if exp == 0 {
		e = -149
	} else {
		m |= 1 << 23
	}
	// Half's units: subnormal step 2^-24; normal numbers keep 11 bits.
	// Find the shift that leaves an 11-bit significand (or the subnormal
	// step), then round the dropped bits.
	top := 63 - leadingZeros64(m) // position of the leading bit
	exp2 := top + e               // unbiased exponent of the value
	shiftTo := exp2 - 10          // exponent of the last kept bit
	if shiftTo < -24 {
		shiftTo = -24
	}
	drop := shiftTo - e // bits to drop (may be negative: exact)
	var q uint64
	if drop <= 0 {
		q = m << uint(-drop)
	} else {
		if drop > 40 {
			drop = 40 // all bits dropped; keep a sticky bit
			m = min(m, 1)
		}
		q = m >> uint(drop)
		rem := m & (1<<uint(drop) - 1)
		halfway := uint64(1) << uint(drop-1)
		up := false
		switch mode {
		case 0:
			up = rem > halfway || (rem == halfway && q&1 == 1)
		case 1:
			up = neg && rem != 0
		case 2:
			up = !neg && rem != 0
		}
		if up {
			q++
		}
	}
	// q·2^shiftTo; q may have grown to 12 bits by rounding.
	if q >= 1<<11 {
		q >>= 1
		shiftTo++
	}
	if q < 1<<10 { // subnormal (shiftTo == -24) or zero
		return sign | uint16(q)
	}
	hexp := shiftTo + 10 + 15 // biased exponent of q's leading bit
	if hexp >= 0x1f {
		// Overflow: infinity unless the rounding goes toward zero.
		if mode == 3 || (mode == 1 && !neg) || (mode == 2 && neg) {
			return sign | 0x7bff
		}
		return sign | 0x7c00
	}
	return sign | uint16(hexp)<<10 | uint16(q&0x3ff)
}

func leadingZeros64(x uint64) int {
	n := 0
	for x&(1<<63) == 0 {
		x <<= 1
		n++
	}
	return n
}
