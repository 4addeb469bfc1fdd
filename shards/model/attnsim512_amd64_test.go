//go:build amd64 && !purego && avx512sim

package model

import (
	"testing"

	"svc/shards/tensor"
)

// TestAttentionSim512Selected: in the avx512sim build the interpreter
// knows every instruction of attn_amd64.s, so the AVX-512 attention set is
// the one chosen (unless SVC_KERNELS forces another) and among the sets
// the kernel tests compare with the Go kernels.
func TestAttentionSim512Selected(t *testing.T) {
	if _, err := attnSim512Program(); err != nil {
		t.Fatal(err)
	}
	if !tensor.CanRunKernels("avx512") {
		t.Skip("SVC_KERNELS excludes the avx512 set")
	}
	if bestAttn != avx512Attn {
		t.Errorf("attention uses the %s set, want avx512", bestAttn.name)
	}
	sets := attnKernelSets()
	if sets[len(sets)-1] != avx512Attn {
		t.Errorf("the kernel tests' sets end with %s, want avx512", sets[len(sets)-1].name)
	}
}
