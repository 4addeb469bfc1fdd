//go:build amd64 && !purego

package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// kAVX2Types are the types with AVX2 tile kernels in tiles_k_avx2_amd64.s
// and tiles_f16_avx2_amd64.s.
var kAVX2Types = []Type{Q4_K, Q5_K, Q6_K, F16}

// TestKAVX2TilesMatchGeneric checks the AVX2 k-quant tile kernels bit for
// bit against the pure-Go kernels: through MatMul for batches that leave
// every kind of remainder and row counts that are and are not multiples of
// the tiles, on odd block counts, extreme quants and scales, zero, tiny and
// large activations; and each tile kernel called directly for every row
// tile and position.
func TestKAVX2TilesMatchGeneric(t *testing.T) {
	skipUnless(t, kernelGap("avx2"))
	ks := avx2Kernels()
	r := rand.New(rand.NewPCG(71, 72))
	for _, typ := range kAVX2Types {
		if ks.vec[typ].fn == nil {
			t.Fatalf("%v: no one-position tile kernel registered", typ)
		}
		for _, shape := range [][2]int{{4, 256}, {7, 768}, {37, 1280}, {16, 512}} {
			rows, cols := shape[0], shape[1]
			if typ.BlockSize() == 1 {
				cols += 17 // a tail past the last 32 columns
			}
			for _, n := range []int{1, 2, 3, 5, 8, 9, 38} {
				for variant := 0; variant < 4; variant++ {
					w := randomMatrix(r, typ, rows, cols)
					x := randomVec(r, n*cols)
					tileVariant(r, w, x, variant)
					want := make([]float32, n*rows)
					got := make([]float32, n*rows)
					matMul(genericKernels, nil, NewWorkspace(), w, x, n, want)
					matMul(ks, nil, NewWorkspace(), w, x, n, got)
					if d := firstDiff(want, got); d >= 0 {
						t.Fatalf("%v %dx%d n=%d variant %d: element %d (position %d, row %d): %g (%#08x), generic %g (%#08x)",
							typ, rows, cols, n, variant, d, d/rows, d%rows,
							got[d], math.Float32bits(got[d]), want[d], math.Float32bits(want[d]))
					}
					checkTilesDirect(t, ks, w, x, n, want)
				}
			}
		}
	}
}

// TestKAVX2TilesNonFinite feeds NaN and Inf activations through the AVX2
// k-quant tiles: no panic, the generic kernels' outputs where those are
// finite, non-finite where not.
func TestKAVX2TilesNonFinite(t *testing.T) {
	skipUnless(t, kernelGap("avx2"))
	ks := avx2Kernels()
	r := rand.New(rand.NewPCG(73, 74))
	for _, typ := range kAVX2Types {
		const rows = 12
		cols := 512
		if typ.BlockSize() == 1 {
			cols += 5
		}
		for _, n := range []int{1, 5, 8} {
			w := randomMatrix(r, typ, rows, cols)
			x := randomVec(r, n*cols)
			x[3] = float32(math.NaN())
			x[(n-1)*cols+7] = float32(math.Inf(1))
			x[(n-1)*cols+300] = float32(math.Inf(-1))
			sameFinite(t, ks, w, x, n, fmt.Sprintf("%v n=%d", typ, n))
		}
	}
}
