package x86sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// half256 is the 256-bit half h (0 low, 1 high) of v, moved to the low
// bytes.
func half256(v *Vec, h int) Vec {
	var r Vec
	copy(r[:32], v[32*h:32*h+32])
	return r
}

// TestLaneWise512 checks that the 512-bit form of every op that works
// element by element or within 128-bit lanes equals its 256-bit form on
// each half (the 256-bit forms are checked natively or independently), for
// the immediates given.
func TestLaneWise512(t *testing.T) {
	ops := vectorOps()
	r := rand.New(rand.NewPCG(13, 14))
	type lw struct {
		names string
		imms  []uint8
		twoOp bool
	}
	list := []lw{
		{names: `VPADDB VPADDW VPADDD VPADDQ VPSUBB VPSUBW VPSUBD VPSUBQ VPMULLD VPMADDUBSW
			VPMADDWD VPDPBUSD VPDPWSSD VPAND VPANDD VPANDQ VPOR VPORD VPXOR VPXORD VPANDN
			VPSHUFB VPUNPCKLBW VPUNPCKHBW VPUNPCKLWD VPUNPCKHWD VPUNPCKLDQ VPUNPCKHDQ
			VPUNPCKLQDQ VPUNPCKHQDQ VPSLLVW VPSRLVW VPSLLVD VPSRLVD VPSRAVD VPSRAVW VPHADDW VPHADDD
			VADDPS VSUBPS VMULPS VDIVPS VMAXPS VMINPS VFMADD231PS VFMADD213PS VFNMADD231PS
			VFNMADD213PS VDPBF16PS VPACKSSWB VPACKSSDW VPACKUSWB VPACKUSDW VPMAXSD VPMINSD
			VPMAXUW VPMINUW VPSIGNB`},
		{names: "VPTERNLOGD", imms: []uint8{0x96, 0xe8, 0xca, 0xf8, 0xfe, 0x00, 0x5a}},
		{names: "VPSHLDD", imms: []uint8{0, 1, 16, 31, 32, 47}},
		{names: "VGF2P8AFFINEQB", imms: []uint8{0, 0x63, 0xff}},
		{names: "VPSHUFD", imms: []uint8{0xb1, 0x4e, 0x1b}, twoOp: true},
		{names: "VPERMQ", imms: []uint8{0xd8, 0x4e}, twoOp: true},
		{names: "VPSLLW VPSRLW VPSRAW VPSLLD VPSRLD VPSRAD VPSLLQ VPSRLQ", imms: []uint8{0, 1, 4, 8, 15, 16, 31, 32, 64}, twoOp: true},
		{names: "VCVTDQ2PS VCVTPS2DQ VMOVSHDUP VMOVSLDUP VPABSB VMOVDQU64 VMOVUPS", twoOp: true},
	}
	for _, l := range list {
		imms := l.imms
		if imms == nil {
			imms = []uint8{0}
		}
		for _, name := range fieldsOf(l.names) {
			for _, imm := range imms {
				for it := 0; it < 20; it++ {
					v := vecs(r, 3)
					if it%2 == 0 {
						for i := 0; i < 16; i++ {
							v[0].SetF32(i, randF32(r))
							v[1].SetF32(i, randF32(r))
							v[2].SetF32(i, randF32(r))
						}
					}
					var s1 *Vec
					if !l.twoOp {
						s1 = &v[1]
					}
					wide := run(t, ops, name, 512, imm, &v[0], s1, &v[2])
					for h := 0; h < 2; h++ {
						d, a, b := half256(&v[0], h), half256(&v[1], h), half256(&v[2], h)
						var s1h *Vec
						if !l.twoOp {
							s1h = &a
						}
						n := run(t, ops, name, 256, imm, &d, s1h, &b)
						if string(n[:32]) != string(wide[32*h:32*h+32]) {
							t.Fatalf("%s $%#x: half %d of the 512-bit result %x, the 256-bit form gives %x", name, imm, h, wide[32*h:32*h+32], n[:32])
						}
					}
				}
			}
		}
	}
}

func fieldsOf(s string) []string {
	var out []string
	word := ""
	for _, c := range s + " " {
		if c == ' ' || c == '\n' || c == '\t' {
			if word != "" {
				out = append(out, word)
			}
			word = ""
			continue
		}
		word += string(c)
	}
	return out
}

