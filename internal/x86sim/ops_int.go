package x86sim

import "encoding/binary"

// elem reads the element of size bytes (1, 2, 4 or 8) at byte offset off,
// zero-extended.
func elem(v *Vec, off, size int) uint64 {
	switch size {
	case 1:
		return uint64(v[off])
	case 2:
		return uint64(binary.LittleEndian.Uint16(v[off:]))
	case 4:
		return uint64(binary.LittleEndian.Uint32(v[off:]))
	}
	return binary.LittleEndian.Uint64(v[off:])
}

// setElem writes the low size bytes of x at byte offset off.
func setElem(v *Vec, off, size int, x uint64) {
	switch size {
	case 1:
		v[off] = uint8(x)
	case 2:
		binary.LittleEndian.PutUint16(v[off:], uint16(x))
	case 4:
		binary.LittleEndian.PutUint32(v[off:], uint32(x))
	default:
		binary.LittleEndian.PutUint64(v[off:], x)
	}
}

// sext sign-extends the low size bytes of x.
func sext(x uint64, size int) int64 {
	s := 64 - 8*uint(size)
	return int64(x<<s) >> s
}

// binop is an element-wise operation of two sources; element i of the
// result depends on element i of the sources only, so Dst may alias them.
func binop(size int, f func(x, y uint64) uint64) func(*OpArgs) {
	return func(a *OpArgs) {
		for off := 0; off < a.Bits/8; off += size {
			setElem(a.Dst, off, size, f(elem(a.Src1, off, size), elem(a.Src2, off, size)))
		}
	}
}

// sat clamps x to [lo, hi].
func sat(x, lo, hi int64) int64 {
	return min(max(x, lo), hi)
}

