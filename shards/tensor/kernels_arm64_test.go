//go:build arm64 && !purego

package tensor

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestNEONDots calls the NEON and SDOT kernels directly on every block
// count from 1 to 40 (and 64; 1 to 12 and 16 super-blocks for the
// k-quants; for F16, steps of 32 elements) and checks their bits against the canonical Go dot products, so
// a wrong lane order or scale shows even where MatMul would pick another
// kernel. The SDOT ones skip, with the reason, on a CPU without the
// dot-product extension.
func TestNEONDots(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	// q0 adapts a Q8_0-activation kernel, qk a Q8_K one: each returns the
	// kernel's result and the Go one's for the same weights and input.
	type pair func(w []byte, x []float32, nb int) (got, want float32)
	q0 := func(fn func(w *byte, y *int8, d *float32, nb int) float32, ref func(w []byte, qs []int8, d []float32) float32) pair {
		return func(w []byte, x []float32, nb int) (float32, float32) {
			qs, d := make([]int8, len(x)), make([]float32, nb)
			quantQ8_0(x, qs, d)
			return fn(&w[0], &qs[0], &d[0], nb), ref(w, qs, d)
		}
	}
	qk := func(fn func(w *byte, y *int8, d *float32, bsums *int16, nb int) float32, ref func(w []byte, qs []int8, d []float32, bsums []int16) float32) pair {
		return func(w []byte, x []float32, nb int) (float32, float32) {
			qs, d, bs := make([]int8, len(x)), make([]float32, nb), make([]int16, 16*nb)
			quantQ8_K(x, qs, d, bs)
			return fn(&w[0], &qs[0], &d[0], &bs[0], nb), ref(w, qs, d, bs)
		}
	}
	// q1 adapts a Q8_1-activation kernel (Q4_1, Q5_1).
	q1 := func(fn func(w *byte, y *int8, d, s *float32, nb int) float32, ref func(w []byte, qs []int8, d, s []float32) float32) pair {
		return func(w []byte, x []float32, nb int) (float32, float32) {
			qs, d, s := make([]int8, len(x)), make([]float32, nb), make([]float32, nb)
			quantQ8_1(x, qs, d, s)
			return fn(&w[0], &qs[0], &d[0], &s[0], nb), ref(w, qs, d, s)
		}
	}
	noBsums := func(fn func(w *byte, y *int8, d *float32, nb int) float32) func(w *byte, y *int8, d *float32, bsums *int16, nb int) float32 {
		return func(w *byte, y *int8, d *float32, _ *int16, nb int) float32 { return fn(w, y, d, nb) }
	}
	noBsumsRef := func(fn func(w []byte, qs []int8, d []float32) float32) func(w []byte, qs []int8, d []float32, bsums []int16) float32 {
		return func(w []byte, qs []int8, d []float32, _ []int16) float32 { return fn(w, qs, d) }
	}
	// f16 runs the F16 kernel on whole 32-element steps (tails are Go's).
	f16 := func(w []byte, x []float32, _ int) (float32, float32) {
		h := make([]uint16, len(x))
		toF16(x, h)
		return dotF16NEON(&w[0], &h[0], len(h)), dotF16(w, h)
	}
	kernels := []struct {
		name string
		typ  Type
		run  pair
		sdot bool
	}{
		{"dotQ8_0NEON", Q8_0, q0(dotQ8_0NEON, dotQ8_0), false},
		{"dotQ8_0SDOT", Q8_0, q0(dotQ8_0SDOT, dotQ8_0), true},
		{"dotQ4_0NEON", Q4_0, q0(dotQ4_0NEON, dotQ4_0), false},
		{"dotQ4_0SDOT", Q4_0, q0(dotQ4_0SDOT, dotQ4_0), true},
		{"dotQ5_0NEON", Q5_0, q0(dotQ5_0NEON, dotQ5_0), false},
		{"dotQ5_0SDOT", Q5_0, q0(dotQ5_0SDOT, dotQ5_0), true},
		{"dotQ4_1NEON", Q4_1, q1(dotQ4_1NEON, dotQ4_1), false},
		{"dotQ4_1SDOT", Q4_1, q1(dotQ4_1SDOT, dotQ4_1), true},
		{"dotQ5_1NEON", Q5_1, q1(dotQ5_1NEON, dotQ5_1), false},
		{"dotQ5_1SDOT", Q5_1, q1(dotQ5_1SDOT, dotQ5_1), true},
		{"dotQ4_KNEON", Q4_K, qk(dotQ4_KNEON, dotQ4_K), false},
		{"dotQ4_KSDOT", Q4_K, qk(dotQ4_KSDOT, dotQ4_K), true},
		{"dotQ6_KNEON", Q6_K, qk(noBsums(dotQ6_KNEON), noBsumsRef(dotQ6_K)), false},
		{"dotQ6_KSDOT", Q6_K, qk(noBsums(dotQ6_KSDOT), noBsumsRef(dotQ6_K)), true},
		{"dotQ5_KNEON", Q5_K, qk(dotQ5_KNEON, dotQ5_K), false},
		{"dotQ5_KSDOT", Q5_K, qk(dotQ5_KSDOT, dotQ5_K), true},
		{"dotQ2_KNEON", Q2_K, qk(dotQ2_KNEON, dotQ2_K), false},
		{"dotQ2_KSDOT", Q2_K, qk(dotQ2_KSDOT, dotQ2_K), true},
		{"dotQ3_KNEON", Q3_K, qk(noBsums(dotQ3_KNEON), noBsumsRef(dotQ3_K)), false},
		{"dotQ3_KSDOT", Q3_K, qk(noBsums(dotQ3_KSDOT), noBsumsRef(dotQ3_K)), true},
		{"dotF16NEON", F16, f16, false},
	}
	for _, k := range kernels {
		t.Run(k.name, func(t *testing.T) {
			if k.sdot && !CanRunKernels("neondot") {
				t.Skip(KernelGap("neondot"))
			}
			bs := k.typ.BlockSize()
			maxNB, lastNB := 40, 64
			switch bs {
			case qkK:
				maxNB, lastNB = 12, 16
			case 1: // F16: 32-element steps
				bs = 32
			}
			for nb := 1; nb <= lastNB; nb++ {
				if nb > maxNB && nb != lastNB {
					continue
				}
				cols := bs * nb
				w := randomMatrix(r, k.typ, 1, cols)
				if nb%5 == 0 || nb%5 == 3 { // extreme quants and scales: every bit set, or only the top ones
					fill := byte(0xff)
					if nb%5 == 3 {
						fill = 0x80
					}
					for j := range w.Data {
						w.Data[j] = fill
					}
					fixScales(r, w)
				}
				x := randomVec(r, cols)
				if nb%7 == 0 { // a zero block and a huge one
					clear(x[:bs])
					for j := bs * (nb - 1); j < cols; j++ {
						x[j] *= 1e30
					}
				}
				got, want := k.run(w.Data, x, nb)
				if math.Float32bits(got) != math.Float32bits(want) {
					t.Fatalf("%d blocks: %v (%#x), want %v (%#x)", nb, got, math.Float32bits(got), want, math.Float32bits(want))
				}
			}
		})
	}
}

