package tensor

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestFP16Known(t *testing.T) {
	cases := []struct {
		f float32
		h uint16
	}{
		{0, 0x0000},
		{float32(math.Copysign(0, -1)), 0x8000},
		{1, 0x3c00},
		{-2, 0xc000},
		{0.5, 0x3800},
		{65504, 0x7bff},
		{65519, 0x7bff},                           // below the midpoint to 65536
		{65520, 0x7c00},                           // midpoint: ties to even = overflow to Inf
		{1e6, 0x7c00},                             // overflow
		{float32(math.Ldexp(1, -24)), 0x0001},     // smallest subnormal
		{float32(math.Ldexp(1, -25)), 0x0000},     // half of it: tie, even is 0
		{float32(math.Ldexp(3, -26)), 0x0001},     // 0.75 ulp rounds up
		{float32(math.Ldexp(3, -25)), 0x0002},     // 1.5 ulp: tie to even 2
		{float32(math.Ldexp(1, -14)), 0x0400},     // smallest normal
		{float32(1 + math.Ldexp(1, -11)), 0x3c00}, // tie to even (down)
		{float32(1 + math.Ldexp(3, -11)), 0x3c02}, // tie to even (up)
		{0.1, 0x2e66},
		{float32(math.Inf(1)), 0x7c00},
		{float32(math.Inf(-1)), 0xfc00},
	}
	for _, c := range cases {
		if got := FP32ToFP16(c.f); got != c.h {
			t.Errorf("FP32ToFP16(%g) = %#04x, want %#04x", c.f, got, c.h)
		}
	}
	if h := FP32ToFP16(float32(math.NaN())); h&0x7c00 != 0x7c00 || h&0x3ff == 0 {
		t.Errorf("NaN converts to %#04x, not a NaN", h)
	}
	if v := FP16ToFP32(0x7e00); !math.IsNaN(float64(v)) {
		t.Errorf("FP16ToFP32(0x7e00) = %g, want NaN", v)
	}
	if v := FP16ToFP32(0x0001); v != float32(math.Ldexp(1, -24)) {
		t.Errorf("FP16ToFP32(1) = %g", v)
	}
	if v := FP16ToFP32(0xc000); v != -2 {
		t.Errorf("FP16ToFP32(0xc000) = %g", v)
	}
}

func TestFP16RoundTripAll(t *testing.T) {
	for i := 0; i < 1<<16; i++ {
		h := uint16(i)
		f := FP16ToFP32(h)
		if math.IsNaN(float64(f)) {
			continue
		}
		if got := FP32ToFP16(f); got != h {
			t.Fatalf("round trip %#04x -> %g -> %#04x", h, f, got)
		}
	}
}

// nearestHalf finds the correctly rounded half by brute force over the two
// neighbours, all arithmetic exact in float64.
func nearestHalf(f float32) uint16 {
	a := math.Abs(float64(f))
	var sign uint16
	if math.Signbit(float64(f)) {
		sign = 0x8000
	}
	if a >= 65520 {
		return sign | 0x7c00
	}
	best := uint16(0)
	lo, hi := 0, 0x7bff
	for lo < hi { // largest half <= a
		mid := (lo + hi + 1) / 2
		if float64(FP16ToFP32(uint16(mid))) <= a {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	best = uint16(lo)
	below := float64(FP16ToFP32(best))
	if below == a || best == 0x7bff {
		return sign | best
	}
	above := float64(FP16ToFP32(best + 1))
	switch {
	case a-below < above-a:
	case a-below > above-a:
		best++
	default:
		if best&1 == 1 {
			best++
		}
	}
	return sign | best
}

func TestFP16RandomAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200000; i++ {
		// Exponents spanning subnormal halves to overflow.
		f := float32(math.Ldexp(r.Float64()*2-1, r.IntN(46)-28))
		if got, want := FP32ToFP16(f), nearestHalf(f); got != want {
			t.Fatalf("FP32ToFP16(%g) = %#04x, want %#04x", f, got, want)
		}
	}
}

func TestBF16(t *testing.T) {
	cases := []struct {
		bits uint32
		h    uint16
	}{
		{0x3f800000, 0x3f80},
		{0x3f808000, 0x3f80}, // tie, even down
		{0x3f818000, 0x3f82}, // tie, even up
		{0x3f808001, 0x3f81},
		{0x7f7fffff, 0x7f80}, // rounds up to Inf
		{0xff800000, 0xff80},
	}
	for _, c := range cases {
		if got := FP32ToBF16(math.Float32frombits(c.bits)); got != c.h {
			t.Errorf("FP32ToBF16(%#08x) = %#04x, want %#04x", c.bits, got, c.h)
		}
	}
	if h := FP32ToBF16(float32(math.NaN())); !math.IsNaN(float64(BF16ToFP32(h))) {
		t.Errorf("NaN converts to %#04x", h)
	}
	if BF16ToFP32(0xc040) != -3 {
		t.Errorf("BF16ToFP32(0xc040) = %g", BF16ToFP32(0xc040))
	}
}
