package x86sim

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// run executes the op named name on copies of the given registers and
// returns the result (src1 nil for two-operand forms).
func run(t *testing.T, ops map[string]VecOp, name string, bitsN int, imm uint8, dst, src1, src2 *Vec) Vec {
	t.Helper()
	op, ok := ops[name]
	if !ok {
		t.Fatalf("%s is not in the table", name)
	}
	d := *dst
	a := OpArgs{Dst: &d, Src2: src2, Imm: imm, Bits: bitsN, Mask: ^uint64(0)}
	if src1 != nil {
		s1 := *src1
		a.Src1 = &s1
	}
	s2 := *src2
	a.Src2 = &s2
	op.Exec(&a)
	return d
}

func randVec(r *rand.Rand) Vec {
	var v Vec
	for i := range v {
		v[i] = uint8(r.Uint32())
	}
	return v
}

// edgeVec fills a vector with the bytes integer edge cases live on.
func edgeVec(r *rand.Rand) Vec {
	edges := []uint8{0, 1, 0x7f, 0x80, 0x81, 0xff, 0xfe}
	var v Vec
	for i := range v {
		v[i] = edges[r.IntN(len(edges))]
	}
	return v
}

func vecs(r *rand.Rand, n int) []Vec {
	var out []Vec
	for i := 0; i < n; i++ {
		if i%4 == 3 {
			out = append(out, edgeVec(r))
		} else {
			out = append(out, randVec(r))
		}
	}
	return out
}

// TestVNNI checks VPDPBUSD and VPDPWSSD against a formulation on the
// dword's bytes as numbers, summed in int64 and reduced mod 2^32.
func TestVNNI(t *testing.T) {
	ops := vectorOps()
	r := rand.New(rand.NewPCG(3, 4))
	for it := 0; it < 300; it++ {
		v := vecs(r, 3)
		for _, bitsN := range []int{128, 256, 512} {
			got := run(t, ops, "VPDPBUSD", bitsN, 0, &v[0], &v[1], &v[2])
			got2 := run(t, ops, "VPDPWSSD", bitsN, 0, &v[0], &v[1], &v[2])
			for i := 0; i < 16; i++ {
				if i >= bitsN/32 {
					continue
				}
				acc := int64(v[0].U32(i)) // unsigned: the wrap makes it equal mod 2^32
				acc2 := acc
				for j := 0; j < 4; j++ {
					u := int64(v[1][4*i+j])
					s := int64(v[2][4*i+j])
					if s >= 128 {
						s -= 256
					}
					acc += u * s
				}
				for j := 0; j < 2; j++ {
					x := int64(int16(uint16(v[1][4*i+2*j]) | uint16(v[1][4*i+2*j+1])<<8))
					y := int64(int16(uint16(v[2][4*i+2*j]) | uint16(v[2][4*i+2*j+1])<<8))
					acc2 += x * y
				}
				if got.U32(i) != uint32(acc) {
					t.Fatalf("VPDPBUSD lane %d: %#x, want %#x", i, got.U32(i), uint32(acc))
				}
				if got2.U32(i) != uint32(acc2) {
					t.Fatalf("VPDPWSSD lane %d: %#x, want %#x", i, got2.U32(i), uint32(acc2))
				}
			}
		}
	}
	// Hand case: 255·127·4 added to 0x7fffffff wraps (no saturation).
	var d, a, b Vec
	d.SetU32(0, 0x7fffffff)
	for j := 0; j < 4; j++ {
		a[j], b[j] = 255, 127
	}
	if got := run(t, ops, "VPDPBUSD", 128, 0, &d, &a, &b); got.U32(0) != 0x7fffffff+4*255*127 {
		t.Fatalf("VPDPBUSD wrap: %#x", got.U32(0))
	}
}