// TestNEONQuads checks the four-position kernels of the 32-element block
// types the same way: each of their four results against the Go kernel on
// that position's activations.
func TestNEONQuads(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	// quad is a kernel with Q8_1 activations (Q4_1, Q5_1, which take
	// their blocks' sums s); q0 adapts one with Q8_0 activations, r0 its
	// Go kernel.
	type quad func(w *byte, y *int8, ystride int, d *float32, dstride int, s *float32, nb int, out *[4]float32)
	type ref func(w []byte, qs []int8, d, s []float32) float32
	q0 := func(fn func(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)) quad {
		return func(w *byte, y *int8, ystride int, d *float32, dstride int, _ *float32, nb int, out *[4]float32) {
			fn(w, y, ystride, d, dstride, nb, out)
		}
	}
	r0 := func(fn func(w []byte, qs []int8, d []float32) float32) ref {
		return func(w []byte, qs []int8, d, _ []float32) float32 { return fn(w, qs, d) }
	}
	kernels := []struct {
		name string
		typ  Type
		fn   quad
		ref  ref
		sdot bool
	}{
		{"dotQ8_0x4NEON", Q8_0, q0(dotQ8_0x4NEON), r0(dotQ8_0), false},
		{"dotQ8_0x4SDOT", Q8_0, q0(dotQ8_0x4SDOT), r0(dotQ8_0), true},
		{"dotQ4_0x4NEON", Q4_0, q0(dotQ4_0x4NEON), r0(dotQ4_0), false},
		{"dotQ4_0x4SDOT", Q4_0, q0(dotQ4_0x4SDOT), r0(dotQ4_0), true},
		{"dotQ5_0x4NEON", Q5_0, q0(dotQ5_0x4NEON), r0(dotQ5_0), false},
		{"dotQ5_0x4SDOT", Q5_0, q0(dotQ5_0x4SDOT), r0(dotQ5_0), true},
		{"dotQ4_1x4NEON", Q4_1, dotQ4_1x4NEON, dotQ4_1, false},
		{"dotQ4_1x4SDOT", Q4_1, dotQ4_1x4SDOT, dotQ4_1, true},
		{"dotQ5_1x4NEON", Q5_1, dotQ5_1x4NEON, dotQ5_1, false},
		{"dotQ5_1x4SDOT", Q5_1, dotQ5_1x4SDOT, dotQ5_1, true},
	}
	for _, k := range kernels {
		t.Run(k.name, func(t *testing.T) {
			if k.sdot && !CanRunKernels("neondot") {
				t.Skip(KernelGap("neondot"))
			}
			for nb := 1; nb <= 24; nb++ {
				cols := 32 * nb
				w := randomMatrix(r, k.typ, 1, cols)
				if nb%5 == 0 {
					for j := range w.Data {
						w.Data[j] = 0xff
					}
					fixScales(r, w)
				}
				x := randomVec(r, 4*cols)
				if nb%7 == 0 { // a zero block in one position, a huge one in another
					clear(x[cols : cols+32])
					for j := 3*cols - 32; j < 3*cols; j++ {
						x[j] *= 1e30
					}
				}
				qs, d, sy := make([]int8, len(x)), make([]float32, 4*nb), make([]float32, 4*nb)
				for p := 0; p < 4; p++ {
					if k.typ == Q4_1 || k.typ == Q5_1 {
						quantQ8_1(x[p*cols:(p+1)*cols], qs[p*cols:(p+1)*cols], d[p*nb:(p+1)*nb], sy[p*nb:(p+1)*nb])
					} else {
						quantQ8_0(x[p*cols:(p+1)*cols], qs[p*cols:(p+1)*cols], d[p*nb:(p+1)*nb])
					}
				}
				var got [4]float32
				k.fn(&w.Data[0], &qs[0], cols, &d[0], nb, &sy[0], nb, &got)
				for p := 0; p < 4; p++ {
					want := k.ref(w.Data, qs[p*cols:(p+1)*cols], d[p*nb:(p+1)*nb], sy[p*nb:(p+1)*nb])
					if math.Float32bits(got[p]) != math.Float32bits(want) {
						t.Fatalf("%d blocks, position %d: %v (%#x), want %v (%#x)", nb, p, got[p], math.Float32bits(got[p]), want, math.Float32bits(want))
					}
				}
			}
		})
	}
}

