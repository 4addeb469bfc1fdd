//go:build amd64 && !purego && avx512sim

package tensor

import (
	"context"
	"embed"
	"fmt"
	"sync"
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

// sim512Files are the assembly files of the AVX-512 kernels.
var sim512Files = []string{"dot512_amd64.s", "bf16_amd64.s", "tiles_k_amd64.s", "tiles_q0_amd64.s",
	"tiles_q4v_amd64.s", "tiles_q4x_amd64.s", "tiles_q6b_amd64.s", "tiles_q8x_amd64.s"}

// sim512 is the interpreter's program of those kernels. It is
// package-level, like the kernels it stands for (package-level functions
// called from the kernel sets and the Pool's goroutines), built once and
// immutable after, and exists only in this test build.
var sim512 struct {
	once sync.Once
	prog *x86sim.Program
	err  error
}

// kernelCaps: the CPU's own features for the AVX2 set, and the AVX-512
// ones present, as the interpreter provides them.
func kernelCaps() x86Caps {
	c := hostCaps()
	c.HasAVX512F, c.HasAVX512DQ, c.HasAVX512BW, c.HasAVX512VL = true, true, true, true
	c.HasAVX512VNNI, c.HasAVX512VBMI, c.HasAVX512VBMI2, c.HasAVX512GFNI, c.HasAVX512BF16 = true, true, true, true, true
	return c
}

// sim512Program assembles the embedded sources (go tool asm -S) and
// parses the listing, once.
func sim512Program() (*x86sim.Program, error) {
	sim512.once.Do(func() {
		sim512.prog, sim512.err = x86sim.Load(context.Background(), sim512Sources, "svc/shards/tensor", sim512Files...)
	})
	return sim512.prog, sim512.err
}

// sim512Call runs kernel fn on its ABI0 frame (see x86sim.Program.Call).
// The frame escapes to the heap (Call keeps it in heap state), and with it
// every argument pointer, so nothing the interpreter addresses by integer
// lives on a goroutine stack that could move.
func sim512Call(fn string, frame unsafe.Pointer, size, resultOff uintptr) {
	p, err := sim512Program()
	if err == nil {
		err = p.Call(fn, frame, size, resultOff)
	}
	if err != nil {
		panic(fmt.Sprintf("tensor: avx512sim: %v", err))
	}
}
