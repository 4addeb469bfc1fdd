//go:build amd64 && !purego

package model

import (
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
			checkVexp(t, k.exp, 1<<16)
		})
	}
}
