package x86sim

import "math"

// Double precision: the arithmetic the attention kernels use to sum in
// float64, the conversions between float32 and float64, and VSCALEFPS.
// NaNs follow the manual's rules for SSE/AVX operands (SDM vol. 1, "Rules
// for handling NaNs"): a NaN first source wins, else a NaN second source,
// quieted either way; an invalid operation on numbers (inf-inf, 0/0,
// inf/inf) gives the default QNaN, negative with only the quiet bit set.
// Go's float64 arithmetic and its float64<->float32 conversions round to
// nearest even with subnormals kept, as MXCSR is under Go (no DAZ, FTZ).

func (v *Vec) F64(i int) float64       { return math.Float64frombits(v.U64(i)) }
func (v *Vec) SetF64(i int, x float64) { v.SetU64(i, math.Float64bits(x)) }

const (
	indefinite64 = 0xfff8000000000000 // the default QNaN ("QNaN indefinite")
	indefinite32 = 0xffc00000
	quiet64      = 1 << 51
	quiet32      = 1 << 22
)

// dop is a float64 operation with the manual's NaN results.
func dop(f func(x, y float64) float64) func(x, y float64) float64 {
	return func(x, y float64) float64 {
		switch {
		case x != x:
			return math.Float64frombits(math.Float64bits(x) | quiet64)
		case y != y:
			return math.Float64frombits(math.Float64bits(y) | quiet64)
		}
		if r := f(x, y); r == r {
			return r
		}
		return math.Float64frombits(indefinite64)
	}
}

// cvtss2sd widens exactly; a NaN is quieted and keeps its payload (the
// fraction's bits move to the top of float64's).
func cvtss2sd(x float32) float64 {
	b := math.Float32bits(x)
	if x != x {
		return math.Float64frombits(uint64(b>>31)<<63 | 0x7ff0000000000000 | uint64(b&0x7fffff|quiet32)<<29)
	}
	return float64(x)
}

// cvtsd2ss rounds to nearest even (overflow to infinity, subnormal
// results kept); a NaN is quieted and keeps its payload's high bits.
func cvtsd2ss(x float64) float32 {
	if x != x {
		b := math.Float64bits(x)
		return math.Float32frombits(uint32(b>>63)<<31 | 0x7f800000 | quiet32 | uint32(b>>29)&0x7fffff)
	}
	return float32(x)
}

// scalef32 is VSCALEFPS's x·2^floor(y) with the manual's special cases
// (Table "VSCALEFPD/SD/PS/SS Special Cases"), the result rounded once to
// nearest even, subnormal results included (no DAZ, no FTZ).
func scalef32(x, y float32) float32 {
	xb, yb := math.Float32bits(x), math.Float32bits(y)
	yPosInf, yNegInf := yb == 0x7f800000, yb == 0xff800000
	switch {
	case x != x:
		// Src1 a QNaN: +Inf for Src2 = +Inf, +0 for -Inf; otherwise
		// (an SNaN Src1, or a NaN Src2) Src1 quieted.
		if xb&quiet32 != 0 && yPosInf {
			return math.Float32frombits(0x7f800000)
		}
		if xb&quiet32 != 0 && yNegInf {
			return 0
		}
		return math.Float32frombits(xb | quiet32)
	case y != y:
		return math.Float32frombits(yb | quiet32)
	case xb&0x7fffffff == 0x7f800000: // ±Inf
		if yNegInf {
			return math.Float32frombits(indefinite32)
		}
		return x
	case xb&0x7fffffff == 0: // ±0
		if yPosInf {
			return math.Float32frombits(indefinite32)
		}
		return x
	case yPosInf:
		return math.Float32frombits(xb&0x80000000 | 0x7f800000)
	case yNegInf:
		return math.Float32frombits(xb & 0x80000000)
	}
	// x = ±m·2^e with m an integer below 2^24; floor(y) saturated beyond
	// any exponent that could still give a finite nonzero result.
	n := math.Floor(float64(y))
	n = min(max(n, -400), 400)
	m := uint64(xb & 0x7fffff)
	e := -149
	if ef := int(xb>>23) & 0xff; ef != 0 {
		m |= 1 << 23
		e = ef - 150
	}
	return roundF32(xb>>31 != 0, m, e+int(n))
}

