//go:build amd64 && !purego && avx512sim

package tensor

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"

	"svc/internal/x86sim"
)

// TestSimMatchesCPU validates the interpreter that runs the AVX-512
// kernels in this build: AVX2 kernels, which this CPU runs, give the same
// bits through the interpreter as natively, on random blocks (operand
// order, VEX upper-bit zeroing, memory operands, flags and loops, and the
// vector semantics the AVX2 code shares with the AVX-512 code): the
// one-position dots of every quantized type and F16 (dot_amd64.s), the
// 8-row Q4_0 dot, the 4-row Q8_0 and Q4_K tiles, and the x-layout Q4_0
// tiles (tiles_q4x_avx2_amd64.s) on q4xMakeCase's data, extremes included.
func TestSimMatchesCPU(t *testing.T) {
	c := hostCaps()
	if !c.HasAVX2 || !c.HasFMA || !c.HasF16C {
		t.Skip("the CPU lacks AVX2, FMA or F16C: nothing native to compare with")
	}
	listing, err := x86sim.Assemble(context.Background(), ".", "svc/shards/tensor",
		"dot_amd64.s", "tiles_q8_avx2_amd64.s", "tiles_k_avx2_amd64.s", "tiles_q4x_avx2_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	p, err := x86sim.Parse(listing)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 18))
	// blocks returns n random blocks of size bytes whose f16 fields (at
	// the given offsets) are finite scales, the rest random bytes.
	blocks := func(n, size int, f16At ...int) []byte {
		b := make([]byte, n*size)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		for i := 0; i < n; i++ {
			for _, o := range f16At {
				h := FP32ToFP16(float32(r.NormFloat64()) * 0.01)
				b[i*size+o], b[i*size+o+1] = byte(h), byte(h>>8)
			}
		}
		return b
	}
	acts := func(n int) ([]int8, []float32, []int16) {
		y := make([]int8, 32*n)
		for i := range y {
			y[i] = int8(r.IntN(255) - 127)
		}
		d := make([]float32, n)
		for i := range d {
			d[i] = float32(r.NormFloat64())
		}
		bs := make([]int16, 16*n) // Q8_K-style sums of 16 (for K types: 256-value blocks use 16 per block)
		for i := range bs {
			bs[i] = int16(r.IntN(4000) - 2000)
		}
		return y, d, bs
	}
	call := func(name string, frame any) {
		t.Helper()
		v := reflect.ValueOf(frame).Elem()
		res := v.Type().Size()
		if f, ok := v.Type().FieldByName("Ret"); ok {
			res = f.Offset
		}
		if err := p.Call(name, unsafe.Pointer(v.UnsafeAddr()), v.Type().Size(), res); err != nil {
			t.Fatal(err)
		}
	}
	nonzero := 0
	same := func(name string, nb int, got, want float32) {
		t.Helper()
		if want != 0 {
			nonzero++
		}
		if math.Float32bits(got) != math.Float32bits(want) {
			t.Errorf("%s nb=%d: interpreter %v (%#x), CPU %v (%#x)", name, nb, got, math.Float32bits(got), want, math.Float32bits(want))
		}
	}
	for _, nb := range []int{1, 2, 3, 8, 13} {
		y, d, _ := acts(nb)
		{
			w := blocks(nb, 34, 0)
			fr := struct {
				W   *byte
				Y   *int8
				D   *float32
				NB  int
				Ret float32
			}{W: &w[0], Y: &y[0], D: &d[0], NB: nb}
			call("dotQ8_0AVX2", &fr)
			same("dotQ8_0AVX2", nb, fr.Ret, dotQ8_0AVX2(&w[0], &y[0], &d[0], nb))
		}
		{
			w := blocks(nb, 18, 0)
			fr := struct {
				W   *byte
				Y   *int8
				D   *float32
				NB  int
				Ret float32
			}{W: &w[0], Y: &y[0], D: &d[0], NB: nb}
			call("dotQ4_0AVX2", &fr)
			same("dotQ4_0AVX2", nb, fr.Ret, dotQ4_0AVX2(&w[0], &y[0], &d[0], nb))
		}
		{
			n := 32 * nb
			w := blocks(n, 2, 0)
			x := blocks(n, 2, 0)
			fr := struct {
				W   *byte
				X   *uint16
				N   int
				Ret float32
			}{W: &w[0], X: (*uint16)(unsafe.Pointer(&x[0])), N: n}
			call("dotF16AVX2", &fr)
			same("dotF16AVX2", nb, fr.Ret, dotF16AVX2(&w[0], (*uint16)(unsafe.Pointer(&x[0])), n))
		}
	}
	// The other one-position dots of dot_amd64.s on 32-value blocks.
	for _, nb := range []int{1, 2, 7} {
		y, d, _ := acts(nb)
		s := make([]float32, nb)
		for i := range s {
			s[i] = float32(r.NormFloat64())
		}
		for _, k := range []struct {
			name  string
			size  int
			f16At []int
			withS bool
			fn    func(w *byte, y *int8, d, s *float32, nb int) float32
		}{
			{"dotQ5_0AVX2", 22, []int{0}, false, func(w *byte, y *int8, d, _ *float32, nb int) float32 { return dotQ5_0AVX2(w, y, d, nb) }},
			{"dotQ4_1AVX2", 20, []int{0, 2}, true, dotQ4_1AVX2},
			{"dotQ5_1AVX2", 24, []int{0, 2}, true, dotQ5_1AVX2},
		} {
			w := blocks(nb, k.size, k.f16At...)
			want := k.fn(&w[0], &y[0], &d[0], &s[0], nb)
			if k.withS {
				fr := struct {
					W   *byte
					Y   *int8
					D   *float32
					S   *float32
					NB  int
					Ret float32
				}{W: &w[0], Y: &y[0], D: &d[0], S: &s[0], NB: nb}
				call(k.name, &fr)
				same(k.name, nb, fr.Ret, want)
				continue
			}
			fr := struct {
				W   *byte
				Y   *int8
				D   *float32
				NB  int
				Ret float32
			}{W: &w[0], Y: &y[0], D: &d[0], NB: nb}
			call(k.name, &fr)
			same(k.name, nb, fr.Ret, want)
		}
		{
			// Four Q8_0 rows (tiles_q8_avx2_amd64.s).
			rs := 34 * nb
			w := blocks(4*nb, 34, 0)
			var got, want [4]float32
			fr := struct {
				W    *byte
				RS   int
				Y    *int8
				D    *float32
				NB   int
				Next int
				Out  *[4]float32
			}{W: &w[0], RS: rs, Y: &y[0], D: &d[0], NB: nb, Out: &got}
			call("q80Vec4AVX2", &fr)
			q80Vec4AVX2(&w[0], rs, &y[0], &d[0], nb, 0, &want)
			for i := range got {
				same("q80Vec4AVX2", nb, got[i], want[i])
			}
		}
		{
			// Eight Q4_0 rows.
			rb := 18 * nb
			w := blocks(8*nb, 18, 0)
			var got, want [8]float32
			fr := struct {
				W   *byte
				RB  int
				Y   *int8
				D   *float32
				NB  int
				Out *[8]float32
			}{W: &w[0], RB: rb, Y: &y[0], D: &d[0], NB: nb, Out: &got}
			call("dotQ4_0x8rowsAVX2", &fr)
			dotQ4_0x8rowsAVX2(&w[0], rb, &y[0], &d[0], nb, &want)
			for i := range got {
				same("dotQ4_0x8rowsAVX2", nb, got[i], want[i])
			}
		}
	}
	// The K types: 256-value super-blocks (nb of them), activations with
	// 16 sums per super-block.
	for _, nb := range []int{1, 2, 5} {
		y, d, bs := acts(8 * nb)
		{
			w := blocks(nb, 144, 0, 2)
			fr := struct {
				W   *byte
				Y   *int8
				D   *float32
				BS  *int16
				NB  int
				Ret float32
			}{W: &w[0], Y: &y[0], D: &d[0], BS: &bs[0], NB: nb}
			call("dotQ4_KAVX2", &fr)
			same("dotQ4_KAVX2", nb, fr.Ret, dotQ4_KAVX2(&w[0], &y[0], &d[0], &bs[0], nb))
		}
		for _, k := range []struct {
			name  string
			size  int
			f16At []int
			fn    func(w *byte, y *int8, d *float32, bs *int16, nb int) float32
		}{
			{"dotQ5_KAVX2", 176, []int{0, 2}, dotQ5_KAVX2},
			{"dotQ2_KAVX2", 84, []int{80, 82}, dotQ2_KAVX2},
			{"dotQ3_KAVX2", 110, []int{108}, func(w *byte, y *int8, d *float32, _ *int16, nb int) float32 { return dotQ3_KAVX2(w, y, d, nb) }},
		} {
			w := blocks(nb, k.size, k.f16At...)
			want := k.fn(&w[0], &y[0], &d[0], &bs[0], nb)
			if k.name == "dotQ3_KAVX2" {
				fr := struct {
					W   *byte
					Y   *int8
					D   *float32
					NB  int
					Ret float32
				}{W: &w[0], Y: &y[0], D: &d[0], NB: nb}
				call(k.name, &fr)
				same(k.name, nb, fr.Ret, want)
				continue
			}
			fr := struct {
				W   *byte
				Y   *int8
				D   *float32
				BS  *int16
				NB  int
				Ret float32
			}{W: &w[0], Y: &y[0], D: &d[0], BS: &bs[0], NB: nb}
			call(k.name, &fr)
			same(k.name, nb, fr.Ret, want)
		}
		{
			w := blocks(nb, 210, 208)
			fr := struct {
				W   *byte
				Y   *int8
				D   *float32
				NB  int
				Ret float32
			}{W: &w[0], Y: &y[0], D: &d[0], NB: nb}
			call("dotQ6_KAVX2", &fr)
			same("dotQ6_KAVX2", nb, fr.Ret, dotQ6_KAVX2(&w[0], &y[0], &d[0], nb))
		}
		{
			// Four Q4_K rows of nb super-blocks each, row stride rs.
			rs := 144 * nb
			w := blocks(4*nb, 144, 0, 2)
			var got, want [4]float32
			fr := struct {
				W    *byte
				RS   int
				Y    *int8
				D    *float32
				BS   *int16
				NB   int
				Next int
				Out  *[4]float32
			}{W: &w[0], RS: rs, Y: &y[0], D: &d[0], BS: &bs[0], NB: nb, Out: &got}
			call("q4kVec4AVX2", &fr)
			q4kVec4AVX2(&w[0], rs, &y[0], &d[0], &bs[0], nb, 0, &want)
			for i := range got {
				same("q4kVec4AVX2", nb, got[i], want[i])
			}
		}
	}
	for _, nb := range []int{1, 3, 5} {
		for edge := 0; edge < 3; edge++ {
			for _, p := range []int{1, 2, q40xAVX2Group} {
				c := q4xMakeCase(t, r, "", 16, nb, p, 1, edge)
				got := make([]float32, 16*p)
				want := make([]float32, 16*p)
				if p == 1 {
					fr := struct {
						W     *byte
						NB    int
						Tiles int
						Y     *int8
						D     *float32
						Bias  *int32
						Out   *float32
						PF    int
					}{&c.packedTile[0], nb, 1, &c.qs[0], &c.d[0], &c.bias[0], &got[0], 0}
					call("q40xVecAVX2", &fr)
					q40xVecAVX2(&c.packedTile[0], nb, 1, &c.qs[0], &c.d[0], &c.bias[0], &want[0], 0)
				} else {
					fr := struct {
						W       *byte
						NB      int
						Y       *int8
						YStride int
						D       *float32
						Bias    *int32
						DStride int
						P       int
						Out     *float32
						PF      int
					}{&c.packedTile[0], nb, &c.qs[0], c.ys, &c.d[0], &c.bias[0], c.ds, p, &got[0], 0}
					call("q40xBatchAVX2", &fr)
					q40xBatchAVX2(&c.packedTile[0], nb, &c.qs[0], c.ys, &c.d[0], &c.bias[0], c.ds, p, &want[0], 0)
				}
				for i := range got {
					same("q40x AVX2 tile", nb, got[i], want[i])
				}
			}
		}
	}
	if nonzero == 0 {
		t.Error("every native result was zero: the comparison proved nothing")
	}
}

// TestSimShadowedKernels runs the AVX-512 kernels that no kernel set uses
// on a CPU with every extension the avx512sim build reports through the
// comparison of TestKernelsMatchGeneric: q40Vec16s (the set takes
// q40Vec16x2 where GFNI is present) and q4kBatch2x8/q6kBatch2x8 (replaced
// by addK8Tiles' tiles under the same features).
func TestSimShadowedKernels(t *testing.T) {
	ks := *avx512Kernels()
	ks.name = "avx512-shadowed"
	addKTiles(&ks)
	dot4 := ks.dot[Q4_0]
	ks.vec[Q4_0] = tileSpec{rows: 16, pos: 1, strided: true, fn: func(w []byte, l tileLayout, a *acts, i int, out []float32) {
		if !gatherable(l.rs, 16) {
			fallbackTile(dot4, w, l.rs, a, i, 16, 1, out)
			return
		}
		pw, py, pd, nb := tileArgs(w, l, a, i, 16, 1, 18)
		q40Vec16s(pw, l.rs, l.bs, py, pd, nb, l.next, &out[:16][0])
	}}
	testKernelSet(t, &ks)
}
