package bench

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

//go:noescape
func readSumAVX2(p *byte, n int) uint64

// readSum returns the wrapping sum of b's 64-bit little-endian words (a
// trailing partial word counts as zero-padded). It reads b with AVX2 loads
// when the CPU has them: plain Go loads are too narrow to saturate memory
// with two threads.
func readSum(b []byte) uint64 {
	if !cpu.X86.HasAVX2 {
		return readSumGo(b)
	}
	n := len(b) &^ 511
	var s uint64
	if n > 0 {
		s = readSumAVX2(unsafe.SliceData(b), n)
	}
	return s + readSumGo(b[n:])
}

// readKernel names the kernel readSum uses, for reports.
func readKernel() string {
	if cpu.X86.HasAVX2 {
		return "avx2"
	}
	return "go"
}
