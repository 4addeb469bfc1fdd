package x86sim

import (
	"context"
	"fmt"
	"io/fs"
	"sync"
	"unsafe"
)

// Lazy is the Program of a package's embedded assembly, loaded (Load) at
// its first use and shared after: what the generated kernel bodies of a
// test build call. It is meant to be one package-level value per package,
// like the kernels it stands for; it must not be copied.
type Lazy struct {
	FS    fs.FS    // the embedded sources and the headers they include
	Pkg   string   // the package's import path
	Files []string // the .s files to assemble
	// Complete makes loading fail when the interpreter lacks an
	// instruction of any function, so that a caller can keep the native
	// kernels' place for those it cannot run.
	Complete bool

	once sync.Once
	prog *Program
	err  error
}

// Program loads the sources once and returns their Program.
func (l *Lazy) Program() (*Program, error) {
	l.once.Do(func() {
		p, err := Load(context.Background(), l.FS, l.Pkg, l.Files...)
		if err == nil && l.Complete {
			for _, fn := range p.Functions() {
				if u := p.Unknown(fn); len(u) > 0 {
					err = fmt.Errorf("the interpreter lacks instructions of %s: %v", fn, u)
					break
				}
			}
		}
		l.prog, l.err = p, err
	})
	return l.prog, l.err
}

// MustCall runs kernel fn on its ABI0 frame (Program.Call) and panics on
// an error: the kernels it stands for return none. The frame, and the
// arguments it points to, escape to the heap, so nothing the interpreter
// addresses by integer lives on a goroutine stack that could move.
func (l *Lazy) MustCall(fn string, frame unsafe.Pointer, size, resultOff uintptr) {
	p, err := l.Program()
	if err == nil {
		err = p.Call(fn, frame, size, resultOff)
	}
	if err != nil {
		panic(fmt.Sprintf("%s: avx512sim: %v", l.Pkg, err))
	}
}