// TestNEONKQuads checks the four-position k-quant kernels as TestNEONQuads
// does, on 1 to 6 and 9 super-blocks.
func TestNEONKQuads(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	type kquad func(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)
	noSums := func(fn func(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)) kquad {
		return func(w *byte, y *int8, ystride int, d *float32, dstride int, _ *int16, _ int, nb int, out *[4]float32) {
			fn(w, y, ystride, d, dstride, nb, out)
		}
	}
	kernels := []struct {
		name string
		typ  Type
		fn   kquad
		ref  func(w []byte, qs []int8, d []float32, bsums []int16) float32
		sdot bool
	}{
		{"dotQ4_Kx4NEON", Q4_K, dotQ4_Kx4NEON, dotQ4_K, false},
		{"dotQ4_Kx4SDOT", Q4_K, dotQ4_Kx4SDOT, dotQ4_K, true},
		{"dotQ5_Kx4NEON", Q5_K, dotQ5_Kx4NEON, dotQ5_K, false},
		{"dotQ5_Kx4SDOT", Q5_K, dotQ5_Kx4SDOT, dotQ5_K, true},
		{"dotQ2_Kx4NEON", Q2_K, dotQ2_Kx4NEON, dotQ2_K, false},
		{"dotQ2_Kx4SDOT", Q2_K, dotQ2_Kx4SDOT, dotQ2_K, true},
		{"dotQ3_Kx4NEON", Q3_K, noSums(dotQ3_Kx4NEON), func(w []byte, qs []int8, d []float32, _ []int16) float32 { return dotQ3_K(w, qs, d) }, false},
		{"dotQ3_Kx4SDOT", Q3_K, noSums(dotQ3_Kx4SDOT), func(w []byte, qs []int8, d []float32, _ []int16) float32 { return dotQ3_K(w, qs, d) }, true},
		{"dotQ6_Kx4NEON", Q6_K, noSums(dotQ6_Kx4NEON), func(w []byte, qs []int8, d []float32, _ []int16) float32 { return dotQ6_K(w, qs, d) }, false},
		{"dotQ6_Kx4SDOT", Q6_K, noSums(dotQ6_Kx4SDOT), func(w []byte, qs []int8, d []float32, _ []int16) float32 { return dotQ6_K(w, qs, d) }, true},
	}
	for _, k := range kernels {
		t.Run(k.name, func(t *testing.T) {
			if k.sdot && !CanRunKernels("neondot") {
				t.Skip(KernelGap("neondot"))
			}
			for _, nb := range []int{1, 2, 3, 4, 5, 6, 9} {
				cols := qkK * nb
				w := randomMatrix(r, k.typ, 1, cols)
				if nb%3 == 0 { // extreme quants and scales
					fill := byte(0xff)
					if nb == 3 {
						fill = 0x80
					}
					for j := range w.Data {
						w.Data[j] = fill
					}
					fixScales(r, w)
				}
				x := randomVec(r, 4*cols)
				if nb == 5 { // a zero super-block in one position, a huge one in another
					clear(x[cols : cols+qkK])
					for j := 3*cols - qkK; j < 3*cols; j++ {
						x[j] *= 1e30
					}
				}
				qs, d, bs := make([]int8, len(x)), make([]float32, 4*nb), make([]int16, 64*nb)
				for p := 0; p < 4; p++ {
					quantQ8_K(x[p*cols:(p+1)*cols], qs[p*cols:(p+1)*cols], d[p*nb:(p+1)*nb], bs[16*p*nb:16*(p+1)*nb])
				}
				var got [4]float32
				k.fn(&w.Data[0], &qs[0], cols, &d[0], 4*nb, &bs[0], 32*nb, nb, &got)
				for p := 0; p < 4; p++ {
					want := k.ref(w.Data, qs[p*cols:(p+1)*cols], d[p*nb:(p+1)*nb], bs[16*p*nb:16*(p+1)*nb])
					if math.Float32bits(got[p]) != math.Float32bits(want) {
						t.Fatalf("%d super-blocks, position %d: %v (%#x), want %v (%#x)", nb, p, got[p], math.Float32bits(got[p]), want, math.Float32bits(want))
					}
				}
			}
		})
	}
}

