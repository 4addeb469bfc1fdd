package x86sim

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// fmaBig is a*b+c rounded once to float32 through math/big: the
// reference fma32 is checked against.
func fmaBig(a, b, c float32) float32 {
	if math.IsInf(float64(a), 0) || math.IsInf(float64(b), 0) || math.IsInf(float64(c), 0) {
		return float32(float64(a)*float64(b) + float64(c))
	}
	x := new(big.Float).SetPrec(1000).SetFloat64(float64(a))
	x.Mul(x, new(big.Float).SetFloat64(float64(b)))
	x.Add(x, new(big.Float).SetFloat64(float64(c)))
	f, _ := x.Float32()
	if f == 0 {
		// big.Float has no signed zero for an exact zero sum: IEEE gives
		// +0 unless both addends are -0.
		p := float64(a) * float64(b)
		if p == 0 && c == 0 && math.Signbit(p) && math.Signbit(float64(c)) {
			return float32(math.Copysign(0, -1))
		}
		if x.Sign() == 0 {
			return 0
		}
		if x.Signbit() {
			return float32(math.Copysign(0, -1))
		}
	}
	return f
}

// randF32 draws float32 bits of every kind: wide exponents, subnormals,
// zeros, infinities.
func randF32(r *rand.Rand) float32 {
	switch r.IntN(16) {
	case 0:
		return math.Float32frombits(r.Uint32() & 0x807fffff) // subnormal or zero
	case 1:
		return []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), math.MaxFloat32, -math.MaxFloat32}[r.IntN(6)]
	case 2, 3, 4:
		return math.Float32frombits(r.Uint32()&^(0xff<<23) | uint32(120+r.IntN(16))<<23)
	}
	b := r.Uint32()
	if b&0x7f800000 == 0x7f800000 {
		b &^= 1 << 30 // no NaN
	}
	return math.Float32frombits(b)
}

// tieFMA builds a, b, c whose product is exactly halfway between two
// float32s (a 13-bit times a 12-bit odd significand: 25 bits) and c tiny
// beside it (or zero): float64 rounds a*b+c to the tie, so a double
// rounding through float64 picks the even neighbour where the exact sum
// lies on the other side.
func tieFMA(r *rand.Rand) (a, b, c float32) {
	for {
		ia := 1<<12 | 2*r.IntN(1<<11) | 1
		ib := 1<<11 | 2*r.IntN(1<<10) | 1
		if ia*ib < 1<<24 {
			continue // 24 bits: exact in float32, no tie
		}
		a = float32(math.Ldexp(float64(ia), -12))
		b = float32(math.Ldexp(float64(ib), -11))
		switch r.IntN(3) {
		case 0:
			c = float32(math.Ldexp(1+r.Float64(), -60))
		case 1:
			c = -float32(math.Ldexp(1+r.Float64(), -60))
		}
		return a, b, c
	}
}

func TestFMA32(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	check := func(a, b, c float32) {
		t.Helper()
		got, want := fma32(a, b, c), fmaBig(a, b, c)
		if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
			t.Fatalf("fma32(%g, %g, %g) = %g (%#x), want %g (%#x)", a, b, c, got, math.Float32bits(got), want, math.Float32bits(want))
		}
	}
	for i := 0; i < 100000; i++ {
		check(randF32(r), randF32(r), randF32(r))
	}
	wrong := 0 // cases where rounding through float64 twice is wrong
	for i := 0; i < 20000; i++ {
		a, b, c := tieFMA(r)
		check(a, b, c)
		check(-a, b, -c)
		if float32(float64(a)*float64(b)+float64(c)) != fmaBig(a, b, c) {
			wrong++
		}
	}
	if wrong < 1000 {
		t.Fatalf("only %d crafted cases defeat double rounding", wrong)
	}
	// A hand case: (1+2^-12)^2 = 1 + 2^-11 + 2^-24:
	// exactly halfway between 1+2^-11 and 1+2^-11+2^-23; adding -2^-70
	// must round down although float64 rounds the sum to the tie.
	a := float32(1 + math.Ldexp(1, -12))
	c := float32(-math.Ldexp(1, -70))
	if got, want := fma32(a, a, c), float32(1+math.Ldexp(1, -11)); got != want {
		t.Fatalf("fma32 near tie = %v, want %v", got, want)
	}
	if got, want := fma32(a, a, -c), float32(1+math.Ldexp(1, -11)+math.Ldexp(1, -23)); got != want {
		t.Fatalf("fma32 near tie (up) = %v, want %v", got, want)
	}
	// Double rounding through float64 gets the second one wrong.
	if dr := float32(float64(a)*float64(a) - float64(c)); dr != float32(1+math.Ldexp(1, -11)) {
		t.Fatal("the hand case is no witness of double rounding")
	}
}
