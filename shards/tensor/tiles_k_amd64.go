//go:build amd64 && !purego

package tensor

// addKTiles registers the VNNI tile kernels for Q4_K and Q6_K on CPUs that
// have them. (Being written; until then the AVX2 kernels serve.)
func addKTiles(ks *kernelSet) {}