// TestNEONQuantize checks the NEON activation converters against the Go
// ones, bit for bit, block by block on the cases their branches handle:
// random values, an all-zero block, all NaN, both signs at the largest
// magnitude (in either order, and as ±Inf, which the Q8_K kernel leaves to
// Go), one sign only at Inf, signalling NaNs, values whose scaled
// quants round at ±127.5, and subnormals.
func TestNEONQuantize(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	cases := []struct {
		name string
		set  func(x []float32)
		tie  bool // quantQ8_KBlockNEON must decline the block
	}{
		{"random", func(x []float32) {}, false},
		{"zero", func(x []float32) { clear(x) }, false},
		{"nan", func(x []float32) {
			for i := range x {
				x[i] = nan
			}
		}, false},
		{"tie-negative-first", func(x []float32) { m := 4 * absMax32(x); x[10], x[200] = -m, m }, true},
		{"tie-positive-first", func(x []float32) { m := 4 * absMax32(x); x[3], x[4] = m, -m }, true},
		{"tie-inf", func(x []float32) { x[100], x[30] = inf, -inf }, true},
		{"inf", func(x []float32) { x[77] = -inf; x[78] = nan }, false},
		{"snan", func(x []float32) {
			x[5] = math.Float32frombits(0x7f800001)
			x[6] = math.Float32frombits(0xffc12345)
		}, false},
		{"half-steps", func(x []float32) {
			for i := range x {
				x[i] = float32(i%255-127) * 0.5
			}
			x[255] = 127 // scale 1 in Q8_K, 127/127.5 in Q8_0
		}, false},
		{"subnormal", func(x []float32) {
			for i := range x {
				x[i] = float32(math.Ldexp(r.NormFloat64(), -140))
			}
		}, false},
		{"huge", func(x []float32) { x[9] = 3e38; x[10] = -3e38; x[11] = 1e38 }, true},
	}
	for _, c := range cases {
		x := randomVec(r, qkK)
		c.set(x)
		qa, qb := make([]int8, qkK), make([]int8, qkK)
		da, db := make([]float32, 8), make([]float32, 8)
		ba, bb := make([]int16, 16), make([]int16, 16)
		quantQ8_0(x, qa, da)
		quantQ8_0Neon(x, qb, db)
		for i := range qa {
			if qa[i] != qb[i] {
				t.Fatalf("%s: Q8_0 quant %d: %d, want %d", c.name, i, qb[i], qa[i])
			}
		}
		for i := range da {
			if math.Float32bits(da[i]) != math.Float32bits(db[i]) {
				t.Fatalf("%s: Q8_0 d[%d]: %g, want %g", c.name, i, db[i], da[i])
			}
		}
		quantQ8_K(x, qa, da[:1], ba)
		if ok := quantQ8_KBlockNEON(&x[0], &qb[0], &db[0], &bb[0]); ok == c.tie {
			t.Fatalf("%s: quantQ8_KBlockNEON returned %v", c.name, ok)
		}
		quantQ8_KNeon(x, qb, db[:1], bb)
		for i := range qa {
			if qa[i] != qb[i] {
				t.Fatalf("%s: Q8_K quant %d: %d, want %d", c.name, i, qb[i], qa[i])
			}
		}
		if math.Float32bits(da[0]) != math.Float32bits(db[0]) {
			t.Fatalf("%s: Q8_K d: %g, want %g", c.name, db[0], da[0])
		}
		for i := range ba {
			if ba[i] != bb[i] {
				t.Fatalf("%s: bsums[%d]: %d, want %d", c.name, i, bb[i], ba[i])
			}
		}
	}
}