// TestTernlog checks VPTERNLOGD's immediates against the boolean
// functions they encode.
func TestTernlog(t *testing.T) {
	ops := vectorOps()
	r := rand.New(rand.NewPCG(5, 6))
	fs := map[uint8]func(a, b, c uint8) uint8{
		0x96: func(a, b, c uint8) uint8 { return a ^ b ^ c },
		0xE8: func(a, b, c uint8) uint8 { return a&b | a&c | b&c },
		0xCA: func(a, b, c uint8) uint8 { return a&b | ^a&c }, // a ? b : c
		0xF0: func(a, b, c uint8) uint8 { return a },
		0xCC: func(a, b, c uint8) uint8 { return b },
		0xAA: func(a, b, c uint8) uint8 { return c },
		0x80: func(a, b, c uint8) uint8 { return a & b & c },
		0xFE: func(a, b, c uint8) uint8 { return a | b | c },
		0x00: func(a, b, c uint8) uint8 { return 0 },
		0x3C: func(a, b, c uint8) uint8 { return a ^ b },
		0x78: func(a, b, c uint8) uint8 { return a ^ (b & c) },
		0x6A: func(a, b, c uint8) uint8 { return c ^ (a & b) },
		0xE4: func(a, b, c uint8) uint8 { return c&a | ^c&b }, // c ? a : b
	}
	for it := 0; it < 50; it++ {
		v := vecs(r, 3)
		for imm, f := range fs {
			got := run(t, ops, "VPTERNLOGD", 512, imm, &v[0], &v[1], &v[2])
			for i := 0; i < 64; i++ {
				if want := f(v[0][i], v[1][i], v[2][i]); got[i] != want {
					t.Fatalf("VPTERNLOGD $%#x byte %d: %#x, want %#x", imm, i, got[i], want)
				}
			}
		}
	}
}

// TestShiftDouble checks VPSHLDD against the shifts written out, counts
// 0..40 (the count is taken mod 32).
func TestShiftDouble(t *testing.T) {
	ops := vectorOps()
	r := rand.New(rand.NewPCG(7, 8))
	v := vecs(r, 3)
	for n := 0; n < 41; n++ {
		got := run(t, ops, "VPSHLDD", 512, uint8(n), &v[0], &v[1], &v[2])
		for i := 0; i < 16; i++ {
			k := uint(n % 32)
			want := v[1].U32(i) << k
			if k != 0 {
				want |= v[2].U32(i) >> (32 - k)
			}
			if got.U32(i) != want {
				t.Fatalf("VPSHLDD $%d lane %d: %#x, want %#x", n, i, got.U32(i), want)
			}
		}
	}
}

// TestGF2P8Affine checks VGF2P8AFFINEQB: the identity matrix of the
// manual (0x0102040810204080) leaves x unchanged (XOR imm), the
// bit-reversing one reverses bits, a zero matrix gives imm, and a random
// matrix gives the product over GF(2) computed column-wise.
func TestGF2P8Affine(t *testing.T) {
	ops := vectorOps()
	r := rand.New(rand.NewPCG(9, 10))
	var ident, rev, zero Vec
	for j := 0; j < 8; j++ {
		ident.SetU64(j, 0x0102040810204080)
		rev.SetU64(j, 0x8040201008040201)
	}
	for it := 0; it < 20; it++ {
		x := randVec(r)
		imm := uint8(r.Uint32())
		id := run(t, ops, "VGF2P8AFFINEQB", 512, imm, &zero, &x, &ident)
		rv := run(t, ops, "VGF2P8AFFINEQB", 512, 0, &zero, &x, &rev)
		z := run(t, ops, "VGF2P8AFFINEQB", 512, imm, &zero, &x, &zero)
		mat := randVec(r)
		g := run(t, ops, "VGF2P8AFFINEQB", 512, imm, &zero, &x, &mat)
		for i := 0; i < 64; i++ {
			if id[i] != x[i]^imm || rv[i] != bits.Reverse8(x[i]) || z[i] != imm {
				t.Fatalf("byte %d of %#x: identity %#x, reverse %#x, zero %#x (imm %#x)", i, x[i], id[i], rv[i], z[i], imm)
			}
			// Column form: y = XOR over set bits k of x of column k, where
			// column k has bit i = bit k of matrix byte 7-i.
			q := mat.U64(i / 8)
			var want uint8
			for k := 0; k < 8; k++ {
				if x[i]>>k&1 == 0 {
					continue
				}
				for row := 0; row < 8; row++ {
					want ^= uint8(q>>(8*(7-row)+k)&1) << row
				}
			}
			if g[i] != want^imm {
				t.Fatalf("byte %d: %#x, want %#x", i, g[i], want^imm)
			}
		}
	}
}

// TestVariableWordShifts checks VPSLLVW, VPSRLVW and VPSRAVW (AVX512BW,
// not runnable here) word by word against Go's shifts, with counts from 0
// past 16 (logical shifts give 0 there, arithmetic ones the sign).
func TestVariableWordShifts(t *testing.T) {
	ops := vectorOps()
	r := rand.New(rand.NewPCG(23, 24))
	for it := 0; it < 100; it++ {
		v := vecs(r, 3)
		for i := 0; i < 32; i++ {
			c := uint16(r.IntN(20))
			if r.IntN(8) == 0 {
				c = uint16(r.Uint32()) // huge counts
			}
			v[2].SetU16(i, c)
		}
		for _, bitsN := range []int{256, 512} {
			l := run(t, ops, "VPSLLVW", bitsN, 0, &v[0], &v[1], &v[2])
			rl := run(t, ops, "VPSRLVW", bitsN, 0, &v[0], &v[1], &v[2])
			ra := run(t, ops, "VPSRAVW", bitsN, 0, &v[0], &v[1], &v[2])
			for i := 0; i < bitsN/16; i++ {
				x, c := v[1].U16(i), v[2].U16(i)
				wl, wr, wa := x<<c, x>>c, uint16(int16(x)>>min(c, 15))
				if c >= 16 {
					wl, wr = 0, 0
				}
				if l.U16(i) != wl || rl.U16(i) != wr || ra.U16(i) != wa {
					t.Fatalf("word %d: %#x by %d: %#x %#x %#x, want %#x %#x %#x", i, x, c, l.U16(i), rl.U16(i), ra.U16(i), wl, wr, wa)
				}
			}
		}
	}
}

