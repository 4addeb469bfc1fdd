package bench

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

//go:noescape
func readSumAVX2(p *byte, n int) uint64

//go:noescape
func readSum4AVX2(p *byte, n int) uint64

// readSum returns the wrapping sum of b's 64-bit little-endian words (a
// trailing partial word counts as zero-padded), reading b as one
// sequential stream. It uses AVX2 loads when the CPU has them: plain Go
// loads are too narrow to saturate memory with two threads.
func readSum(b []byte) uint64 { return withAVX2(b, readSumAVX2) }

// readSum4 is readSum reading four streams at once.
func readSum4(b []byte) uint64 { return withAVX2(b, readSum4AVX2) }

func withAVX2(b []byte, k func(*byte, int) uint64) uint64 {
	if !cpu.X86.HasAVX2 {
		return readSumGo(b)
	}
	n := len(b) &^ 511
	var s uint64
	if n > 0 {
		s = k(unsafe.SliceData(b), n)
	}
	return s + readSumGo(b[n:])
}

// readKernel names the kernels readSum and readSum4 use, for reports.
func readKernel() string {
	if cpu.X86.HasAVX2 {
		return "avx2"
	}
	return "go"
}
