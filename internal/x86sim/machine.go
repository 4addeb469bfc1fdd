package x86sim

import (
	"encoding/binary"
	"fmt"
	"runtime/debug"
	"sync"
	"unsafe"
)

// state is the machine of one call: registers, flags and the stack.
type state struct {
	gp    [16]uint64
	v     [32]Vec
	k     [8]uint64
	cf    bool
	zf    bool
	sf    bool
	of    bool
	next  int // index of the next instruction
	done  bool
	fn    *function
	prog  *Program
	stack []byte // the interpreter's stack; its top is aligned to 64
	lo    uint64 // lowest address of stack
	// g is a fake goroutine: the split-stack prologue loads (TLS) and
	// compares SP with g's stackguard0 at offset 16, which stays zero so
	// that the check passes and morestack is never called.
	g [64]byte
	// frame is the caller's argument frame of the running call. Keeping it
	// in this heap object makes Call's frame argument escape, so no
	// argument it points to lives on a goroutine stack that could move
	// while the interpreter holds its address as an integer.
	frame unsafe.Pointer
	// Scratch operands of vector instructions (execVec).
	dst, src1, src2, old Vec
	args                 OpArgs
}

// stackSize is the interpreter's stack; the kernels' frames are < 8 KB.
const stackSize = 64 << 10

// retSentinel is the return address of the entry frame.
const retSentinel = 0x5e57_1e0f_0000_0000

type statePool struct{ p sync.Pool }

func (sp *statePool) get(p *Program) *state {
	if s, ok := sp.p.Get().(*state); ok {
		return s
	}
	s := &state{prog: p, stack: make([]byte, stackSize+64)}
	base := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(s.stack))))
	pad := (64 - base%64) % 64
	s.stack = s.stack[pad : pad+stackSize]
	s.lo = base + pad
	return s
}

func (sp *statePool) put(s *state) {
	s.frame = nil
	sp.p.Put(s)
}

// Call runs the function named fn (without its package path) with the
// ABI0 argument frame at frame: size bytes, the arguments at increasing
// offsets and the results from resultOff on (size when there are none),
// laid out as the Go assembler's name+off(FP) operands read them. The
// results are copied back into the frame. Call is safe for concurrent use.
func (p *Program) Call(fn string, frame unsafe.Pointer, size, resultOff uintptr) error {
	f, ok := p.funcs[fn]
	if !ok {
		return fmt.Errorf("x86sim: no function %s in the listing", fn)
	}
	// A Go struct of the frame may end in padding the TEXT's size omits
	// (func(...) float32 after pointers is $0-20 in a 24-byte struct).
	if int(size) < f.args || int(size) > (f.args+7)&^7 || resultOff > size {
		return fmt.Errorf("x86sim: %s: frame of %d bytes (results at %d), the function takes %d", fn, size, resultOff, f.args)
	}
	size = uintptr(f.args)
	resultOff = min(resultOff, size)
	s := p.pool.get(p)
	defer p.pool.put(s)
	// A load or store that faults (a guard page past a buffer) panics
	// instead of crashing the process; run recovers it into an error
	// naming the instruction.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	s.frame = frame
	s.reset(f)
	top := s.lo + stackSize - 256 // a red zone above the frame
	top &^= 15
	argAt := top - uint64(size)
	argAt &^= 15 // so SP is 8 mod 16 at entry, as after a CALL
	if argAt-8 < s.lo+uint64(f.locals)+1024 {
		return fmt.Errorf("x86sim: %s: frame too large for the interpreter's stack", fn)
	}
	src := unsafe.Slice((*byte)(frame), size)
	copy(s.mem(argAt, int(size)), src)
	s.gp[regSP] = argAt - 8
	binary.LittleEndian.PutUint64(s.mem(argAt-8, 8), retSentinel)
	if err := s.run(); err != nil {
		return err
	}
	copy(src[resultOff:], s.mem(argAt+uint64(resultOff), int(size-resultOff)))
	return nil
}

// reset sets the registers for a new call. ABI0 promises an assembly
// function nothing about them but SP, so they start poisoned: a kernel
// that reads one before writing it gets NaNs, all-ones masks and
// non-canonical addresses, and its results show it, where zeros might
// pass unnoticed.
func (s *state) reset(f *function) {
	for i := range s.gp {
		s.gp[i] = 0xdead_0000_0000_0000 | uint64(i)<<8
	}
	for i := range s.v {
		for j := range s.v[i] {
			s.v[i][j] = 0xff
		}
	}
	for i := range s.k {
		s.k[i] = ^uint64(0)
	}
	s.cf, s.zf, s.sf, s.of = false, false, false, false
	s.next, s.done, s.fn = 0, false, f
	s.g = [64]byte{}
}