// TestNEONRows checks the four-row kernels: each row's result against the
// Go kernel, rows a few bytes more than their blocks apart.
func TestNEONRows(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	type rows func(w *byte, rs int, y *int8, d *float32, nb int, out *[4]float32)
	kernels := []struct {
		name string
		typ  Type
		fn   rows
		ref  func(w []byte, qs []int8, d []float32) float32
		sdot bool
	}{
		{"dotQ4_0x4rowsNEON", Q4_0, dotQ4_0x4rowsNEON, dotQ4_0, false},
		{"dotQ4_0x4rowsSDOT", Q4_0, dotQ4_0x4rowsSDOT, dotQ4_0, true},
		{"dotQ8_0x4rowsNEON", Q8_0, dotQ8_0x4rowsNEON, dotQ8_0, false},
		{"dotQ8_0x4rowsSDOT", Q8_0, dotQ8_0x4rowsSDOT, dotQ8_0, true},
	}
	for _, k := range kernels {
		t.Run(k.name, func(t *testing.T) {
			if k.sdot && !CanRunKernels("neondot") {
				t.Skip(KernelGap("neondot"))
			}
			bb := k.typ.BlockBytes()
			for nb := 1; nb <= 24; nb++ {
				cols := 32 * nb
				rs := nb*bb + 3
				m := randomMatrix(r, k.typ, 4, cols)
				if nb%5 == 0 {
					for j := range m.Data {
						m.Data[j] = 0xff
					}
					fixScales(r, m)
				}
				w := make([]byte, 4*rs)
				for row := 0; row < 4; row++ {
					copy(w[row*rs:], m.Data[row*nb*bb:(row+1)*nb*bb])
				}
				x := randomVec(r, cols)
				if nb%7 == 0 {
					clear(x[:32])
					for j := cols - 32; j < cols; j++ {
						x[j] *= 1e30
					}
				}
				qs, d := make([]int8, cols), make([]float32, nb)
				quantQ8_0(x, qs, d)
				var got [4]float32
				k.fn(&w[0], rs, &qs[0], &d[0], nb, &got)
				for row := 0; row < 4; row++ {
					want := k.ref(w[row*rs:], qs, d)
					if math.Float32bits(got[row]) != math.Float32bits(want) {
						t.Fatalf("%d blocks, row %d: %v (%#x), want %v (%#x)", nb, row, got[row], math.Float32bits(got[row]), want, math.Float32bits(want))
					}
				}
			}
		})
	}
}
