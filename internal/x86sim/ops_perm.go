package x86sim

// The permutations compute into a local Vec and copy it to Dst, since an
// element of the result reads other elements of sources Dst may alias.

// addPermOps adds the shuffles, unpacks, permutations, blends and packs.
func addPermOps(m map[string]VecOp) {
	// VPSHUFB: within each 128-bit lane, byte i is Src1's byte (index & 15)
	// of the lane, or zero when the index's bit 7 is set (index in Src2).
	m["VPSHUFB"] = VecOp{Elem: 1, Exec: func(a *OpArgs) {
		var r Vec
		for i := 0; i < a.Bits/8; i++ {
			if idx := a.Src2[i]; idx&0x80 == 0 {
				r[i] = a.Src1[i&^15+int(idx&15)]
			}
		}
		copy(a.Dst[:a.Bits/8], r[:a.Bits/8])
	}}
	// VPSHUFD: within each 128-bit lane, dword i is dword imm[2i+1:2i] of
	// the lane of Src2.
	m["VPSHUFD"] = VecOp{Elem: 4, Exec: func(a *OpArgs) {
		var r Vec
		for i := 0; i < a.Bits/32; i++ {
			r.SetU32(i, a.Src2.U32(i&^3+int(a.Imm>>(2*(i&3))&3)))
		}
		copy(a.Dst[:a.Bits/8], r[:a.Bits/8])
	}}
	// VPUNPCKL*/H*: within each 128-bit lane, the low (high) half's
	// elements of Src1 and Src2 interleaved, Src1's first.
	unpack := func(size int, high bool) func(*OpArgs) {
		return func(a *OpArgs) {
			var r Vec
			per := 8 / size // elements taken from each source per lane
			for lane := 0; lane < a.Bits/8; lane += 16 {
				base := lane
				if high {
					base += 8
				}
				for i := 0; i < per; i++ {
					setElem(&r, lane+2*i*size, size, elem(a.Src1, base+i*size, size))
					setElem(&r, lane+(2*i+1)*size, size, elem(a.Src2, base+i*size, size))
				}
			}
			copy(a.Dst[:a.Bits/8], r[:a.Bits/8])
		}
	}
	for _, u := range []struct {
		name string
		size int
	}{{"BW", 1}, {"WD", 2}, {"DQ", 4}, {"QDQ", 8}} {
		m["VPUNPCKL"+u.name] = VecOp{Exec: unpack(u.size, false), Elem: u.size}
		m["VPUNPCKH"+u.name] = VecOp{Exec: unpack(u.size, true), Elem: u.size}
	}
	// VMOVSHDUP / VMOVSLDUP: the odd (even) dwords duplicated.
	dup := func(odd int) func(*OpArgs) {
		return func(a *OpArgs) {
			var r Vec
			for i := 0; i < a.Bits/32; i++ {
				r.SetU32(i, a.Src2.U32(i&^1+odd))
			}
			copy(a.Dst[:a.Bits/8], r[:a.Bits/8])
		}
	}
	m["VMOVSHDUP"] = VecOp{Exec: dup(1), Elem: 4}
	m["VMOVSLDUP"] = VecOp{Exec: dup(0), Elem: 4}
	// VMOVHLPS: Dst's low qword is Src2's high one, its high qword Src1's.
	m["VMOVHLPS"] = VecOp{Exec: func(a *OpArgs) {
		lo, hi := a.Src2.U64(1), a.Src1.U64(1)
		a.Dst.SetU64(0, lo)
		a.Dst.SetU64(1, hi)
	}}
	// VMOVLHPS: Dst's low qword is Src1's low one, its high qword Src2's low.
	m["VMOVLHPS"] = VecOp{Exec: func(a *OpArgs) {
		lo, hi := a.Src1.U64(0), a.Src2.U64(0)
		a.Dst.SetU64(0, lo)
		a.Dst.SetU64(1, hi)
	}}

	// Cross-lane permutations by an index vector: element i of the result
	// is table element (index & (n-1)), n the element count at Bits.
	// VPERMW/D/PS: the index is Src1, the table Src2.
	perm := func(size int) func(*OpArgs) {
		return func(a *OpArgs) {
			var r Vec
			n := a.Bits / 8 / size
			for i := 0; i < n; i++ {
				k := int(elem(a.Src1, i*size, size)) & (n - 1)
				setElem(&r, i*size, size, elem(a.Src2, k*size, size))
			}
			copy(a.Dst[:a.Bits/8], r[:a.Bits/8])
		}
	}
	for _, p := range []struct {
		name string
		size int
	}{{"VPERMB", 1}, {"VPERMW", 2}, {"VPERMD", 4}, {"VPERMPS", 4}} {
		m[p.name] = VecOp{Exec: perm(p.size), Elem: p.size}
	}
	// Two-table permutations: the index's bit log2(n) chooses the second
	// table. VPERMT2*: index Src1, tables Dst (overwritten) and Src2.
	// VPERMI2*: index Dst (overwritten), tables Src1 and Src2.
	perm2 := func(size int, indexInDst bool) func(*OpArgs) {
		return func(a *OpArgs) {
			var r Vec
			n := a.Bits / 8 / size
			idx, t1 := a.Src1, a.Dst
			if indexInDst {
				idx, t1 = a.Dst, a.Src1
			}
			for i := 0; i < n; i++ {
				k := int(elem(idx, i*size, size)) & (2*n - 1)
				t := t1
				if k >= n {
					t, k = a.Src2, k-n
				}
				setElem(&r, i*size, size, elem(t, k*size, size))
			}
			copy(a.Dst[:a.Bits/8], r[:a.Bits/8])
		}
	}
	for _, p := range []struct {
		suffix string
		size   int
	}{{"B", 1}, {"W", 2}, {"D", 4}, {"Q", 8}, {"PS", 4}} {
		m["VPERMT2"+p.suffix] = VecOp{Exec: perm2(p.size, false), Elem: p.size}
		m["VPERMI2"+p.suffix] = VecOp{Exec: perm2(p.size, true), Elem: p.size}
	}
	// VPERMQ (immediate): qword i is Src2's qword imm[2i+1:2i] (256 bits).
	m["VPERMQ"] = VecOp{Elem: 8, Exec: func(a *OpArgs) {
		var r Vec
		for i := 0; i < a.Bits/64; i++ {
			r.SetU64(i, a.Src2.U64(i&^3+int(a.Imm>>(2*(i&3))&3)))
		}
		copy(a.Dst[:a.Bits/8], r[:a.Bits/8])
	}}
	// VPERM2I128/F128: each 128-bit half chosen by imm[1:0] (imm[5:4])
	// from Src1's halves (0, 1) and Src2's (2, 3), or zeroed by imm[3]
	// (imm[7]).
	perm2x128 := func(a *OpArgs) {
		var r Vec
		halves := [4][]byte{a.Src1[0:16], a.Src1[16:32], a.Src2[0:16], a.Src2[16:32]}
		for h := 0; h < 2; h++ {
			ctl := a.Imm >> (4 * h)
			if ctl&8 == 0 {
				copy(r[16*h:16*h+16], halves[ctl&3])
			}
		}
		copy(a.Dst[:32], r[:32])
	}
	m["VPERM2I128"] = VecOp{Exec: perm2x128}
	m["VPERM2F128"] = VecOp{Exec: perm2x128}
	// VSHUF*: 128-bit blocks, the low half of the result's blocks from
	// Src1, the high half from Src2, each selected by imm bits (two per
	// block at 512 bits, one at 256).
	shuf := func(a *OpArgs) {
		var r Vec
		blocks := a.Bits / 128
		w := blocks / 2 // selector width in bits: 2 at 512, 1 at 256
		for b := 0; b < blocks; b++ {
			src := a.Src1
			if b >= blocks/2 {
				src = a.Src2
			}
			k := int(a.Imm>>(w*b)) & (blocks - 1)
			copy(r[16*b:16*b+16], src[16*k:16*k+16])
		}
		copy(a.Dst[:a.Bits/8], r[:a.Bits/8])
	}
	m["VSHUFI32X4"] = VecOp{Exec: shuf, Elem: 4}
	m["VSHUFF32X4"] = VecOp{Exec: shuf, Elem: 4}
	m["VSHUFI64X2"] = VecOp{Exec: shuf, Elem: 8}
	m["VSHUFF64X2"] = VecOp{Exec: shuf, Elem: 8}

	// VPBLENDM*: the mask selects Src2's element, else Src1's (the
	// interpreter's zeroing still applies to .Z forms).
	blendm := func(size int) func(*OpArgs) {
		return func(a *OpArgs) {
			for i := 0; i < a.Bits/8/size; i++ {
				src := a.Src1
				if a.Mask>>i&1 != 0 {
					src = a.Src2
				}
				setElem(a.Dst, i*size, size, elem(src, i*size, size))
			}
		}
	}
	m["VPBLENDMB"] = VecOp{Exec: blendm(1), Elem: 1, Blend: true}
	m["VPBLENDMW"] = VecOp{Exec: blendm(2), Elem: 2, Blend: true}
	m["VPBLENDMD"] = VecOp{Exec: blendm(4), Elem: 4, Blend: true}
	m["VPBLENDMQ"] = VecOp{Exec: blendm(8), Elem: 8, Blend: true}

	// Packs with saturation, within 128-bit lanes: the lane's half of
	// narrowed elements from Src1, then from Src2.
	pack := func(size int, lo, hi int64) func(*OpArgs) {
		return func(a *OpArgs) {
			var r Vec
			per := 16 / size
			for lane := 0; lane < a.Bits/8; lane += 16 {
				for k, src := range []*Vec{a.Src1, a.Src2} {
					for i := 0; i < per; i++ {
						x := sat(sext(elem(src, lane+i*size, size), size), lo, hi)
						setElem(&r, lane+(k*per+i)*size/2, size/2, uint64(x))
					}
				}
			}
			copy(a.Dst[:a.Bits/8], r[:a.Bits/8])
		}
	}
	m["VPACKSSWB"] = VecOp{Exec: pack(2, -128, 127), Elem: 1}
	m["VPACKUSWB"] = VecOp{Exec: pack(2, 0, 255), Elem: 1}
	m["VPACKSSDW"] = VecOp{Exec: pack(4, -1<<15, 1<<15-1), Elem: 2}
	m["VPACKUSDW"] = VecOp{Exec: pack(4, 0, 1<<16-1), Elem: 2}
}
