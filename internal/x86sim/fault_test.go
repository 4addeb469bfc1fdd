//go:build linux && amd64

package x86sim_test

import (
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// TestFaultIsAnError: a kernel reading into a guard page past its buffer
// stops with an error naming the instruction, and the process lives on.
func TestFaultIsAnError(t *testing.T) {
	p := simtestProgram(t)
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	// Four uint64 before the guard page, and a count of eight.
	type frame struct {
		p   *uint64
		n   int
		ret uint64
	}
	f := frame{p: (*uint64)(unsafe.Pointer(&mem[page-32])), n: 8}
	err = p.Call("LoopSum", unsafe.Pointer(&f), unsafe.Sizeof(f), unsafe.Offsetof(f.ret))
	if err == nil || !strings.Contains(err.Error(), "simtest_amd64.s:") {
		t.Fatalf("read into a guard page: got %v, want an error at a simtest_amd64.s line", err)
	}
	f.n = 4
	if err := p.Call("LoopSum", unsafe.Pointer(&f), unsafe.Sizeof(f), unsafe.Offsetof(f.ret)); err != nil {
		t.Fatalf("the same call within the buffer: %v", err)
	}
}
