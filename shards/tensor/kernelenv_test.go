package tensor

import (
	"strings"
	"testing"
)

func TestKernelEnv(t *testing.T) {
	for i, name := range kernelLevels {
		got, err := parseKernelCap(name)
		if err != nil || got != i {
			t.Errorf("parseKernelCap(%q) = %d, %v; want %d", name, got, err, i)
		}
	}
	if got, err := parseKernelCap(""); err != nil || got != len(kernelLevels)-1 {
		t.Errorf("parseKernelCap(\"\") = %d, %v; want no cap", got, err)
	}
	got, err := parseKernelCap("avx1024")
	if err == nil || !strings.Contains(err.Error(), "SVC_KERNELS") || got != len(kernelLevels)-1 {
		t.Errorf("parseKernelCap(\"avx1024\") = %d, %v; want no cap and an error naming SVC_KERNELS", got, err)
	}
	// The set products use is the highest one the tests run, and the
	// sets the tests run are those CanRunKernels admits.
	sets := kernelSets()
	if best := sets[len(sets)-1].name; KernelSet() != best {
		t.Errorf("KernelSet() = %q, the highest runnable set is %q", KernelSet(), best)
	}
	for _, name := range kernelLevels {
		runs := false
		for _, ks := range sets {
			runs = runs || ks.name == name
		}
		if CanRunKernels(name) != runs {
			t.Errorf("CanRunKernels(%q) = %v, but kernelSets() has it: %v (%s)", name, !runs, runs, kernelGap(name))
		}
	}
	if !kernelsAllowed(KernelSet()) {
		t.Errorf("the set in use, %s, is above SVC_KERNELS=%s", KernelSet(), kernelEnv)
	}
}