// TestWidening512 checks the 512-bit widening and narrowing moves against
// their 256-bit forms on each half of the source.
func TestWidening512(t *testing.T) {
	ops := vectorOps()
	r := rand.New(rand.NewPCG(15, 16))
	for it := 0; it < 50; it++ {
		v := vecs(r, 2)
		for _, name := range []string{"VCVTPH2PS", "VPMOVSXBW", "VPMOVZXBW"} {
			wide := run(t, ops, name, 512, 0, &v[0], nil, &v[1])
			for h := 0; h < 2; h++ {
				var src Vec
				copy(src[:16], v[1][16*h:16*h+16])
				n := run(t, ops, name, 256, 0, &v[0], nil, &src)
				if string(n[:32]) != string(wide[32*h:32*h+32]) {
					t.Fatalf("%s: half %d differs", name, h)
				}
			}
		}
		// VCVTPS2PH narrows each 256-bit half to 16 bytes (floats of every
		// kind, all four rounding modes and MXCSR's).
		for i := 0; i < 16; i++ {
			v[1].SetF32(i, randF32(r))
		}
		for imm := uint8(0); imm < 5; imm++ {
			wide := run(t, ops, "VCVTPS2PH", 512, imm, &v[0], nil, &v[1])
			for h := 0; h < 2; h++ {
				src := half256(&v[1], h)
				n := run(t, ops, "VCVTPS2PH", 256, imm, &v[0], nil, &src)
				if string(n[:16]) != string(wide[16*h:16*h+16]) {
					t.Fatalf("VCVTPS2PH $%d: half %d differs", imm, h)
				}
			}
		}
		wide := run(t, ops, "VPMOVDW", 512, 0, &v[0], nil, &v[1])
		for i := 0; i < 16; i++ {
			if wide.U16(i) != uint16(v[1].U32(i)) {
				t.Fatalf("VPMOVDW word %d: %#x of %#x", i, wide.U16(i), v[1].U32(i))
			}
		}
	}
}

// TestPermutes checks the cross-lane permutations against lookups in the
// concatenated tables, at 256 and 512 bits.
func TestPermutes(t *testing.T) {
	ops := vectorOps()
	r := rand.New(rand.NewPCG(17, 18))
	for it := 0; it < 100; it++ {
		v := vecs(r, 3)
		for _, bitsN := range []int{128, 256, 512} {
			nb := bitsN / 8
			// VPERMT2B: index Src1, tables Dst then Src2.
			tbl := append(append([]byte{}, v[0][:nb]...), v[2][:nb]...)
			got := run(t, ops, "VPERMT2B", bitsN, 0, &v[0], &v[1], &v[2])
			for i := 0; i < nb; i++ {
				if want := tbl[int(v[1][i])%(2*nb)]; got[i] != want {
					t.Fatalf("VPERMT2B/%d byte %d: %#x, want %#x", bitsN, i, got[i], want)
				}
			}
			// VPERMT2W: words; VPERMI2W: index Dst, tables Src1 then Src2.
			nw := nb / 2
			words := func(vs ...*Vec) []uint16 {
				var w []uint16
				for _, x := range vs {
					for i := 0; i < nw; i++ {
						w = append(w, x.U16(i))
					}
				}
				return w
			}
			t2 := words(&v[0], &v[2])
			i2 := words(&v[1], &v[2])
			gt := run(t, ops, "VPERMT2W", bitsN, 0, &v[0], &v[1], &v[2])
			gi := run(t, ops, "VPERMI2W", bitsN, 0, &v[0], &v[1], &v[2])
			gp := run(t, ops, "VPERMW", bitsN, 0, &v[0], &v[1], &v[2])
			for i := 0; i < nw; i++ {
				if want := t2[int(v[1].U16(i))%(2*nw)]; gt.U16(i) != want {
					t.Fatalf("VPERMT2W/%d word %d", bitsN, i)
				}
				if want := i2[int(v[0].U16(i))%(2*nw)]; gi.U16(i) != want {
					t.Fatalf("VPERMI2W/%d word %d", bitsN, i)
				}
				if want := v[2].U16(int(v[1].U16(i)) % nw); gp.U16(i) != want {
					t.Fatalf("VPERMW/%d word %d", bitsN, i)
				}
			}
			gs := run(t, ops, "VPERMPS", bitsN, 0, &v[0], &v[1], &v[2])
			for i := 0; i < bitsN/32; i++ {
				if want := v[2].U32(int(v[1].U32(i)) % (bitsN / 32)); gs.U32(i) != want {
					t.Fatalf("VPERMPS/%d dword %d", bitsN, i)
				}
			}
		}
	}
}

