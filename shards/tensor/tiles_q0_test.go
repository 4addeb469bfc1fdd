//go:build amd64 && !purego

package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestQ0TilesShapes compares the Q8_0 and Q4_0 tile kernels with the
// generic kernels, bit for bit, over the shapes that exercise their loops:
// every block count up to 9 and around their unrolling (the Q4_0
// one-position kernel takes blocks four at a time and the last block
// apart), row counts that leave partial tiles, and batches whose sizes
// leave positions to the one-position kernels; whole tiles also packed.
func TestQ0TilesShapes(t *testing.T) {
	skipUnless(t, q0TilesGap())
	ks := avx512Kernels()
	if ks.vec[Q8_0].fn == nil || ks.batch[Q8_0].fn == nil || ks.vec[Q4_0].fn == nil || ks.batch[Q4_0].fn == nil {
		t.Fatal("Q8_0/Q4_0 tile kernels not registered")
	}
	r := rand.New(rand.NewPCG(61, 62))
	p := NewPool(2)
	defer p.Close()
	for _, typ := range []Type{Q8_0, Q4_0} {
		for _, nb := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 63, 64, 65} {
			for _, shape := range [][2]int{{16, 1}, {24, 4}, {33, 5}, {48, 37}} {
				rows, n := shape[0], shape[1]
				w := randomMatrix(r, typ, rows, 32*nb)
				x := randomVec(r, n*32*nb)
				if nb%3 == 0 {
					// Extreme quants: every weight byte 0xff or 0x80, and
					// activations at the quantizer's limits.
					for i := range w.Data {
						w.Data[i] = 0xff
						if (i/7)%2 == 0 {
							w.Data[i] = 0x80
						}
					}
					fixScales(r, w)
					for i := range x {
						x[i] = float32(math.Copysign(1e3, float64(x[i])))
					}
				}
				want := make([]float32, n*rows)
				got := make([]float32, n*rows)
				matMul(genericKernels, p, NewWorkspace(), w, x, n, want)
				matMul(ks, p, NewWorkspace(), w, x, n, got)
				if d := firstDiff(want, got); d >= 0 {
					t.Fatalf("%v nb=%d rows=%d n=%d: element %d (row %d, position %d): %g (%#08x), generic %g (%#08x)",
						typ, nb, rows, n, d, d%rows, d/rows, got[d], math.Float32bits(got[d]), want[d], math.Float32bits(want[d]))
				}
				if rows%rowTile != 0 {
					continue
				}
				// The same tiles packed (pack.go): through MatMul and
				// each kernel directly, at every row and position.
				if !readsPacked(ks, w) {
					t.Fatalf("%v %dx%d: the tile kernels do not read the packed layout", typ, rows, w.Cols)
				}
				pw := packMatrix(w)
				clear(got)
				matMul(ks, p, NewWorkspace(), pw, x, n, got)
				if d := firstDiff(want, got); d >= 0 {
					t.Fatalf("packed %v nb=%d rows=%d n=%d: element %d (row %d, position %d): %g (%#08x), generic %g (%#08x)",
						typ, nb, rows, n, d, d%rows, d/rows, got[d], math.Float32bits(got[d]), want[d], math.Float32bits(want[d]))
				}
				checkTilesDirect(t, ks, pw, x, n, want)
			}
		}
	}
}

// TestQ0FallbackTile checks the row-kernel path the Q4_0 tiles take when
// the scale gather cannot address the rows (rows over 100 MB, too large to
// test directly).
func TestQ0FallbackTile(t *testing.T) {
	r := rand.New(rand.NewPCG(63, 64))
	const rows, pos, cols = 16, 4, 96
	w := randomMatrix(r, Q4_0, rows, cols)
	x := randomVec(r, pos*cols)
	ws := NewWorkspace()
	ws.bind()
	ws.act.prepare(genericKernels, nil, Q4_0, x, pos, cols, ws.convFn)
	rb := mustRowBytes(Q4_0, cols)
	out := make([]float32, rows*pos)
	fallbackTile(genericKernels.dot[Q4_0], w.Data, rb, &ws.act, 0, rows, pos, out)
	want := make([]float32, rows*pos)
	matMul(genericKernels, nil, NewWorkspace(), w, x, pos, want)
	for p := 0; p < pos; p++ {
		for k := 0; k < rows; k++ {
			if out[p*rows+k] != want[p*rows+k] {
				t.Fatalf("row %d position %d: %g, want %g", k, p, out[p*rows+k], want[p*rows+k])
			}
		}
	}
	if gatherable(1<<28, 16) || !gatherable(1<<20, 16) {
		t.Fatal("gatherable bounds wrong")
	}
}

// TestQ0TilesNonFinite feeds NaN and Inf activations through the tile
// kernels (TestKernelsNonFinite's matrices are too small for tiles): the
// outputs must be finite exactly where the generic ones are, and equal
// there.
func TestQ0TilesNonFinite(t *testing.T) {
	skipUnless(t, q0TilesGap())
	ks := avx512Kernels()
	r := rand.New(rand.NewPCG(65, 66))
	const rows, n, cols = 32, 5, 32 * 6
	for _, typ := range []Type{Q8_0, Q4_0} {
		w := randomMatrix(r, typ, rows, cols)
		x := randomVec(r, n*cols)
		x[3] = float32(math.NaN())
		x[cols+40] = float32(math.Inf(1))
		x[2*cols+100] = float32(math.Inf(-1))
		x[4*cols+cols-1] = float32(math.NaN())
		sameFinite(t, ks, w, x, n, fmt.Sprintf("%v", typ))
	}
}