// addIntOps adds the integer arithmetic: additions, subtractions,
// multiplications and the dot products (which wrap around or saturate
// exactly as the manual says, instruction by instruction).
func addIntOps(m map[string]VecOp) {
	add := func(x, y uint64) uint64 { return x + y }
	sub := func(x, y uint64) uint64 { return x - y }
	for _, s := range []struct {
		name string
		size int
	}{{"B", 1}, {"W", 2}, {"D", 4}, {"Q", 8}} {
		m["VPADD"+s.name] = VecOp{Exec: binop(s.size, add), Elem: s.size}
		m["VPSUB"+s.name] = VecOp{Exec: binop(s.size, sub), Elem: s.size}
	}
	m["VPMULLD"] = VecOp{Exec: binop(4, func(x, y uint64) uint64 { return uint64(uint32(x) * uint32(y)) }), Elem: 4}

	// VPMADDUBSW: unsigned bytes of Src1 times signed bytes of Src2, the
	// two products of a word added with signed saturation.
	m["VPMADDUBSW"] = VecOp{Elem: 2, Exec: func(a *OpArgs) {
		for i := 0; i < a.Bits/16; i++ {
			s := int64(a.Src1.U8(2*i))*int64(a.Src2.I8(2*i)) + int64(a.Src1.U8(2*i+1))*int64(a.Src2.I8(2*i+1))
			a.Dst.SetI16(i, int16(sat(s, -1<<15, 1<<15-1)))
		}
	}}
	// VPMADDWD: signed words multiplied, the pair summed into a dword
	// (only 0x8000·0x8000 twice overflows; it wraps to 0x80000000).
	m["VPMADDWD"] = VecOp{Elem: 4, Exec: func(a *OpArgs) {
		for i := 0; i < a.Bits/32; i++ {
			s := int64(a.Src1.I16(2*i))*int64(a.Src2.I16(2*i)) + int64(a.Src1.I16(2*i+1))*int64(a.Src2.I16(2*i+1))
			a.Dst.SetI32(i, int32(s))
		}
	}}
	// VPDPBUSD (AVX512_VNNI): four products of Src1's unsigned bytes and
	// Src2's signed bytes added to the dword accumulator, wrapping around.
	m["VPDPBUSD"] = VecOp{Elem: 4, Exec: func(a *OpArgs) {
		for i := 0; i < a.Bits/32; i++ {
			s := a.Dst.I32(i)
			for j := 4 * i; j < 4*i+4; j++ {
				s += int32(a.Src1.U8(j)) * int32(a.Src2.I8(j))
			}
			a.Dst.SetI32(i, s)
		}
	}}
	// VPDPWSSD (AVX512_VNNI): two products of signed words added to the
	// dword accumulator, wrapping around.
	m["VPDPWSSD"] = VecOp{Elem: 4, Exec: func(a *OpArgs) {
		for i := 0; i < a.Bits/32; i++ {
			s := a.Dst.I32(i)
			s += int32(a.Src1.I16(2*i)) * int32(a.Src2.I16(2*i))
			s += int32(a.Src1.I16(2*i+1)) * int32(a.Src2.I16(2*i+1))
			a.Dst.SetI32(i, s)
		}
	}}
	// VPHADDW / VPHADDD: in each 128-bit lane, the sums of adjacent pairs
	// of Src1 (low half of the lane) then of Src2 (high half), wrapping.
	hadd := func(size int) func(*OpArgs) {
		return func(a *OpArgs) {
			var r Vec
			half := 8 / size // results per source per lane
			for lane := 0; lane < a.Bits/8; lane += 16 {
				for k, src := range []*Vec{a.Src1, a.Src2} {
					for i := 0; i < half; i++ {
						x := elem(src, lane+2*i*size, size) + elem(src, lane+(2*i+1)*size, size)
						setElem(&r, lane+(k*half+i)*size, size, x)
					}
				}
			}
			copy(a.Dst[:a.Bits/8], r[:a.Bits/8])
		}
	}
	m["VPHADDW"] = VecOp{Exec: hadd(2)}
	m["VPHADDD"] = VecOp{Exec: hadd(4)}

	// VPSIGNB: Src1's byte negated, zeroed or kept by the sign of Src2's.
	m["VPSIGNB"] = VecOp{Exec: binop(1, func(x, y uint64) uint64 {
		switch {
		case int8(y) < 0:
			return -x
		case y&0xff == 0:
			return 0
		}
		return x
	})}
	m["VPABSB"] = VecOp{Elem: 1, Exec: func(a *OpArgs) {
		for i := 0; i < a.Bits/8; i++ {
			x := a.Src2.I8(i)
			if x < 0 {
				x = -x // -128 stays 0x80, read as unsigned 128
			}
			a.Dst.SetI8(i, x)
		}
	}}
	smax := func(size int, less bool, signed bool) func(x, y uint64) uint64 {
		return func(x, y uint64) uint64 {
			var lt bool
			if signed {
				lt = sext(x, size) < sext(y, size)
			} else {
				lt = x < y
			}
			if lt == less {
				return x
			}
			return y
		}
	}
	m["VPMAXSD"] = VecOp{Elem: 4, Exec: binop(4, smax(4, false, true))}
	m["VPMINSD"] = VecOp{Elem: 4, Exec: binop(4, smax(4, true, true))}
	m["VPMAXUW"] = VecOp{Elem: 2, Exec: binop(2, smax(2, false, false))}
	m["VPMINUW"] = VecOp{Elem: 2, Exec: binop(2, smax(2, true, false))}
	cmp := func(size int, f func(x, y int64) bool) func(*OpArgs) {
		return binop(size, func(x, y uint64) uint64 {
			if f(sext(x, size), sext(y, size)) {
				return ^uint64(0)
			}
			return 0
		})
	}
	// The VEX compares only (their EVEX forms write an opmask register).
	eq := func(x, y int64) bool { return x == y }
	m["VPCMPEQB"] = VecOp{Exec: cmp(1, eq)}
	m["VPCMPEQD"] = VecOp{Exec: cmp(4, eq)}
	m["VPCMPGTD"] = VecOp{Exec: cmp(4, func(x, y int64) bool { return x > y })}

	// VPHMINPOSUW: the minimum unsigned word of the XMM source and its
	// lowest index; the rest of the destination zeroed.
	m["VPHMINPOSUW"] = VecOp{Exec: func(a *OpArgs) {
		best, idx := a.Src2.U16(0), 0
		for i := 1; i < 8; i++ {
			if w := a.Src2.U16(i); w < best {
				best, idx = w, i
			}
		}
		var r Vec
		r.SetU16(0, best)
		r.SetU16(1, uint16(idx))
		copy(a.Dst[:16], r[:16])
	}}
}