// TestBlocks checks VSHUF*, the 128/256-bit inserts, extracts and
// broadcasts on numbered blocks, for every immediate.
func TestBlocks(t *testing.T) {
	ops := vectorOps()
	// Block b of a (b+1)·16 bytes of value b, of b (b+4) likewise.
	var a, b Vec
	for i := range a {
		a[i] = uint8(i / 16)
		b[i] = uint8(i/16 + 4)
	}
	blocks := func(v *Vec, n int) []uint8 {
		var out []uint8
		for i := 0; i < n; i++ {
			out = append(out, v[16*i])
			for j := 16 * i; j < 16*i+16; j++ {
				if v[j] != v[16*i] {
					t.Fatalf("block %d is mixed: %x", i, v[16*i:16*i+16])
				}
			}
		}
		return out
	}
	var zero Vec
	for imm := 0; imm < 256; imm++ {
		for _, name := range []string{"VSHUFI64X2", "VSHUFI32X4", "VSHUFF32X4", "VSHUFF64X2"} {
			got := blocks(ptr(run(t, ops, name, 512, uint8(imm), &zero, &a, &b)), 4)
			want := []uint8{uint8(imm & 3), uint8(imm >> 2 & 3), uint8(imm>>4&3) + 4, uint8(imm>>6&3) + 4}
			if string(got) != string(want) {
				t.Fatalf("%s $%#x: blocks %v, want %v", name, imm, got, want)
			}
			got = blocks(ptr(run(t, ops, name, 256, uint8(imm), &zero, &a, &b)), 2)
			want = []uint8{uint8(imm & 1), uint8(imm>>1&1) + 4}
			if string(got) != string(want) {
				t.Fatalf("%s/256 $%#x: blocks %v, want %v", name, imm, got, want)
			}
		}
	}
	for imm := 0; imm < 8; imm++ {
		// Inserts of b's block 0 (value 4) into a.
		got := blocks(ptr(run(t, ops, "VINSERTI32X4", 512, uint8(imm), &zero, &a, &b)), 4)
		want := []uint8{0, 1, 2, 3}
		want[imm%4] = 4
		if string(got) != string(want) {
			t.Fatalf("VINSERTI32X4 $%d: %v", imm, got)
		}
		got = blocks(ptr(run(t, ops, "VINSERTI32X4", 256, uint8(imm), &zero, &a, &b)), 2)
		want = []uint8{0, 1}
		want[imm%2] = 4
		if string(got) != string(want) {
			t.Fatalf("VINSERTI32X4/256 $%d: %v", imm, got)
		}
		got = blocks(ptr(run(t, ops, "VINSERTI64X4", 512, uint8(imm), &zero, &a, &b)), 4)
		want = []uint8{0, 1, 2, 3}
		want[2*(imm%2)], want[2*(imm%2)+1] = 4, 5
		if string(got) != string(want) {
			t.Fatalf("VINSERTI64X4 $%d: %v", imm, got)
		}
		// Extracts from a.
		for _, x := range []struct {
			name    string
			bits, n int
		}{{"VEXTRACTF32X4", 512, 1}, {"VEXTRACTI32X4", 512, 1}, {"VEXTRACTF32X4", 256, 1}, {"VEXTRACTF32X8", 512, 2}, {"VEXTRACTI64X4", 512, 2}} {
			got := blocks(ptr(run(t, ops, x.name, x.bits, uint8(imm), &zero, nil, &a)), x.n)
			k := imm % (x.bits / 128 / x.n)
			for i, g := range got {
				if int(g) != k*x.n+i {
					t.Fatalf("%s/%d $%d: blocks %v", x.name, x.bits, imm, got)
				}
			}
		}
	}
	// Broadcasts of b's first 16 or 32 bytes (blocks 4, 5).
	if got := blocks(ptr(run(t, ops, "VBROADCASTI32X4", 512, 0, &zero, nil, &b)), 4); string(got) != "\x04\x04\x04\x04" {
		t.Fatalf("VBROADCASTI32X4: %v", got)
	}
	if got := blocks(ptr(run(t, ops, "VBROADCASTI64X4", 512, 0, &zero, nil, &b)), 4); string(got) != "\x04\x05\x04\x05" {
		t.Fatalf("VBROADCASTI64X4: %v", got)
	}
}

func ptr(v Vec) *Vec { return &v }

