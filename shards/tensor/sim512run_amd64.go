//go:build amd64 && !purego && avx512sim

package tensor

import (
	"embed"
	"unsafe"

	"svc/internal/x86sim"
)

// The avx512sim build (go test -tags avx512sim) runs the AVX-512 kernels
// in internal/x86sim's interpreter, so that their bits are checked against
// the generic kernels on any x86-64 CPU: the .s files are left out of the
// build, their declarations (asm512_amd64.go) get bodies that call
// sim512Call (sim512_amd64.go), and kernelCaps reports the AVX-512
// features present. The AVX2 kernels still run natively. It is a test
// build: the interpreter is slow, and an error in it panics, as the
// kernels have no error to return.

//go:embed dot512_amd64.s bf16_amd64.s tiles_k_amd64.s tiles_q0_amd64.s tiles_q4v_amd64.s
//go:embed tiles_q4x_amd64.s tiles_q6b_amd64.s tiles_q8x_amd64.s prefetch_amd64.h
var sim512Sources embed.FS

// sim512 is the interpreter's program of the AVX-512 kernels' files:
// package-level, like the kernels it stands for (package-level functions
// called from the kernel sets and the Pool's goroutines), loaded once and
// immutable after, and only in this test build.
var sim512 = &x86sim.Lazy{FS: sim512Sources, Pkg: "svc/shards/tensor", Files: []string{"dot512_amd64.s", "bf16_amd64.s",
	"tiles_k_amd64.s", "tiles_q0_amd64.s", "tiles_q4v_amd64.s", "tiles_q4x_amd64.s", "tiles_q6b_amd64.s", "tiles_q8x_amd64.s"}}

// kernelCaps: the CPU's own features for the AVX2 set, and the AVX-512
// ones present, as the interpreter provides them.
func kernelCaps() x86Caps {
	c := hostCaps()
	c.HasAVX512F, c.HasAVX512DQ, c.HasAVX512BW, c.HasAVX512VL = true, true, true, true
	c.HasAVX512VNNI, c.HasAVX512VBMI, c.HasAVX512VBMI2, c.HasAVX512GFNI, c.HasAVX512BF16 = true, true, true, true, true
	return c
}

// sim512Call runs kernel fn on its ABI0 frame in the interpreter.
func sim512Call(fn string, frame unsafe.Pointer, size, resultOff uintptr) {
	sim512.MustCall(fn, frame, size, resultOff)
}
