//go:build amd64 && !purego

package model

import (
	"math"
	"math/rand/v2"
	"testing"

	"svc/shards/tensor"
)

// TestVexpfSIMD checks the vector exponentials of the assembly kernels
// against vexpf bit for bit: every input in the softmax's range [-104, 0]
// at a fine grid, and random bit patterns over the whole float range
// (overflow, subnormal results, underflow to zero, infinities, NaN).
func TestVexpfSIMD(t *testing.T) {
	for _, k := range []struct {
		name string
		exp  func(x *float32, n int)
	}{
		{"avx2", attnExp2},
		{"avx512", attnExp512},
	} {
		t.Run(k.name, func(t *testing.T) {
			if gap := tensor.KernelGap(k.name); gap != "" {
				t.Skipf("no %s attention kernels: %s", k.name, gap)
			}
			if k.name == "avx512" && !attnAVX512Runs() {
				t.Skip("the avx512sim build's interpreter cannot run attn_amd64.s yet")
			}
			checkVexp(t, k.exp)
		})
	}
}

func checkVexp(t *testing.T, exp func(x *float32, n int)) {
	r := rand.New(rand.NewPCG(13, 14))
	const n = 1 << 16
	x := make([]float32, n)
	got := make([]float32, n)
	check := func() {
		t.Helper()
		copy(got, x)
		exp(&got[0], n)
		for i, v := range x {
			if want := vexpf(v); !sameBits32(got[i], want) {
				t.Fatalf("vexp(%g [%#08x]) = %g [%#08x], want %g [%#08x]", v, math.Float32bits(v),
					got[i], math.Float32bits(got[i]), want, math.Float32bits(want))
			}
		}
	}
	for lo := float32(-105); lo < 1; lo += 1 {
		for i := range x {
			x[i] = lo + float32(i)/n
		}
		check()
	}
	for range 16 {
		for i := range x {
			x[i] = math.Float32frombits(r.Uint32())
		}
		check()
	}
	for i := range x {
		// Around the flush thresholds ±88.7 and -103.9, and |n| = 192.
		x[i] = []float32{88, 89, -103, -104, -133, 133, 192 / math.Ln2}[i%7] + float32(r.NormFloat64())
	}
	check()
}