// TestBlendMask checks VPBLENDMW: the mask's bit i takes Src2's word i.
func TestBlendMask(t *testing.T) {
	ops := vectorOps()
	r := rand.New(rand.NewPCG(19, 20))
	v := vecs(r, 3)
	op := ops["VPBLENDMW"]
	if !op.Blend {
		t.Fatal("VPBLENDMW does not read the mask")
	}
	for _, mask := range []uint64{0, ^uint64(0), 0x5555aaaa, 1, 1 << 31, uint64(r.Uint32())} {
		d := v[0]
		op.Exec(&OpArgs{Dst: &d, Src1: &v[1], Src2: &v[2], Bits: 512, Mask: mask})
		for i := 0; i < 32; i++ {
			want := v[1].U16(i)
			if mask>>i&1 != 0 {
				want = v[2].U16(i)
			}
			if d.U16(i) != want {
				t.Fatalf("mask %#x word %d: %#x, want %#x", mask, i, d.U16(i), want)
			}
		}
	}
}

// dpbf16Package is the shards/tensor formulation of VDPBF16PS (dpbf16,
// which real AVX512_BF16 CPUs matched in the package's tests): products
// of DAZ'd inputs rounded to float32, added (odd element first) with each
// sum rounded and flushed to zero; the accumulator itself not DAZ'd.
func dpbf16Package(acc float32, w, x [2]uint16) float32 {
	hi := float32(bf16DAZ(w[1]) * bf16DAZ(x[1]))
	lo := float32(bf16DAZ(w[0]) * bf16DAZ(x[0]))
	acc = flushZ(float32(acc + hi))
	return flushZ(float32(acc + lo))
}

// TestDPBF16 checks VDPBF16PS against the package's formulation on
// ordinary data (where the products are exact in float32 the two agree),
// and hand cases of the manual's DAZ, FTZ, order and single rounding.
func TestDPBF16(t *testing.T) {
	ops := vectorOps()
	r := rand.New(rand.NewPCG(21, 22))
	bf := func() uint16 {
		// Exponents around 1 so products and sums stay normal, and a few
		// subnormals and zeros for DAZ.
		switch r.IntN(10) {
		case 0:
			return uint16(r.IntN(0x80)) | uint16(r.IntN(2))<<15 // subnormal or zero
		}
		return uint16(r.IntN(2))<<15 | uint16(100+r.IntN(56))<<7 | uint16(r.IntN(128))
	}
	for it := 0; it < 2000; it++ {
		var d, a, b Vec
		for i := 0; i < 16; i++ {
			d.SetF32(i, float32(r.NormFloat64()))
			for k := 0; k < 2; k++ {
				a.SetU16(2*i+k, bf())
				b.SetU16(2*i+k, bf())
			}
		}
		got := run(t, ops, "VDPBF16PS", 512, 0, &d, &a, &b)
		for i := 0; i < 16; i++ {
			want := dpbf16Package(d.F32(i), [2]uint16{a.U16(2 * i), a.U16(2*i + 1)}, [2]uint16{b.U16(2 * i), b.U16(2*i + 1)})
			if math.Float32bits(got.F32(i)) != math.Float32bits(want) {
				t.Fatalf("lane %d: %g, the package's order gives %g", i, got.F32(i), want)
			}
		}
	}
	one := func(acc float32, w1, x1, w0, x0 uint16) float32 {
		var d, a, b Vec
		d.SetF32(0, acc)
		a.SetU16(0, w0)
		a.SetU16(1, w1)
		b.SetU16(0, x0)
		b.SetU16(1, x1)
		res := run(t, ops, "VDPBF16PS", 128, 0, &d, &a, &b)
		return res.F32(0)
	}
	const bOne, bTwoM24 = 0x3f80, 0x3380 // 1.0, 2^-24
	// Order: 2^-24 + (odd) 2^-24 + (even) 1 is 1+2^-23 exactly; with
	// the even pair first, 2^-24 + 1 would round to 1 (a tie to even) and
	// stay there. Swapped, the sum is 1.
	if got := one(0x1p-24, bOne, bTwoM24, bOne, bOne); got != 1+0x1p-23 {
		t.Fatalf("order: %g", got)
	}
	if got := one(0x1p-24, bOne, bOne, bOne, bTwoM24); got != 1 {
		t.Fatalf("order (swapped): %g", got)
	}
	// DAZ: a subnormal bf16 input counts as zero.
	if got := one(0, 0x0001, bOne, 0, 0); got != 0 {
		t.Fatalf("DAZ: %g", got)
	}
	// DAZ of the accumulator ("DAZ in": read as every input of the FMA):
	// a subnormal 2^-130 counts as zero, so 2^-130 + 2^-126 gives 2^-126
	// (the package's order, which does not DAZ the accumulator, gives
	// 2^-126+2^-130; the kernels start from zero and FTZ keeps it normal
	// or zero, so they never meet the difference).
	if got := one(0x1p-130, 0x0080, bOne, 0, 0); got != 0x1p-126 {
		t.Fatalf("DAZ of the accumulator: %g", got)
	}
	// FTZ: 2^-100·2^-30 = 2^-130, subnormal in float32: flushed to zero.
	if got := one(0, 0x0d80, 0x3080, 0, 0); got != 0 || math.Signbit(float64(got)) {
		t.Fatalf("FTZ: %g", got)
	}
	// Single rounding where the package rounds the product first: the
	// product 1.25·2^-149 (1.25·2^-75 times 2^-74) added to 2^-125. The
	// exact sum 2^-125 + 0.625 ulp rounds up to 2^-125+2^-148 (normal);
	// rounding the product first gives 2^-149 and a tie to even, 2^-125.
	// The manual's FMA gives the first; the package's order the second.
	w, x := uint16(0x1a20), uint16(0x1a80) // 1.25·2^-75, 2^-74
	acc := float32(0x1p-125)
	if got := one(acc, w, x, 0, 0); got != acc+0x1p-148 {
		t.Fatalf("single rounding: %g", got)
	}
	if pkg := dpbf16Package(acc, [2]uint16{0, w}, [2]uint16{0, x}); pkg != acc {
		t.Fatalf("the package's order gives %g here, not the rounded-product value", pkg)
	}
}

