//go:build amd64

package x86sim_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"svc/internal/x86sim"
	"svc/internal/x86sim/internal/simtest"
)

// simtestProgram assembles internal/simtest's functions for the interpreter.
func simtestProgram(t *testing.T) *x86sim.Program {
	t.Helper()
	l, err := x86sim.Assemble(context.Background(), "internal/simtest", "svc/internal/x86sim/internal/simtest", "simtest_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	p, err := x86sim.Parse(l)
	if err != nil {
		t.Fatal(err)
	}
	for _, fn := range p.Functions() {
		if u := p.Unknown(fn); len(u) > 0 {
			t.Fatalf("%s: instructions the interpreter lacks: %v", fn, u)
		}
	}
	return p
}

// edgeValues are the operands that flags and shifts get wrong first.
var edgeValues = []uint64{0, 1, 2, 63, 64, 0x7fffffff, 0x80000000, 0xffffffff, 1 << 32,
	math.MaxInt64, 1 << 63, math.MaxUint64, math.MaxUint64 - 1}

func operands(n int) []uint64 {
	r := rand.New(rand.NewPCG(1, 2))
	v := append([]uint64(nil), edgeValues...)
	for len(v) < n {
		v = append(v, r.Uint64()>>(r.UintN(64)))
	}
	return v
}

// TestGeneralPurposeMatchesCPU runs the general-purpose functions natively
// and in the interpreter on the same operands: arithmetic, shifts, LEA,
// sign and zero extension, CMOV, and every conditional jump after CMP, SUB,
// ADD, TEST, DEC and a 32-bit CMP.
func TestGeneralPurposeMatchesCPU(t *testing.T) {
	p := simtestProgram(t)
	vals := operands(40)
	for _, a := range vals {
		for _, b := range vals {
			{
				type frame struct{ a, b, ret uint64 }
				f := frame{a: a, b: b}
				if err := p.Call("Flags", unsafe.Pointer(&f), unsafe.Sizeof(f), unsafe.Offsetof(f.ret)); err != nil {
					t.Fatal(err)
				}
				if want := simtest.Flags(a, b); f.ret != want {
					t.Fatalf("Flags(%#x, %#x) = %#x, the CPU says %#x (differing bits %#x)", a, b, f.ret, want, f.ret^want)
				}
			}
			for _, n := range []uint64{0, 1, 5, 31, 32, 63, 64, a % 64} {
				type frame struct{ a, b, n, r1, r2, r3, r4 uint64 }
				f := frame{a: a, b: b, n: n}
				if err := p.Call("GPMix", unsafe.Pointer(&f), unsafe.Sizeof(f), unsafe.Offsetof(f.r1)); err != nil {
					t.Fatal(err)
				}
				r1, r2, r3, r4 := simtest.GPMix(a, b, n)
				if f.r1 != r1 || f.r2 != r2 || f.r3 != r3 || f.r4 != r4 {
					t.Fatalf("GPMix(%#x, %#x, %d) = %#x %#x %#x %#x, the CPU says %#x %#x %#x %#x",
						a, b, n, f.r1, f.r2, f.r3, f.r4, r1, r2, r3, r4)
				}
			}
			{
				type frame struct{ a, b, ret uint64 }
				f := frame{a: a, b: b}
				if err := p.Call("Framed", unsafe.Pointer(&f), unsafe.Sizeof(f), unsafe.Offsetof(f.ret)); err != nil {
					t.Fatal(err)
				}
				if want := simtest.Framed(a, b); f.ret != want {
					t.Fatalf("Framed(%#x, %#x) = %#x, the CPU says %#x", a, b, f.ret, want)
				}
			}
		}
	}
}

// TestMemoryMatchesCPU runs a loop reading and writing a Go slice through
// indexed operands, and the legacy MOVSS forms with a float32 result, from
// several goroutines at once (one Program, a state per call).
func TestMemoryMatchesCPU(t *testing.T) {
	p := simtestProgram(t)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 50; n++ {
				native := make([]uint64, n+1)
				sim := make([]uint64, n+1)
				for i := range native {
					native[i] = uint64(i*i*7919 + g)
					sim[i] = native[i]
				}
				want := simtest.LoopSum(&native[0], n)
				type frame struct {
					p   *uint64
					n   int
					ret uint64
				}
				f := frame{p: &sim[0], n: n}
				if err := p.Call("LoopSum", unsafe.Pointer(&f), unsafe.Sizeof(f), unsafe.Offsetof(f.ret)); err != nil {
					errs <- err
					return
				}
				if f.ret != want {
					errs <- fmt.Errorf("LoopSum(n=%d) = %d, the CPU says %d", n, f.ret, want)
					return
				}
				for i := range native {
					if native[i] != sim[i] {
						errs <- fmt.Errorf("LoopSum(n=%d) left p[%d] = %d, the CPU %d", n, i, sim[i], native[i])
						return
					}
				}
			}
			x, y1, y2 := float32(-1.5)*float32(g+1), float32(0), float32(0)
			want := simtest.MovSS(&x, &y1)
			type frame struct {
				x, y *float32
				ret  float32
			}
			f := frame{x: &x, y: &y2}
			if err := p.Call("MovSS", unsafe.Pointer(&f), unsafe.Sizeof(f), unsafe.Offsetof(f.ret)); err != nil {
				errs <- err
				return
			}
			if f.ret != want || y1 != y2 {
				errs <- fmt.Errorf("MovSS = %v (stored %v), the CPU says %v (stored %v)", f.ret, y2, want, y1)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestErrors checks that bad memory, unknown instructions and a frame of
// the wrong size stop the call with an error naming the cause and the
// source line, instead of faulting or panicking.
func TestErrors(t *testing.T) {
	p := simtestProgram(t)
	type frame struct {
		p   *uint64
		n   int
		ret uint64
	}
	f := frame{n: 3}
	err := p.Call("LoopSum", unsafe.Pointer(&f), unsafe.Sizeof(f), unsafe.Offsetof(f.ret))
	if err == nil || !strings.Contains(err.Error(), "simtest_amd64.s:") || !strings.Contains(err.Error(), "bad address") {
		t.Errorf("nil pointer: got %v, want a bad address at a simtest_amd64.s line", err)
	}
	if err := p.Call("LoopSum", unsafe.Pointer(&f), 16, 16); err == nil {
		t.Error("a 16-byte frame for a 24-byte function: no error")
	}
	if err := p.Call("NoSuch", unsafe.Pointer(&f), unsafe.Sizeof(f), unsafe.Sizeof(f)); err == nil {
		t.Error("an unknown function: no error")
	}
	listing := "x.f STEXT nosplit size=8 args=0x8 locals=0x0\n" +
		"\t0x0000 00000 (f.s:3)\tTEXT\tx.f(SB), NOSPLIT|NOFRAME, $0-8\n" +
		"\t0x0000 00000 (f.s:4)\tCPUID\n" +
		"\t0x0002 00002 (f.s:5)\tRET\n"
	q, err := x86sim.Parse(listing)
	if err != nil {
		t.Fatal(err)
	}
	if u := q.Unknown("f"); len(u) != 1 || !strings.Contains(u[0], "f.s:4") {
		t.Errorf("Unknown = %q, want CPUID at f.s:4", u)
	}
	var x uint64
	err = q.Call("f", unsafe.Pointer(&x), 8, 8)
	if err == nil || !strings.Contains(err.Error(), "f.s:4") || !strings.Contains(err.Error(), "CPUID") {
		t.Errorf("unknown instruction: got %v, want CPUID at f.s:4", err)
	}
}
