//go:build arm64 && !purego

package model

import (
	"math"
	"math/rand/v2"
	"testing"

	"svc/shards/tensor"
)

// TestVexpfNEON checks the NEON vector exponential against vexpf bit for
// bit: every input in the softmax's range [-105, 1) at a fine grid, random
// bit patterns over the whole float range (overflow, subnormal results,
// underflow to zero, infinities, NaN), and values around the flush points.
func TestVexpfNEON(t *testing.T) {
	if gap := tensor.KernelGap("neon"); gap != "" {
		t.Skipf("no neon attention kernels: %s", gap)
	}
	r := rand.New(rand.NewPCG(13, 14))
	const n = 1 << 14
	x := make([]float32, n)
	got := make([]float32, n)
	check := func() {
		t.Helper()
		copy(got, x)
		attnExpNEON(&got[0], n)
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

// TestAttnNEONSelected checks that the NEON set is the one attention uses
// when SVC_KERNELS allows it, and that the tests compare it.
func TestAttnNEONSelected(t *testing.T) {
	if gap := tensor.KernelGap("neon"); gap != "" {
		if bestAttn != genericAttn {
			t.Errorf("attention uses the %s set with %s", bestAttn.name, gap)
		}
		t.Skipf("no neon attention kernels: %s", gap)
	}
	if bestAttn != neonAttn {
		t.Errorf("attention uses the %s set, want neon", bestAttn.name)
	}
	if sets := attnKernelSets(); len(sets) != 2 || sets[1] != neonAttn {
		t.Errorf("attnKernelSets() has %d sets, want go and neon", len(sets))
	}
}
