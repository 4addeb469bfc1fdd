//go:build amd64 && !purego

package tensor

// addQ0Tiles registers the VNNI tile kernels for Q8_0 and Q4_0 on CPUs that
// have them. (Being written; until then the AVX2 kernels serve.)
func addQ0Tiles(ks *kernelSet) {}