// TestBroadcast512 checks the element broadcasts at 512 bits: the low
// element of Src2 (a register, memory or a general-purpose value) in
// every element.
func TestBroadcast512(t *testing.T) {
	ops := vectorOps()
	r := rand.New(rand.NewPCG(25, 26))
	v := vecs(r, 2)
	for _, b := range []struct {
		name string
		size int
	}{{"VPBROADCASTB", 1}, {"VPBROADCASTW", 2}, {"VPBROADCASTD", 4}, {"VPBROADCASTQ", 8}, {"VBROADCASTSS", 4}} {
		got := run(t, ops, b.name, 512, 0, &v[0], nil, &v[1])
		for off := 0; off < 64; off += b.size {
			if string(got[off:off+b.size]) != string(v[1][:b.size]) {
				t.Fatalf("%s: element at %d is %x, want %x", b.name, off, got[off:off+b.size], v[1][:b.size])
			}
		}
		if op := ops[b.name]; op.Elem != b.size || op.Mem(512) != b.size {
			t.Fatalf("%s: Elem %d, Mem %d", b.name, op.Elem, op.Mem(512))
		}
	}
}

// TestPermB checks VPERMB (VBMI) against a byte lookup: index & (n-1).
func TestPermB(t *testing.T) {
	ops := vectorOps()
	r := rand.New(rand.NewPCG(27, 28))
	v := vecs(r, 3)
	for _, bitsN := range []int{128, 256, 512} {
		got := run(t, ops, "VPERMB", bitsN, 0, &v[0], &v[1], &v[2])
		n := bitsN / 8
		for i := 0; i < n; i++ {
			if want := v[2][int(v[1][i])%n]; got[i] != want {
				t.Fatalf("VPERMB/%d byte %d", bitsN, i)
			}
		}
	}
}

// TestMemSizes pins the memory operand sizes of the forms whose memory
// operand is not the vector length (the interpreter loads and stores
// Mem(bits) bytes).
func TestMemSizes(t *testing.T) {
	ops := vectorOps()
	for _, c := range []struct {
		name      string
		bits, mem int
	}{
		{"VCVTPH2PS", 512, 32}, {"VCVTPH2PS", 256, 16}, {"VPMOVSXBW", 512, 32}, {"VPMOVZXBW", 256, 16},
		{"VPMOVDW", 512, 32}, {"VPBROADCASTD", 512, 4}, {"VPBROADCASTW", 128, 2}, {"VPBROADCASTQ", 512, 8},
		{"VBROADCASTSS", 256, 4}, {"VBROADCASTI32X4", 512, 16}, {"VBROADCASTI64X4", 512, 32},
		{"VINSERTI64X4", 512, 32}, {"VINSERTI32X4", 512, 16}, {"VINSERTI128", 256, 16},
		{"VEXTRACTF32X8", 512, 32}, {"VEXTRACTF32X4", 512, 16}, {"VEXTRACTF128", 256, 16},
		{"VMOVSS", 128, 4}, {"VADDSS", 128, 4}, {"VFMADD231SS", 128, 4}, {"VMOVD", 128, 4}, {"VMOVQ", 128, 8},
		{"VPINSRW", 128, 2}, {"VPINSRD", 128, 4}, {"VPINSRQ", 128, 8}, {"VINSERTPS", 128, 4},
		{"VCVTPS2PH", 256, 16}, {"VMOVDQU64", 512, 64}, {"VPDPBUSD", 512, 64}, {"VPHADDW", 128, 16},
	} {
		op, ok := ops[c.name]
		if !ok {
			t.Fatalf("%s is not in the table", c.name)
		}
		mem := c.bits / 8
		if op.Mem != nil {
			mem = op.Mem(c.bits)
		}
		if mem != c.mem {
			t.Errorf("%s at %d bits: memory operand of %d bytes, want %d", c.name, c.bits, mem, c.mem)
		}
	}
}

