package x86sim_test

import (
	"context"
	"math"
	"testing"
	"unsafe"

	"svc/internal/x86sim"
)

// TestOpmasks runs testdata/masks_amd64.s, whose AVX-512 mask forms this
// CPU may not have, and checks it against the manual's semantics in Go.
func TestOpmasks(t *testing.T) {
	l, err := x86sim.Assemble(context.Background(), "testdata", "x", "masks_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	p, err := x86sim.Parse(l)
	if err != nil {
		t.Fatal(err)
	}
	if u := p.Unknown("Masks"); len(u) > 0 {
		t.Fatalf("instructions the interpreter lacks: %v", u)
	}
	for _, c := range []struct{ x, y func(i int) float32 }{
		{func(i int) float32 { return float32(i) }, func(i int) float32 { return float32(15 - i) }},
		{func(i int) float32 { return 1 }, func(i int) float32 { return 0 }}, // no lane below: K3 empty
		{func(i int) float32 { return float32(-i) }, func(i int) float32 { return float32(math.NaN()) }},
	} {
		var x, y [16]float32
		for i := range x {
			x[i], y[i] = c.x(i), c.y(i)
		}
		var out [32]float32
		for i := range out {
			out[i] = -7
		}
		var k [4]uint64
		fr := struct {
			x, y *[16]float32
			out  *[32]float32
			k    *[4]uint64
		}{&x, &y, &out, &k}
		if err := p.Call("Masks", unsafe.Pointer(&fr), unsafe.Sizeof(fr), unsafe.Sizeof(fr)); err != nil {
			t.Fatal(err)
		}
		var k1 uint64
		for i := range x {
			if x[i] < y[i] { // predicate 1, LT_OS: false on NaN
				k1 |= 1 << i
			}
		}
		k3 := k1 & 0xff
		var flags uint64
		if k3 == 0 {
			flags |= 1
		}
		flags |= 2 // KXNORW K0, K0 is all ones: CF
		if k[0] != k1 || k[1] != k3 || k[2] != flags {
			t.Errorf("x=%v y=%v: masks %#x %#x flags %d, want %#x %#x %d", x, y, k[0], k[1], k[2], k1, k3, flags)
		}
		for i := 0; i < 16; i++ {
			want := float32(0)
			if k1>>i&1 != 0 {
				want = x[i]
			}
			if out[i] != want {
				t.Errorf("zeroing move lane %d: %v, want %v", i, out[i], want)
			}
			want = -7
			if k3>>i&1 != 0 {
				want = y[i]
			}
			if math.Float32bits(out[16+i]) != math.Float32bits(want) {
				t.Errorf("masked store lane %d: %v, want %v", i, out[16+i], want)
			}
		}
	}
}
