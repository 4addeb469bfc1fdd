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
