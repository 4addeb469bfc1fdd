//go:build amd64 && !purego

package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestKTilesMatchGeneric checks the Q4_K/Q6_K tile kernels bit for bit
// against the pure-Go kernels for the shapes TestKernelsMatchGeneric does
// not reach: one to three positions (where MatMul uses the one-position
// tiles), batches that leave every kind of remainder, row counts that are
// and are not multiples of the tiles, and each tile kernel called directly
// for every position of a batch.
func TestKTilesMatchGeneric(t *testing.T) {
	skipUnless(t, kTilesGap())
	ks := avx512Kernels()
	r := rand.New(rand.NewPCG(51, 52))
	p := NewPool(2)
	defer p.Close()
	for _, typ := range []Type{Q4_K, Q6_K} {
		if ks.vec[typ].fn == nil && ks.batch[typ].fn == nil {
			t.Fatalf("%v: no tile kernel registered", typ)
		}
		for _, shape := range [][2]int{{8, 256}, {37, 768}, {48, 2048}, {16, 512}} {
			rows, cols := shape[0], shape[1]
			for _, n := range []int{1, 2, 3, 4, 5, 8, 9, 13, 33} {
				for variant := 0; variant < 4; variant++ {
					w := randomMatrix(r, typ, rows, cols)
					x := randomVec(r, n*cols)
					tileVariant(r, w, x, variant)
					want := make([]float32, n*rows)
					got := make([]float32, n*rows)
					matMul(genericKernels, p, NewWorkspace(), w, x, n, want)
					matMul(ks, p, NewWorkspace(), w, x, n, got)
					if d := firstDiff(want, got); d >= 0 {
						t.Fatalf("%v %dx%d n=%d variant %d: element %d (position %d, row %d): %g (%#08x), generic %g (%#08x)",
							typ, rows, cols, n, variant, d, d/rows, d%rows,
							got[d], math.Float32bits(got[d]), want[d], math.Float32bits(want[d]))
					}
					checkTilesDirect(t, ks, w, x, n, want)
					if rows%rowTile != 0 || variant%2 == 1 {
						continue
					}
					// Whole tiles packed (pack.go), through MatMul and the
					// kernels directly.
					if !readsPacked(ks, w) {
						t.Fatalf("%v %dx%d: the tile kernels do not read the packed layout", typ, rows, cols)
					}
					pw := packMatrix(w)
					clear(got)
					matMul(ks, p, NewWorkspace(), pw, x, n, got)
					if d := firstDiff(want, got); d >= 0 {
						t.Fatalf("packed %v %dx%d n=%d variant %d: element %d (position %d, row %d): %g, generic %g",
							typ, rows, cols, n, variant, d, d/rows, d%rows, got[d], want[d])
					}
					checkTilesDirect(t, ks, pw, x, n, want)
				}
			}
		}
	}
}

// checkTilesDirect calls each tile kernel of w's type for every row tile
// and every position it fits, and compares with want (generic MatMul).
func checkTilesDirect(t *testing.T, ks *kernelSet, w Matrix, x []float32, n int, want []float32) {
	t.Helper()
	ws := NewWorkspace()
	ws.bind()
	a := &ws.act
	a.prepare(ks, nil, w.Type, x, n, w.Cols, ws.convFn)
	tk := mmTask{w: w, rb: mustRowBytes(w.Type, w.Cols), bb: w.Type.BlockBytes()}
	for _, spec := range []tileSpec{ks.vec[w.Type], ks.batch[w.Type]} {
		buf := make([]float32, max(maxTile, spec.rows*spec.pos))
		if spec.fn == nil || (w.group > 0 && (!spec.strided || w.group%spec.rows != 0)) {
			continue
		}
		for r := 0; r+spec.rows <= w.Rows; r += spec.rows {
			for i := 0; i+spec.pos <= n; i++ {
				clear(buf)
				off, l := tk.layout(r, spec.rows)
				spec.fn(w.Data[off:], l, a, i, buf[:spec.rows*spec.pos])
				for p := 0; p < spec.pos; p++ {
					for k := 0; k < spec.rows; k++ {
						g, e := buf[p*spec.rows+k], want[(i+p)*w.Rows+r+k]
						if math.Float32bits(g) != math.Float32bits(e) {
							t.Fatalf("%v %dx%d tile %dx%d at row %d position %d: element (%d,%d) %g, generic %g",
								w.Type, w.Rows, w.Cols, spec.rows, spec.pos, r, i, k, p, g, e)
						}
					}
				}
			}
		}
	}
}

// TestKTilesNonFinite feeds NaN and Inf activations through the Q4_K/Q6_K
// tile kernels (one position and batches): no panic, and the same outputs
// as the generic kernels where those are finite, non-finite where not.
func TestKTilesNonFinite(t *testing.T) {
	skipUnless(t, kTilesGap())
	ks := avx512Kernels()
	r := rand.New(rand.NewPCG(53, 54))
	for _, typ := range []Type{Q4_K, Q6_K} {
		const rows, cols = 16, 512
		for _, n := range []int{1, 9} {
			w := randomMatrix(r, typ, rows, cols)
			x := randomVec(r, n*cols)
			x[3] = float32(math.NaN())
			x[(n-1)*cols+7] = float32(math.Inf(1))
			x[(n-1)*cols+300] = float32(math.Inf(-1))
			sameFinite(t, ks, w, x, n, fmt.Sprintf("%v n=%d", typ, n))
		}
	}
}

// tileVariant turns random weights w and activations x into one of the
// tile tests' four cases: 0 as they are, 1 extreme quants and scales, 2
// zero and tiny activations, 3 random scale fields and large activations.
func tileVariant(r *rand.Rand, w Matrix, x []float32, variant int) {
	switch variant {
	case 1:
		rb := mustRowBytes(w.Type, w.Cols)
		for row := 0; row < w.Rows; row++ {
			fill := byte(0xff)
			if row%2 == 1 {
				fill = 0x80
			}
			for j := 0; j < rb; j++ {
				w.Data[row*rb+j] = fill
			}
		}
		fixScales(r, w)
	case 2:
		for j := range x {
			switch (j / 32) % 3 {
			case 0:
				x[j] = 0
			case 1:
				x[j] *= 1e-30
			}
		}
	case 3:
		fixScales(r, w)
		for j := range x {
			x[j] *= 1e4
		}
	}
}
