//go:build arm64 && !purego

package model

import (
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
	// A coarser grid than amd64's: the test runs under qemu.
	checkVexp(t, attnExpNEON, 1<<14)
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
