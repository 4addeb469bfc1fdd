//go:build amd64 && !purego && avx512sim

package model

// attnSim512: the avx512sim test build runs shards/tensor's AVX-512
// kernels in internal/x86sim's interpreter on any CPU, but not this
// package's AVX-512 attention kernels (the interpreter lacks some of their
// instructions, and the CPU may lack AVX-512), so attention keeps its AVX2
// set there while the matrix products use the simulated AVX-512 one.
const attnSim512 = true
