package tensor

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// exactFMA32 rounds a*b+c computed exactly (big.Float) to float32, ties to
// even.
func exactFMA32(a, b, c float32) float32 {
	x := new(big.Float).SetPrec(200).SetFloat64(float64(a))
	x.Mul(x, new(big.Float).SetPrec(200).SetFloat64(float64(b)))
	x.Add(x, new(big.Float).SetPrec(200).SetFloat64(float64(c)))
	f, _ := x.Float32()
	return f
}

func TestFMA32Exact(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	check := func(a, b, c float32) {
		t.Helper()
		got, want := fma32(a, b, c), exactFMA32(a, b, c)
		if math.Float32bits(got) != math.Float32bits(want) && !(got == 0 && want == 0) {
			t.Fatalf("fma32(%g, %g, %g) = %g (%#08x), exact %g (%#08x)", a, b, c, got, math.Float32bits(got), want, math.Float32bits(want))
		}
	}
	for i := 0; i < 300000; i++ {
		a := float32(math.Ldexp(r.Float64()*2-1, r.IntN(40)-20))
		b := float32(math.Ldexp(r.Float64()*2-1, r.IntN(40)-20))
		c := float32(math.Ldexp(r.Float64()*2-1, r.IntN(80)-40))
		check(a, b, c)
		// Small integers times scales, as in the kernels.
		check(float32(r.IntN(200000)-100000), float32(r.Float64()*1e-3), c)
	}
	// Double-rounding traps: a*b = 2^-24 + m*2^-71 with 0 < m < 2^18, so
	// c + a*b (c in [1,2)) rounds in float64 exactly onto a float32
	// midpoint while the exact value lies just above it. A, B are 24-bit
	// integers with A*B = 2^47 + m.
	traps := 0
	for traps < 2000 {
		A := uint64(1<<23 + r.IntN(1<<23))
		B := (uint64(1)<<47 + A - 1) / A
		if B >= 1<<24 {
			continue
		}
		m := A*B - 1<<47
		if m == 0 || m >= 1<<18 {
			continue
		}
		traps++
		a := float32(math.Ldexp(float64(A), -23))
		b := float32(math.Ldexp(float64(B), -48))
		c := float32(1 + math.Ldexp(float64(2*r.IntN(1<<22)), -23)) // even mantissa
		check(a, b, c)
		check(-a, b, -c)
		check(a, b, math.Nextafter32(c, 2)) // odd mantissa: the tie would round up anyway
	}
	check(float32(math.Inf(1)), 2, 3)
	check(0, 5, -0)
}
