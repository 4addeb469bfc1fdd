//go:build amd64

package x86sim

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestDoubleListing runs testdata/double_amd64.s in the interpreter: the
// EVEX widths of the float64 forms (a Y source widened into a Z register,
// a Z narrowed into a Y register whose upper half is zeroed, VCVTPS2PD's
// half-width memory operand) and VSCALEFPS, against Go.
func TestDoubleListing(t *testing.T) {
	l, err := Assemble(context.Background(), "testdata", "x", "double_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(l)
	if err != nil {
		t.Fatal(err)
	}
	if u := p.Unknown("Double"); len(u) > 0 {
		t.Fatalf("instructions the interpreter lacks: %v", u)
	}
	r := rand.New(rand.NewPCG(31, 32))
	for it := 0; it < 200; it++ {
		var x, y [16]float32
		for i := range x {
			x[i], y[i] = randF32(r), float32(r.IntN(60)-30)+float32(r.Float64())
			if it%2 == 0 {
				// Halves of very different magnitudes: the float64 sum
				// rounds to float32 only at the end.
				x[i] = float32(r.NormFloat64()) * float32(math.Ldexp(1, r.IntN(60)-30))
			}
		}
		var out [48]float32
		fr := struct {
			x, y *[16]float32
			out  *[48]float32
		}{&x, &y, &out}
		if err := p.Call("Double", unsafe.Pointer(&fr), unsafe.Sizeof(fr), unsafe.Sizeof(fr)); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 16; i++ {
			want := [3]float32{}
			if i < 8 {
				want = [3]float32{float32(float64(x[i]) + float64(x[i+8])), 0, x[8+i]}
			}
			want[1] = scalefRef(x[i], y[i])
			for j, got := range []float32{out[i], out[16+i], out[32+i]} {
				if math.Float32bits(got) != math.Float32bits(want[j]) && !(got != got && want[j] != want[j]) {
					t.Fatalf("x=%v y=%v: part %d lane %d = %g, want %g", x, y, j, i, got, want[j])
				}
			}
		}
	}
}
