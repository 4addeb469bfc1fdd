package tensor

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
)

// TestPackLayout checks the packed layout itself: every row reads back
// (gatherRow, Row) as in the row-major original, Pack leaves what it
// cannot pack alone, and Validate rejects packed shapes that cannot exist.
func TestPackLayout(t *testing.T) {
	r := rand.New(rand.NewPCG(81, 82))
	for _, typ := range []Type{Q8_0, Q4_0, Q5_1, Q4_K, Q6_K} {
		w := randomMatrix(r, typ, 48, colsFor(typ))
		pw := packMatrix(w)
		if err := pw.Validate(); err != nil {
			t.Fatalf("%v: packed matrix does not validate: %v", typ, err)
		}
		if !pw.Packed() || w.Packed() {
			t.Fatalf("%v: Packed() = %v for the copy, %v for the original", typ, pw.Packed(), w.Packed())
		}
		if bytes.Equal(pw.Data, w.Data) {
			t.Fatalf("%v: packing did not move any byte", typ)
		}
		rb := mustRowBytes(typ, w.Cols)
		buf := make([]byte, rb)
		want, got := make([]float32, w.Cols), make([]float32, w.Cols)
		for row := 0; row < w.Rows; row++ {
			if !bytes.Equal(pw.gatherRow(row, buf), w.Data[row*rb:(row+1)*rb]) {
				t.Fatalf("%v: row %d gathered from the packed copy differs", typ, row)
			}
			if err := Row(w, row, want); err != nil {
				t.Fatal(err)
			}
			if err := Row(pw, row, got); err != nil {
				t.Fatal(err)
			}
			if d := firstDiff(want, got); d >= 0 {
				t.Fatalf("%v: Row(%d) of the packed copy differs at %d: %g, want %g", typ, row, d, got[d], want[d])
			}
		}
		bad := pw
		bad.Rows = 44
		if bad.Validate() == nil {
			t.Errorf("%v: a packed matrix of 44 rows validates", typ)
		}
		again, err := Pack(pw)
		if err != nil || &again.Data[0] != &pw.Data[0] {
			t.Errorf("%v: packing a packed matrix gave a new copy (err %v)", typ, err)
		}
	}
	// Shapes Pack must leave row-major: rows not a whole number of tiles
	// or groups, float types, types this CPU's kernels do not read packed.
	for _, m := range []Matrix{randomMatrix(r, Q4_0, 37, 64), randomMatrix(r, Q4_K, 36, 256), randomMatrix(r, F16, 32, 64), randomMatrix(r, F32, 16, 64)} {
		p, err := Pack(m)
		if err != nil {
			t.Fatal(err)
		}
		if p.Packed() || &p.Data[0] != &m.Data[0] {
			t.Errorf("%v %dx%d was packed", m.Type, m.Rows, m.Cols)
		}
	}
	for _, typ := range allTypes {
		m := randomMatrix(r, typ, 32, colsFor(typ))
		p, err := Pack(m)
		if err != nil {
			t.Fatal(err)
		}
		want := xPackable(bestKernels, m) || groupOf(bestKernels, m) > 0
		if p.Packed() != want {
			t.Errorf("%v: Packed() = %v, but the best set's x kernels and groups say %v", typ, p.Packed(), want)
		}
		if g := groupOf(bestKernels, m); g > 0 && (p.group != g || p.x) {
			t.Errorf("%v: packed in groups of %d (x %v), want block-interleaved groups of %d", typ, p.group, p.x, g)
		}
	}
	if _, err := Pack(Matrix{Type: Q8_0, Rows: 16, Cols: 64, Data: make([]byte, 10)}); err == nil {
		t.Error("Pack of a matrix with too little data gave no error")
	}
}

// TestPackedMatMul checks that MatMul and MatMulMany give the same bits on
// a packed matrix as on its row-major original, for every kernel set (the
// sets without kernels for the layout or the group size read it through
// gathered rows), for groups of 8 and 16 rows, for
// single positions and batches that leave positions to the one-position
// kernels, and for block counts around the kernels' unrolling.
func TestPackedMatMul(t *testing.T) {
	r := rand.New(rand.NewPCG(83, 84))
	p := NewPool(2)
	defer p.Close()
	ns := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 33}
	for _, ks := range kernelSets() {
		for _, typ := range []Type{Q8_0, Q4_0, Q4_K, Q6_K} {
			nbs := []int{1, 2, 3, 4, 5, 7, 9, 64}
			if typ.BlockSize() == qkK {
				nbs = []int{1, 3}
			}
			for _, nb := range nbs {
				rows := 48
				if nb == 64 {
					rows = 32
				}
				w := randomMatrix(r, typ, rows, typ.BlockSize()*nb)
				// The groups Pack would choose, and the other size (whose
				// tiles some kernels cannot use: rows fall back).
				for _, g := range []int{packMatrix(w).group, 8, 16} {
					pw := packGroups(w, g)
					for _, n := range ns {
						x := randomVec(r, n*w.Cols)
						want := make([]float32, n*rows)
						got := make([]float32, n*rows)
						matMul(genericKernels, p, NewWorkspace(), w, x, n, want)
						matMul(ks, p, NewWorkspace(), pw, x, n, got)
						if d := firstDiff(want, got); d >= 0 {
							t.Fatalf("%s %v nb=%d groups of %d, n=%d: packed element %d (row %d, position %d) %g (%#08x), row-major generic %g (%#08x)",
								ks.name, typ, nb, g, n, d, d%rows, d/rows, got[d], math.Float32bits(got[d]), want[d], math.Float32bits(want[d]))
						}
					}
				}
			}
		}
	}
	// MatMulMany over a mix of packed and row-major matrices (37 rows: not
	// packable) of one type, as a block's q, k and v.
	for _, ks := range kernelSets() {
		for _, typ := range []Type{Q8_0, Q4_0} {
			cols := 32 * 9
			ms := []Matrix{randomMatrix(r, typ, 64, cols), randomMatrix(r, typ, 37, cols), randomMatrix(r, typ, 32, cols)}
			packed := []Matrix{packMatrix(ms[0]), ms[1], packMatrix(ms[2])}
			for _, n := range []int{1, 2, 9, 33} {
				x := randomVec(r, n*cols)
				outs, wants := make([][]float32, len(ms)), make([][]float32, len(ms))
				for k, m := range ms {
					outs[k], wants[k] = make([]float32, n*m.Rows), make([]float32, n*m.Rows)
				}
				matMulMany(ks, p, NewWorkspace(), packed, x, n, outs)
				matMulMany(ks, p, NewWorkspace(), ms, x, n, wants)
				for k := range ms {
					if d := firstDiff(wants[k], outs[k]); d >= 0 {
						t.Fatalf("%s %v n=%d matrix %d: packed element %d %g, row-major %g", ks.name, typ, n, k, d, outs[k][d], wants[k][d])
					}
				}
			}
		}
	}
}
