//go:build amd64 && !purego && avx512sim

package model

import (
	"embed"
	"unsafe"

	"svc/internal/x86sim"
)

// In the avx512sim build (go test -tags avx512sim), shards/tensor runs its
// AVX-512 kernels in internal/x86sim's interpreter, and reports the
// AVX-512 set runnable on any CPU; this package's AVX-512 attention
// kernels run there too (attnsim512_amd64.go), when the interpreter knows
// every instruction of attn_amd64.s, and otherwise attention keeps its
// AVX2 set. An interpreter error panics: the kernels return no error.

//go:embed attn_amd64.s
var attnSim512Sources embed.FS

// attnSim512 is the interpreter's program of attn_amd64.s: package-level
// like the kernels it stands for, loaded once, immutable after, and only in
// this test build. Complete: attention keeps its AVX2 set unless every
// instruction is known.
var attnSim512 = &x86sim.Lazy{FS: attnSim512Sources, Pkg: "svc/shards/model", Files: []string{"attn_amd64.s"}, Complete: true}

func attnSim512Program() (*x86sim.Program, error) { return attnSim512.Program() }

// attnAVX512Runs: in this build, when the interpreter runs attn_amd64.s.
func attnAVX512Runs() bool {
	_, err := attnSim512.Program()
	return err == nil
}

// sim512Call runs kernel fn on its ABI0 frame in the interpreter.
func sim512Call(fn string, frame unsafe.Pointer, size, resultOff uintptr) {
	attnSim512.MustCall(fn, frame, size, resultOff)
}
