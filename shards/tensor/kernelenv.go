package tensor

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
)

// kernelLevels names the kernel sets, lowest first. SVC_KERNELS names the
// highest one the package may use, so that the lower sets can be tested
// and benchmarked on a CPU that runs a higher one. arm64 has its own sets
// (kernels_arm64.go).
var kernelLevels = archKernelLevels(runtime.GOARCH)

func archKernelLevels(goarch string) []string {
	if goarch == "arm64" {
		return []string{"generic", "neon", "neondot"}
	}
	return []string{"generic", "avx2", "avx512"}
}

// kernelEnv is SVC_KERNELS as read at start-up; like the CPU's features it
// does not change while the process runs.
var kernelEnv = os.Getenv("SVC_KERNELS")

// kernelCap is the index in kernelLevels of the highest set allowed, and
// kernelEnvErr says why SVC_KERNELS was ignored (it names no set).
var kernelCap, kernelEnvErr = parseKernelCap(kernelEnv)

func parseKernelCap(v string) (int, error) {
	if v == "" {
		return len(kernelLevels) - 1, nil
	}
	if i := slices.Index(kernelLevels, v); i >= 0 {
		return i, nil
	}
	return len(kernelLevels) - 1, fmt.Errorf("tensor: SVC_KERNELS=%q names no kernel set (%s)", v, strings.Join(kernelLevels, ", "))
}

// kernelsAllowed reports whether SVC_KERNELS allows the named set.
func kernelsAllowed(name string) bool {
	i := slices.Index(kernelLevels, name)
	return i >= 0 && i <= kernelCap
}

// capReason says why a set the CPU could run is not used, or "".
func capReason(name string) string {
	if kernelsAllowed(name) {
		return ""
	}
	return fmt.Sprintf("SVC_KERNELS=%s keeps the kernels below %s", kernelEnv, name)
}

// KernelSet names the kernel set matrix products run with: "generic",
// "avx2" or "avx512" on x86, "neon" or "neondot" on arm64 (the best the
// CPU runs within SVC_KERNELS).
func KernelSet() string { return bestKernels.name }

// KernelEnvError reports an SVC_KERNELS value that names no kernel set;
// the package then uses the best set the CPU runs. Programs that read the
// variable's effect (benchmarks) should refuse such a value.
func KernelEnvError() error { return kernelEnvErr }

// CanRunKernels reports whether the CPU runs the named kernel set and
// SVC_KERNELS allows it, for packages that keep their own kernels of the
// same sets (attention): they then switch sets together with this one.
func CanRunKernels(name string) bool { return kernelGap(name) == "" }

// KernelGap says why the named kernel set cannot run here (the CPU
// features it lacks, or SVC_KERNELS keeping a lower set), or "" when it
// can; tests skip with it.
func KernelGap(name string) string { return kernelGap(name) }