// TestElemSizes pins the write-mask and broadcast element sizes of the
// EVEX mnemonics the AVX-512 kernels use (Intel's per-instruction
// element: the mask granularity and the m32bcst/m64bcst size).
func TestElemSizes(t *testing.T) {
	ops := vectorOps()
	want := map[string]int{
		"VPDPBUSD": 4, "VPDPWSSD": 4, "VCVTDQ2PS": 4, "VFMADD231PS": 4, "VPXORD": 4, "VMOVDQU64": 8,
		"VPANDD": 4, "VPBROADCASTD": 4, "VADDPS": 4, "VMULPS": 4, "VBROADCASTI64X4": 8,
		"VGF2P8AFFINEQB": 1, "VMOVDQU32": 4, "VPMADDUBSW": 2, "VINSERTI64X4": 8, "VCVTPH2PS": 4,
		"VMOVUPS": 4, "VPADDD": 4, "VMOVSHDUP": 4, "VMOVDQA64": 8, "VPSHUFB": 1, "VPSRLW": 2,
		"VPERMT2B": 1, "VPBROADCASTW": 2, "VPTERNLOGD": 4, "VPBLENDMW": 2, "VSHUFI64X2": 8,
		"VINSERTI32X4": 4, "VEXTRACTF32X8": 4, "VPBROADCASTQ": 8, "VPUNPCKLDQ": 4, "VPUNPCKHDQ": 4,
		"VPSUBW": 2, "VPSRLD": 4, "VPSHLDD": 4, "VPERMI2W": 2, "VPUNPCKLQDQ": 8, "VPUNPCKHQDQ": 8,
		"VEXTRACTF32X4": 4, "VPSUBD": 4, "VPERMT2W": 2, "VPSLLW": 2, "VPERMW": 2, "VPSHUFD": 4,
		"VMOVSS": 4, "VPMADDWD": 4, "VSHUFI32X4": 4, "VPSRLVW": 2, "VPERMPS": 4, "VPSLLD": 4,
		"VFNMADD231PS": 4, "VPSUBB": 1, "VPADDB": 1, "VBROADCASTI32X4": 4, "VPMOVSXBW": 2,
		"VSHUFF32X4": 4, "VPSLLVW": 2, "VEXTRACTI64X4": 8, "VEXTRACTI32X4": 4, "VBROADCASTSS": 4,
		"VPMULLD": 4, "VPMOVZXBW": 2, "VPMOVDW": 2, "VFMADD213PS": 4, "VFNMADD213PS": 4,
		"VDPBF16PS": 4, "VADDSS": 4,
	}
	for name, elem := range want {
		op, ok := ops[name]
		if !ok {
			t.Errorf("%s is not in the table", name)
			continue
		}
		if op.Elem != elem {
			t.Errorf("%s: Elem %d, want %d", name, op.Elem, elem)
		}
	}
}

// TestGF2P8AffineAES checks VGF2P8AFFINEQB's bit order on a known use:
// the AES S-box is the affine map (matrix 0xF1E3C78F1F3E7CF8, constant
// 0x63, as GFNI code writes it) of the inverse in GF(2^8) mod 0x11B; a few
// S-box entries of FIPS-197 must come out.
func TestGF2P8AffineAES(t *testing.T) {
	ops := vectorOps()
	mul := func(a, b uint8) uint8 {
		var p uint8
		for b != 0 {
			if b&1 != 0 {
				p ^= a
			}
			hi := a & 0x80
			a <<= 1
			if hi != 0 {
				a ^= 0x1b
			}
			b >>= 1
		}
		return p
	}
	inv := func(x uint8) uint8 {
		for y := 1; y < 256; y++ {
			if mul(x, uint8(y)) == 1 {
				return uint8(y)
			}
		}
		return 0
	}
	sbox := [][2]uint8{{0x00, 0x63}, {0x01, 0x7c}, {0x02, 0x77}, {0x03, 0x7b}, {0x10, 0xca}, {0x53, 0xed}, {0x7f, 0xd2}, {0x80, 0xcd}, {0xff, 0x16}}
	var x, m, zero Vec
	m.SetU64(0, 0xF1E3C78F1F3E7CF8)
	m.SetU64(1, 0xF1E3C78F1F3E7CF8)
	for i, e := range sbox {
		x[i] = inv(e[0])
	}
	got := run(t, ops, "VGF2P8AFFINEQB", 128, 0x63, &zero, &x, &m)
	for i, e := range sbox {
		if got[i] != e[1] {
			t.Errorf("S-box(%#x) = %#x, want %#x", e[0], got[i], e[1])
		}
	}
}
