package tensor

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
)

// TestXLayout checks the x layouts through the package's functions: rows
// read back (gatherRow, Row) as in the row-major original, MatMul and
// MatMulMany give the bits of the row-major product for every kernel set
// (those without x kernels read gathered rows) at every position count
// around the kernels' position chunks, and Validate refuses an x flag on
// a type without the layout.
func TestXLayout(t *testing.T) {
	r := rand.New(rand.NewPCG(91, 92))
	p := NewPool(2)
	defer p.Close()
	for _, typ := range []Type{Q4_0, Q8_0} {
		for _, nb := range []int{1, 2, 3, 9, 64} {
			rows := 48
			w := randomMatrix(r, typ, rows, 32*nb)
			xw, err := packX(w)
			if err != nil {
				t.Fatal(err)
			}
			if err := xw.Validate(); err != nil {
				t.Fatalf("%v nb=%d: x-packed matrix does not validate: %v", typ, nb, err)
			}
			if !xw.Packed() || bytes.Equal(xw.Data, w.Data) {
				t.Fatalf("%v nb=%d: packing into the x layout did nothing", typ, nb)
			}
			rb := mustRowBytes(typ, w.Cols)
			buf := make([]byte, rb)
			want, got := make([]float32, w.Cols), make([]float32, w.Cols)
			for row := 0; row < rows; row++ {
				if !bytes.Equal(xw.gatherRow(row, buf), w.Data[row*rb:(row+1)*rb]) {
					t.Fatalf("%v nb=%d: row %d gathered from the x layout differs", typ, nb, row)
				}
				if err := Row(w, row, want); err != nil {
					t.Fatal(err)
				}
				if err := Row(xw, row, got); err != nil {
					t.Fatal(err)
				}
				if d := firstDiff(want, got); d >= 0 {
					t.Fatalf("%v nb=%d: Row(%d) of the x layout differs at %d", typ, nb, row, d)
				}
			}
			for _, ks := range kernelSets() {
				for _, n := range []int{1, 2, 3, 7, 8, 9, 10, 17, 33} {
					x := randomVec(r, n*w.Cols)
					want := make([]float32, n*rows)
					got := make([]float32, n*rows)
					matMul(genericKernels, p, NewWorkspace(), w, x, n, want)
					matMul(ks, p, NewWorkspace(), xw, x, n, got)
					if d := firstDiff(want, got); d >= 0 {
						t.Fatalf("%s %v nb=%d n=%d: x layout element %d (row %d, position %d) %g (%#08x), row-major %g (%#08x)",
							ks.name, typ, nb, n, d, d%rows, d/rows, got[d], math.Float32bits(got[d]), want[d], math.Float32bits(want[d]))
					}
				}
			}
		}
		// MatMulMany over x-packed and row-major matrices of one type.
		cols := 32 * 9
		ms := []Matrix{randomMatrix(r, typ, 64, cols), randomMatrix(r, typ, 37, cols), randomMatrix(r, typ, 32, cols)}
		x0, err := packX(ms[0])
		if err != nil {
			t.Fatal(err)
		}
		x2, err := packX(ms[2])
		if err != nil {
			t.Fatal(err)
		}
		mixed := []Matrix{x0, ms[1], x2}
		for _, ks := range kernelSets() {
			for _, n := range []int{1, 2, 9, 33} {
				x := randomVec(r, n*cols)
				outs, wants := make([][]float32, len(ms)), make([][]float32, len(ms))
				for k, m := range ms {
					outs[k], wants[k] = make([]float32, n*m.Rows), make([]float32, n*m.Rows)
				}
				matMulMany(ks, p, NewWorkspace(), mixed, x, n, outs)
				matMulMany(genericKernels, p, NewWorkspace(), ms, x, n, wants)
				for k := range ms {
					if d := firstDiff(wants[k], outs[k]); d >= 0 {
						t.Fatalf("%s %v n=%d matrix %d: element %d %g, row-major %g", ks.name, typ, n, k, d, outs[k][d], wants[k][d])
					}
				}
			}
		}
	}
	bad := randomMatrix(r, Q4_K, 16, 256)
	bad.group, bad.x = rowTile, true
	if bad.Validate() == nil {
		t.Error("a Q4_K matrix flagged as x-packed validates")
	}
	// Pack chooses the x layout exactly where the best set has x kernels.
	for _, typ := range []Type{Q4_0, Q8_0} {
		m := randomMatrix(r, typ, 32, 64)
		pm, err := Pack(m)
		if err != nil {
			t.Fatal(err)
		}
		if pm.x != (bestKernels.x[typ].fn != nil) {
			t.Errorf("%v: Pack gave x = %v with x kernels %v", typ, pm.x, bestKernels.x[typ].fn != nil)
		}
	}
}
