package x86sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// scalefRef is VSCALEFPS's lane computed another way: the manual's table
// of special cases as a table, and x·2^floor(y) formed exactly in float64
// (math.Ldexp: 24 significant bits and an exponent within ±450 are exact
// there) and rounded once to float32 by Go's conversion (nearest even,
// subnormal results, overflow to infinity). Beyond ±1100 the float64 is 0
// or infinite, as the float32 is.
func scalefRef(x, y float32) float32 {
	xb, yb := math.Float32bits(x), math.Float32bits(y)
	const (
		xQNaN = iota
		xSNaN
		xInf
		xZero
		xNum
	)
	const (
		yNaN = iota
		yPosInf
		yNegInf
		yNum
	)
	xc := xNum
	switch {
	case x != x && xb&(1<<22) != 0:
		xc = xQNaN
	case x != x:
		xc = xSNaN
	case math.IsInf(float64(x), 0):
		xc = xInf
	case x == 0:
		xc = xZero
	}
	yc := yNum
	switch {
	case y != y:
		yc = yNaN
	case math.IsInf(float64(y), 1):
		yc = yPosInf
	case math.IsInf(float64(y), -1):
		yc = yNegInf
	}
	qx := math.Float32frombits(xb | 1<<22)
	qy := math.Float32frombits(yb | 1<<22)
	indef := math.Float32frombits(0xffc00000)
	sx := float32(math.Copysign(1, float64(x)))
	inf := float32(math.Inf(1))
	table := [5][4]float32{
		xQNaN: {qx, inf, 0, qx},
		xSNaN: {qx, qx, qx, qx},
		xInf:  {qy, x, indef, x},
		xZero: {qy, indef, x, x},
		xNum:  {qy, sx * inf, sx * 0, 0}, // 0: computed below
	}
	if xc != xNum || yc != yNum {
		return table[xc][yc]
	}
	n := math.Max(-1100, math.Min(1100, math.Floor(float64(y))))
	return float32(math.Ldexp(float64(x), int(n)))
}

// TestScalef checks VSCALEFPS (EVEX only: no native check on AVX2
// machines) against scalefRef on random lanes built to land results on
// float32's subnormals, its overflow and its ties, with every special
// class of both operands, and on cases worked out by hand.
func TestScalef(t *testing.T) {
	f := vectorOps()["VSCALEFPS"].Exec
	scalef := func(x, y float32) float32 {
		var d, s1, s2 Vec
		s1.SetF32(3, x)
		s2.SetF32(3, y)
		f(&OpArgs{Dst: &d, Src1: &s1, Src2: &s2, Bits: 512, Mask: ^uint64(0)})
		return d.F32(3)
	}
	same := func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) }
	fb := math.Float32frombits
	qnan, nqnan, snan := fb(0x7fc01234), fb(0xffc00007), fb(0x7f800321)
	inf, ninf := float32(math.Inf(1)), float32(math.Inf(-1))
	nzero := float32(math.Copysign(0, -1))
	for _, c := range []struct{ x, y, want float32 }{
		{1, 2.5, 4},
		{1, -0.5, 0.5}, // floor(-0.5) = -1
		{-3, nzero, -3},
		{6, fb(0x00000001), 6},               // floor of a positive subnormal: 0
		{6, fb(0x80000001), 3},               // of a negative one: -1
		{3, -149, fb(3)},                     // 3·2^-149: exact subnormal
		{3, -150, fb(2)},                     // 1.5 ulp: tie to even, 2
		{5, -151, fb(1)},                     // 1.25 ulp: 1
		{1, -150, 0},                         // half the smallest subnormal: tie to 0
		{-1.5, -150, fb(0x80000001)},         // 0.75 ulp: the smallest, negative
		{fb(0x00ffffff), -1, fb(0x00800000)}, // a tie carried into the smallest normal
		{fb(0x00000001), 149, 1},
		{fb(0x00000001), 276, fb(0x7f000000)}, // 2^127
		{math.MaxFloat32, 1, inf},
		{-1, 128, ninf},
		{1, 127, fb(0x7f000000)},
		{1.5, 1e30, inf},
		{-1.5, -1e30, nzero},
		// The manual's special cases.
		{qnan, inf, inf},
		{nqnan, inf, inf},
		{nqnan, ninf, 0},
		{qnan, 3, qnan},
		{qnan, snan, qnan},
		{snan, inf, fb(0x7fc00321)},
		{snan, qnan, fb(0x7fc00321)},
		{1, snan, fb(0x7fc00321)},
		{inf, nqnan, nqnan},
		{ninf, 5, ninf},
		{ninf, inf, ninf},
		{inf, ninf, fb(0xffc00000)},
		{nzero, inf, fb(0xffc00000)},
		{nzero, ninf, nzero},
		{0, 100, 0},
		{-3, inf, ninf},
		{-3, ninf, nzero},
		{fb(0x00000001), ninf, 0},
	} {
		if got := scalef(c.x, c.y); !same(got, c.want) {
			t.Errorf("scalef(%g [%#08x], %g [%#08x]) = %g [%#08x], want %g [%#08x]", c.x, math.Float32bits(c.x),
				c.y, math.Float32bits(c.y), got, math.Float32bits(got), c.want, math.Float32bits(c.want))
		}
		if ref := scalefRef(c.x, c.y); !same(ref, c.want) {
			t.Errorf("scalefRef(%g, %g) = %#08x, want %#08x", c.x, c.y, math.Float32bits(ref), math.Float32bits(c.want))
		}
	}

	r := rand.New(rand.NewPCG(21, 22))
	specials := []float32{qnan, nqnan, snan, fb(0xff812345), inf, ninf, 0, nzero}
	var d, s1, s2 Vec
	for it := 0; it < 40000; it++ {
		for i := 0; i < 16; i++ {
			x := randF32(r)
			var y float32
			switch r.IntN(8) {
			case 0:
				y = randF32(r)
			case 1:
				y = specials[r.IntN(len(specials))]
			case 2:
				y = float32(r.IntN(20)) - 10 + float32(r.Float64())
			default:
				// Toward float32's ends from any x: the results'
				// subnormals, ties, overflow.
				e := int(math.Float32bits(x)>>23&0xff) - 127
				y = float32(-126-e-r.IntN(26)) + float32(r.Float64())
				if r.IntN(3) == 0 {
					y = float32(127-e+r.IntN(3)-1) + float32(r.Float64())
				}
			}
			if r.IntN(16) == 0 {
				x = specials[r.IntN(len(specials))]
			}
			s1.SetF32(i, x)
			s2.SetF32(i, y)
		}
		f(&OpArgs{Dst: &d, Src1: &s1, Src2: &s2, Bits: 512, Mask: ^uint64(0)})
		for i := 0; i < 16; i++ {
			x, y := s1.F32(i), s2.F32(i)
			if want := scalefRef(x, y); !same(d.F32(i), want) {
				t.Fatalf("scalef(%g [%#08x], %g [%#08x]) = %#08x, want %#08x", x, math.Float32bits(x), y, math.Float32bits(y),
					d.U32(i), math.Float32bits(want))
			}
		}
	}
}