// TestTwoTablePermutes checks every element size of VPERMT2* and VPERMI2*
// against a lookup in the concatenated tables: index & (2n-1) into (Dst,
// Src2) for T2 with the index in Src1, into (Src1, Src2) for I2 with the
// index in Dst.
func TestTwoTablePermutes(t *testing.T) {
	ops := vectorOps()
	r := rand.New(rand.NewPCG(29, 30))
	for it := 0; it < 30; it++ {
		v := vecs(r, 3)
		for _, p := range []struct {
			suffix string
			size   int
		}{{"B", 1}, {"W", 2}, {"D", 4}, {"Q", 8}, {"PS", 4}} {
			for _, bitsN := range []int{128, 256, 512} {
				nb := bitsN / 8
				n := nb / p.size
				concat := func(a, b *Vec) []byte { return append(append([]byte{}, a[:nb]...), b[:nb]...) }
				for _, form := range []string{"VPERMT2", "VPERMI2"} {
					idx, tbl := &v[1], concat(&v[0], &v[2])
					if form == "VPERMI2" {
						idx, tbl = &v[0], concat(&v[1], &v[2])
					}
					got := run(t, ops, form+p.suffix, bitsN, 0, &v[0], &v[1], &v[2])
					for i := 0; i < n; i++ {
						k := int(elem(idx, i*p.size, p.size) % uint64(2*n))
						if want := tbl[k*p.size : (k+1)*p.size]; string(got[i*p.size:(i+1)*p.size]) != string(want) {
							t.Fatalf("%s%s/%d element %d", form, p.suffix, bitsN, i)
						}
					}
				}
			}
		}
	}
}

