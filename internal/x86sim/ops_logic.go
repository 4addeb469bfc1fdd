package x86sim

import "math/bits"

// addLogicOps adds the bitwise operations, the shifts and the GF(2)
// affine transformation.
func addLogicOps(m map[string]VecOp) {
	and := func(x, y uint64) uint64 { return x & y }
	or := func(x, y uint64) uint64 { return x | y }
	xor := func(x, y uint64) uint64 { return x ^ y }
	andn := func(x, y uint64) uint64 { return ^x & y }
	for _, op := range []struct {
		name string
		f    func(x, y uint64) uint64
	}{{"AND", and}, {"OR", or}, {"XOR", xor}, {"ANDN", andn}} {
		m["VP"+op.name] = VecOp{Exec: binop(8, op.f)}
		m["VP"+op.name+"D"] = VecOp{Exec: binop(4, op.f), Elem: 4}
		m["VP"+op.name+"Q"] = VecOp{Exec: binop(8, op.f), Elem: 8}
		m["V"+op.name+"PS"] = VecOp{Exec: binop(4, op.f), Elem: 4}
		m["V"+op.name+"PD"] = VecOp{Exec: binop(8, op.f), Elem: 8}
	}

	// VPTERNLOGD: bit i of the result is imm[(dst_i<<2)|(src1_i<<1)|src2_i].
	m["VPTERNLOGD"] = VecOp{Elem: 4, Exec: func(a *OpArgs) {
		for i := 0; i < a.Bits/8; i++ {
			d, s1, s2 := a.Dst[i], a.Src1[i], a.Src2[i]
			var r uint8
			for b := uint(0); b < 8; b++ {
				k := (d>>b&1)<<2 | (s1>>b&1)<<1 | s2>>b&1
				r |= (a.Imm >> k & 1) << b
			}
			a.Dst[i] = r
		}
	}}

	// VPSHLDD (AVX512_VBMI2): the high dword of (src1:src2) << (imm mod 32).
	m["VPSHLDD"] = VecOp{Elem: 4, Exec: func(a *OpArgs) {
		n := uint(a.Imm) % 32
		for i := 0; i < a.Bits/32; i++ {
			x := uint64(a.Src1.U32(i))<<32 | uint64(a.Src2.U32(i))
			a.Dst.SetU32(i, uint32(x<<n>>32))
		}
	}}

	// VGF2P8AFFINEQB (GFNI): for byte b of qword j, result bit i is the
	// parity of (src2.qword[j].byte[7-i] AND src1.qword[j].byte[b]), XOR
	// imm bit i. The write mask is per byte (Elem 1), but embedded
	// broadcast is of a qword: the contract's single Elem cannot say both;
	// the kernels use neither.
	m["VGF2P8AFFINEQB"] = VecOp{Elem: 1, Exec: func(a *OpArgs) {
		for j := 0; j < a.Bits/64; j++ {
			mat := a.Src2.U64(j)
			for b := 0; b < 8; b++ {
				x := a.Src1.U8(8*j + b)
				var r uint8
				for i := 0; i < 8; i++ {
					row := uint8(mat >> (8 * (7 - i)))
					p := uint8(bits.OnesCount8(row&x)) & 1
					r |= (p ^ a.Imm>>i&1) << i
				}
				a.Dst.SetU8(8*j+b, r)
			}
		}
	}}

	addShiftOps(m)
}

// shiftCount is the count of a uniform shift: the immediate in the
// two-operand form ("VPSRLW $4, Z1, Z2": the data is Src2), or the low
// quadword of Src2 in the three-operand form ("VPSRLW X3, Z1, Z2": the data
// is Src1).
func shiftCount(a *OpArgs) (data *Vec, n uint64) {
	if a.Src1 == nil {
		return a.Src2, uint64(a.Imm)
	}
	return a.Src1, a.Src2.U64(0)
}

// addShiftOps adds the logical and arithmetic shifts, uniform and
// per-element ("V" forms). Counts at or above the element width give 0
// (logical) or the sign (arithmetic).
func addShiftOps(m map[string]VecOp) {
	shl := func(x, n uint64, size int) uint64 {
		if n >= uint64(8*size) {
			return 0
		}
		return x << n
	}
	shr := func(x, n uint64, size int) uint64 {
		if n >= uint64(8*size) {
			return 0
		}
		return x >> n
	}
	sar := func(x, n uint64, size int) uint64 {
		n = min(n, uint64(8*size-1))
		return uint64(sext(x, size) >> n)
	}
	uniform := func(size int, f func(x, n uint64, size int) uint64) func(*OpArgs) {
		return func(a *OpArgs) {
			data, n := shiftCount(a)
			for off := 0; off < a.Bits/8; off += size {
				setElem(a.Dst, off, size, f(elem(data, off, size), n, size))
			}
		}
	}
	perElem := func(size int, f func(x, n uint64, size int) uint64) func(*OpArgs) {
		return binop(size, func(x, y uint64) uint64 { return f(x, y, size) })
	}
	for _, s := range []struct {
		name string
		size int
	}{{"W", 2}, {"D", 4}, {"Q", 8}} {
		m["VPSLL"+s.name] = VecOp{Exec: uniform(s.size, shl), Elem: s.size}
		m["VPSRL"+s.name] = VecOp{Exec: uniform(s.size, shr), Elem: s.size}
		m["VPSLLV"+s.name] = VecOp{Exec: perElem(s.size, shl), Elem: s.size}
		m["VPSRLV"+s.name] = VecOp{Exec: perElem(s.size, shr), Elem: s.size}
		if s.size != 8 {
			m["VPSRA"+s.name] = VecOp{Exec: uniform(s.size, sar), Elem: s.size}
			m["VPSRAV"+s.name] = VecOp{Exec: perElem(s.size, sar), Elem: s.size}
		}
	}
}
