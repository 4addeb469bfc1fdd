//go:build avx512sim

package tensor

// avx512Simulated says the AVX-512 kernels run in internal/x86sim's
// interpreter (sim512run_amd64.go): slow, and allocating per call.
const avx512Simulated = true