// TestBlockOps checks every insert, extract and block broadcast on
// numbered 16-byte blocks, for every immediate that selects.
func TestBlockOps(t *testing.T) {
	ops := vectorOps()
	var a, b Vec
	for i := range a {
		a[i] = uint8(i / 16)
		b[i] = uint8(i/16 + 4)
	}
	block := func(v *Vec, i int) uint8 { return v[16*i] }
	for _, x := range []struct {
		suffix string
		n      int // bytes moved
		widths []int
	}{{"128", 16, []int{256}}, {"32X4", 16, []int{256, 512}}, {"64X2", 16, []int{256, 512}}, {"32X8", 32, []int{512}}, {"64X4", 32, []int{512}}} {
		for _, ty := range []string{"I", "F"} {
			for _, bitsN := range x.widths {
				blocks := bitsN / 128
				per := x.n / 16
				for imm := 0; imm < 4; imm++ {
					k := imm % (bitsN / 8 / x.n)
					var zero Vec
					ins := run(t, ops, "VINSERT"+ty+x.suffix, bitsN, uint8(imm), &zero, &a, &b)
					ext := run(t, ops, "VEXTRACT"+ty+x.suffix, bitsN, uint8(imm), &zero, nil, &a)
					for i := 0; i < blocks; i++ {
						want := uint8(i)
						if i/per == k {
							want = uint8(4 + i%per)
						}
						if block(&ins, i) != want {
							t.Fatalf("VINSERT%s%s/%d $%d: block %d is %d, want %d", ty, x.suffix, bitsN, imm, i, block(&ins, i), want)
						}
					}
					for i := 0; i < per; i++ {
						if block(&ext, i) != uint8(k*per+i) {
							t.Fatalf("VEXTRACT%s%s/%d $%d: block %d is %d", ty, x.suffix, bitsN, imm, i, block(&ext, i))
						}
					}
				}
				// The block broadcast of the same size.
				name := "VBROADCAST" + ty + x.suffix
				got := run(t, ops, name, bitsN, 0, &a, nil, &b)
				for i := 0; i < blocks; i++ {
					if block(&got, i) != uint8(4+i%per) {
						t.Fatalf("%s/%d: block %d is %d", name, bitsN, i, block(&got, i))
					}
				}
			}
		}
	}
	// VBROADCASTSD: the low qword everywhere.
	var q Vec
	q.SetU64(0, 0x1122334455667788)
	got := run(t, ops, "VBROADCASTSD", 512, 0, &a, nil, &q)
	for i := 0; i < 8; i++ {
		if got.U64(i) != 0x1122334455667788 {
			t.Fatalf("VBROADCASTSD qword %d", i)
		}
	}
}

// TestBlendMaskSizes checks VPBLENDMB/W/D/Q: the mask's bit i takes
// Src2's element i, else Src1's.
func TestBlendMaskSizes(t *testing.T) {
	ops := vectorOps()
	r := rand.New(rand.NewPCG(31, 32))
	v := vecs(r, 3)
	for _, p := range []struct {
		name string
		size int
	}{{"VPBLENDMB", 1}, {"VPBLENDMW", 2}, {"VPBLENDMD", 4}, {"VPBLENDMQ", 8}} {
		op := ops[p.name]
		if !op.Blend || op.Elem != p.size {
			t.Fatalf("%s: Blend %v, Elem %d", p.name, op.Blend, op.Elem)
		}
		for it := 0; it < 10; it++ {
			mask := r.Uint64()
			d := v[0]
			op.Exec(&OpArgs{Dst: &d, Src1: &v[1], Src2: &v[2], Bits: 512, Mask: mask})
			for i := 0; i < 64/p.size; i++ {
				src := &v[1]
				if mask>>i&1 != 0 {
					src = &v[2]
				}
				if elem(&d, i*p.size, p.size) != elem(src, i*p.size, p.size) {
					t.Fatalf("%s mask %#x element %d", p.name, mask, i)
				}
			}
		}
	}
}

// TestVariants checks that the EVEX spellings of the logic operations and
// moves (element sizes only matter to masking) give the bits of the VEX
// ones the native test covers, at every width.
func TestVariants(t *testing.T) {
	ops := vectorOps()
	r := rand.New(rand.NewPCG(33, 34))
	groups := map[string][]string{
		"VPAND":   {"VPANDD", "VPANDQ"},
		"VPANDN":  {"VPANDND", "VPANDNQ"},
		"VPOR":    {"VPORD", "VPORQ"},
		"VPXOR":   {"VPXORD", "VPXORQ"},
		"VMOVDQU": {"VMOVDQU8", "VMOVDQU16", "VMOVDQU32", "VMOVDQU64", "VMOVDQA32", "VMOVDQA64"},
	}
	for it := 0; it < 10; it++ {
		v := vecs(r, 3)
		for base, names := range groups {
			var s1 *Vec
			if base != "VMOVDQU" {
				s1 = &v[1]
			}
			for _, bitsN := range []int{128, 256} {
				want := run(t, ops, base, bitsN, 0, &v[0], s1, &v[2])
				for _, name := range names {
					if got := run(t, ops, name, bitsN, 0, &v[0], s1, &v[2]); string(got[:bitsN/8]) != string(want[:bitsN/8]) {
						t.Fatalf("%s/%d differs from %s", name, bitsN, base)
					}
				}
			}
		}
	}
}