// roundF32 is ±m·2^k (0 < m < 2^25) rounded to the nearest float32, ties
// to even: 24 significant bits, but none below 2^-149 (subnormal results);
// beyond the largest finite float32, infinity.
func roundF32(neg bool, m uint64, k int) float32 {
	top := 63 - leadingZeros64(m)
	shift := max(top+k-23, -149) // the exponent of the result's last bit
	drop := shift - k            // bits of m below it
	var q uint64
	if drop <= 0 {
		q = m << uint(-drop)
	} else {
		drop = min(drop, 62) // m < 2^25: all of it is then below half an ulp
		q = m >> uint(drop)
		rem := m & (1<<uint(drop) - 1)
		half := uint64(1) << uint(drop-1)
		if rem > half || rem == half && q&1 == 1 {
			q++
		}
	}
	if q >= 1<<24 { // rounded up to the next power of two
		q >>= 1
		shift++
	}
	var sign uint32
	if neg {
		sign = 1 << 31
	}
	if q < 1<<23 { // subnormal (shift is -149) or zero
		return math.Float32frombits(sign | uint32(q))
	}
	ef := shift + 150 // the biased exponent of q's leading bit
	if ef >= 0xff {
		return math.Float32frombits(sign | 0x7f800000)
	}
	return math.Float32frombits(sign | uint32(ef)<<23 | uint32(q)&0x7fffff)
}

func eight(bits int) int { return 8 }

// addDoubleOps adds the float64 arithmetic (packed and scalar), the
// conversions between float32 and float64, and VSCALEFPS.
func addDoubleOps(m map[string]VecOp) {
	for _, op := range []struct {
		name string
		f    func(x, y float64) float64
	}{
		{"ADD", func(x, y float64) float64 { return x + y }},
		{"SUB", func(x, y float64) float64 { return x - y }},
		{"MUL", func(x, y float64) float64 { return x * y }},
		{"DIV", func(x, y float64) float64 { return x / y }},
	} {
		f := dop(op.f)
		m["V"+op.name+"PD"] = VecOp{Elem: 8, Exec: func(a *OpArgs) {
			for i := 0; i < a.Bits/64; i++ {
				a.Dst.SetF64(i, f(a.Src1.F64(i), a.Src2.F64(i)))
			}
		}}
		// Scalar: the low qword computed, the high one from Src1.
		m["V"+op.name+"SD"] = VecOp{Elem: 8, Mem: eight, Exec: func(a *OpArgs) {
			x := f(a.Src1.F64(0), a.Src2.F64(0))
			copy(a.Dst[8:16], a.Src1[8:16])
			a.Dst.SetF64(0, x)
		}}
	}

	// VCVTPS2PD widens the low Bits/64 floats of Src2 (half its width).
	// Elem is the destination's qword for write masks; embedded broadcast
	// (of a dword) does not fit the contract's single Elem, and the
	// kernels do not use it.
	m["VCVTPS2PD"] = VecOp{Elem: 8, Mem: func(bits int) int { return bits / 16 }, Exec: func(a *OpArgs) {
		var r Vec
		for i := 0; i < a.Bits/64; i++ {
			r.SetF64(i, cvtss2sd(a.Src2.F32(i)))
		}
		copy(a.Dst[:a.Bits/8], r[:a.Bits/8])
	}}
	// VCVTPD2PS narrows n doubles into the low half of Dst, the rest of
	// its XMM zeroed. The Go assembler names the width: VCVTPD2PSX (xmm
	// or m128 source), VCVTPD2PSY (ymm, m256), VCVTPD2PS (zmm, m512); the
	// destination, half as wide, cannot say it for a memory source. (A
	// write-masked VCVTPD2PSX from memory would load dwords by mask bit
	// where it should load qwords: the kernels use none.)
	for name, n := range map[string]int{"VCVTPD2PSX": 2, "VCVTPD2PSY": 4, "VCVTPD2PS": 8} {
		m[name] = VecOp{Elem: 4, Mem: func(int) int { return 8 * n }, Exec: func(a *OpArgs) {
			var r Vec
			for i := 0; i < n; i++ {
				r.SetF32(i, cvtsd2ss(a.Src2.F64(i)))
			}
			copy(a.Dst[:max(16, 4*n)], r[:max(16, 4*n)])
		}}
	}
	// The scalar conversions: the low element of Src2 converted, the rest
	// of the XMM from Src1.
	m["VCVTSS2SD"] = VecOp{Elem: 8, Mem: four, Exec: func(a *OpArgs) {
		x := cvtss2sd(a.Src2.F32(0))
		copy(a.Dst[8:16], a.Src1[8:16])
		a.Dst.SetF64(0, x)
	}}
	m["VCVTSD2SS"] = VecOp{Elem: 4, Mem: eight, Exec: func(a *OpArgs) {
		x := cvtsd2ss(a.Src2.F64(0))
		copy(a.Dst[4:16], a.Src1[4:16])
		a.Dst.SetF32(0, x)
	}}

	m["VSCALEFPS"] = VecOp{Elem: 4, Exec: fop(scalef32)}
}
