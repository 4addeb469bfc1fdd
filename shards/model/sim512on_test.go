//go:build avx512sim

package model

// avx512Simulated: in the avx512sim build shards/tensor's AVX-512 kernels
// run in internal/x86sim's interpreter, which allocates per call, so the
// allocation tests have nothing to measure there.
const avx512Simulated = true