// maxSteps bounds one call, so a kernel that loops forever under the
// interpreter (a flag bug) fails instead of hanging the test.
const maxSteps = 1 << 34

func (s *state) run() (err error) {
	insts := s.fn.insts
	// A semantics bug that panics (an index out of range in an Exec) is
	// reported as an error naming the instruction, like any other failure.
	defer func() {
		if r := recover(); r != nil {
			in := &insts[max(s.next-1, 0)]
			err = fmt.Errorf("x86sim: %s (%s:%d): %s: panic: %v", s.fn.name, in.file, in.line, in.text, r)
		}
	}()
	for steps := 0; !s.done; steps++ {
		if s.next >= len(insts) || s.next < 0 {
			return fmt.Errorf("x86sim: %s: ran off the end of the function", s.fn.name)
		}
		if steps > maxSteps {
			return fmt.Errorf("x86sim: %s: more than %d instructions", s.fn.name, maxSteps)
		}
		in := &insts[s.next]
		s.next++
		if err := in.run(s, in); err != nil {
			return fmt.Errorf("x86sim: %s (%s:%d): %s: %w", s.fn.name, in.file, in.line, in.text, err)
		}
	}
	return nil
}

// mem is n bytes of process memory at addr. The caller checked addr with
// check; the stack's own accesses are in range by construction.
func (s *state) mem(addr uint64, n int) []byte {
	p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	return unsafe.Slice((*byte)(p), n)
}

// minAddr: addresses below it are a kernel or interpreter bug (a nil
// pointer plus an offset), reported instead of faulting.
const minAddr = 1 << 16

// access returns n bytes at addr after checking it.
func (s *state) access(addr uint64, n int) ([]byte, error) {
	if addr < minAddr || addr+uint64(n) < addr || addr>>47 != 0 {
		return nil, fmt.Errorf("bad address %#x (%d bytes)", addr, n)
	}
	return s.mem(addr, n), nil
}

// accessOp returns the n bytes a memory operand addresses; SP-based
// operands must stay inside the interpreter's stack.
func (s *state) accessOp(o *operand, n int) ([]byte, error) {
	return s.accessAt(o, s.addr(o), n)
}

// accessAt returns n bytes at a, an address computed from operand o (an
// element of it, for masked and broadcast forms).
func (s *state) accessAt(o *operand, a uint64, n int) ([]byte, error) {
	if o.base == regSP && (a < s.lo || a+uint64(n) > s.lo+stackSize) {
		return nil, fmt.Errorf("stack access at %#x outside the interpreter's stack", a)
	}
	return s.access(a, n)
}

// addr computes a memory operand's address (not for VSIB).
func (s *state) addr(o *operand) uint64 {
	a := uint64(o.disp)
	if o.base >= 0 {
		a += s.gp[o.base]
	}
	if o.index >= 0 {
		a += s.gp[o.index] * uint64(o.scale)
	}
	return a
}

// bind picks the handler of an instruction. Unknown mnemonics and forms
// get a handler that reports them when they are reached, so a listing
// with one unknown instruction still runs its other functions.
func (p *Program) bind(in *inst) {
	if h, ok := gpOps[in.op]; ok {
		in.run = h
		return
	}
	if h, ok := specialOps[in.op]; ok {
		in.run = h
		return
	}
	if c := jumpCond(in.op); c != nil || in.op == "JMP" {
		in.run = jumpOp(c)
		return
	}
	if op, ok := p.ops[in.op]; ok {
		form, err := newVecForm(in, op)
		if err != nil {
			in.bad = err
			in.run = failOp(err)
			return
		}
		in.vec = form
		in.run = execVec
		return
	}
	in.bad = fmt.Errorf("unknown instruction %s", in.op)
	in.run = failOp(in.bad)
}

func failOp(err error) handler {
	return func(*state, *inst) error { return err }
}

// Unknown lists the instructions of function fn that the interpreter
// cannot run, as "file:line: error", for tests and diagnostics.
func (p *Program) Unknown(fn string) []string {
	f, ok := p.funcs[fn]
	if !ok {
		return []string{fn + ": no such function"}
	}
	var out []string
	for i := range f.insts {
		in := &f.insts[i]
		if in.bad != nil {
			out = append(out, fmt.Sprintf("%s:%d: %s: %v", in.file, in.line, in.text, in.bad))
		}
	}
	return out
}

// Functions lists the listing's functions.
func (p *Program) Functions() []string {
	var out []string
	for name := range p.funcs {
		out = append(out, name)
	}
	return out
}
