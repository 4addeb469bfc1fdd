package tensor

import (
	"math/rand/v2"
	"testing"
)

// TestMatMulDoesNotAllocate checks that once a workspace and a pool are
// warm, MatMul allocates nothing, for every weight type and kernel set, for
// one position (a decode step) and for a few (the four- and eight-position
// kernels), on products large enough to be split over the pool's workers,
// in row-major order and in the layout Pack gives the best set.
func TestMatMulDoesNotAllocate(t *testing.T) {
	p := NewPool(2)
	defer p.Close()
	r := rand.New(rand.NewPCG(7, 8))
	for _, ks := range kernelSets() {
		if avx512Simulated && ks.name == "avx512" {
			continue // the interpreter allocates per call
		}
		for _, typ := range allTypes {
			cols := colsFor(typ)
			w := randomMatrix(r, typ, 1024, cols)
			rb, _ := RowBytes(typ, cols)
			if rb*w.Rows < serialBytes {
				t.Fatalf("%v: %d-byte matrix is too small to use the pool", typ, rb*w.Rows)
			}
			for _, n := range []int{1, 5, 8} {
				noAllocs(t, ks, p, w, n, r)
			}
		}
	}
	// The layouts Pack chooses for the best set (x tiles, row groups) run
	// their own kernels (xTile.run for one position).
	if avx512Simulated && bestKernels.name == "avx512" {
		return
	}
	for _, typ := range allTypes {
		w, err := Pack(randomMatrix(r, typ, 1024, colsFor(typ)))
		if err != nil {
			t.Fatal(err)
		}
		if !w.Packed() {
			continue
		}
		for _, n := range []int{1, 5, 8} {
			noAllocs(t, bestKernels, p, w, n, r)
		}
	}
}

// noAllocs fails t if a warm matMul of w by n random positions with ks
// allocates.
func noAllocs(t *testing.T, ks *kernelSet, p *Pool, w Matrix, n int, r *rand.Rand) {
	t.Helper()
	x := randomVec(r, n*w.Cols)
	out := make([]float32, n*w.Rows)
	ws := NewWorkspace()
	if got := testing.AllocsPerRun(20, func() { matMul(ks, p, ws, w, x, n, out) }); got != 0 {
		t.Errorf("%s %v (packed %v) n=%d: %v allocations per MatMul, want 0", ks.name, w.Type, w.Packed(), n, got)
	}
}

// TestPoolForDoesNotAllocate checks that For reuses its jobs: handing it a
// function value that already exists costs no allocation.
func TestPoolForDoesNotAllocate(t *testing.T) {
	p := NewPool(2)
	defer p.Close()
	hits := make([]int, 64)
	fn := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			hits[i]++
		}
	}
	const runs = 100
	if got := testing.AllocsPerRun(runs, func() { p.For(len(hits), fn) }); got != 0 {
		t.Errorf("%v allocations per For, want 0", got)
	}
	for i, h := range hits {
		if h != runs+1 { // AllocsPerRun makes one extra warm-up call
			t.Fatalf("index %d covered %d times, want %d", i, h, runs+1)
		}
	}
}
