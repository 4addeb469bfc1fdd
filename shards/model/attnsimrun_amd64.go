//go:build amd64 && !purego && avx512sim

package model

import (
	"context"
	"embed"
	"fmt"
	"sync"
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
// like the kernels it stands for, built once, immutable after, and only in
// this test build.
var attnSim512 struct {
	once sync.Once
	prog *x86sim.Program
	err  error
}

func attnSim512Program() (*x86sim.Program, error) {
	attnSim512.once.Do(func() {
		p, err := x86sim.Load(context.Background(), attnSim512Sources, "svc/shards/model", "attn_amd64.s")
		if err == nil {
			for _, fn := range p.Functions() {
				if u := p.Unknown(fn); len(u) > 0 {
					err = fmt.Errorf("the interpreter lacks instructions of %s: %v", fn, u)
					break
				}
			}
		}
		attnSim512.prog, attnSim512.err = p, err
	})
	return attnSim512.prog, attnSim512.err
}

// attnAVX512Runs: in this build, when the interpreter runs attn_amd64.s.
func attnAVX512Runs() bool {
	_, err := attnSim512Program()
	return err == nil
}

// sim512Call runs kernel fn on its ABI0 frame (x86sim.Program.Call); the
// frame, and the arguments it points to, escape to the heap, so none lives
// on a goroutine stack that could move under the interpreter.
func sim512Call(fn string, frame unsafe.Pointer, size, resultOff uintptr) {
	p, err := attnSim512Program()
	if err == nil {
		err = p.Call(fn, frame, size, resultOff)
	}
	if err != nil {
		panic(fmt.Sprintf("model: avx512sim: %v", err))
	}
}
