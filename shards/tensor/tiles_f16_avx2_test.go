//go:build amd64 && !purego

package tensor

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestF16TileAVX2Direct calls the F16 tile kernels directly for every
// position count f16TileAVX2 takes (1-6, of which MatMul uses 2-6), odd
// and even chunk counts, K blocks that are whole and partial, and each
// prefetch range, and the one-position kernel for one to eight row pairs;
// every output must have dotF16's bits (before its tail).
func TestF16TileAVX2Direct(t *testing.T) {
	skipUnless(t, kernelGap("avx2"))
	r := rand.New(rand.NewPCG(87, 88))
	for _, chunks := range []int{1, 2, 3, 15, 16, 17, 33, 64} {
		cols := 32 * chunks
		w := randomMatrix(r, F16, 16, cols)
		xs := randomVec(r, 6*cols)
		h := make([]uint16, len(xs))
		hf := make([]float32, len(xs))
		toF16(xs, h)
		for j, v := range h {
			hf[j] = f16Lookup[v]
		}
		rb := 2 * cols
		want := func(r, q int) float32 { return dotF16(w.Data[r*rb:(r+1)*rb], h[q*cols:(q+1)*cols]) }
		var acc [16 * 6 * 32]float32
		for p := 1; p <= 6; p++ {
			for _, pf := range [][2]int{{0, 0}, {0, 8}, {3, 5}} {
				const os = 17
				out := make([]float32, os*p)
				f16TileAVX2(&w.Data[0], rb, &hf[0], 4*cols, chunks, 8, p, &acc[0], rb, pf[0], pf[1], &out[0], os)
				for q := 0; q < p; q++ {
					for r := 0; r < 16; r++ {
						if g, e := out[q*os+r], want(r, q); math.Float32bits(g) != math.Float32bits(e) {
							t.Fatalf("tile cols=%d p=%d prefetch %v: row %d position %d: %g, dotF16 %g", cols, p, pf, r, q, g, e)
						}
					}
				}
			}
		}
		for pairs := 1; pairs <= 8; pairs++ {
			out := make([]float32, 2*pairs)
			f16VecAVX2(&w.Data[0], rb, pairs, &hf[0], cols, 2*rb, &out[0])
			for r := range out {
				if g, e := out[r], want(r, 0); math.Float32bits(g) != math.Float32bits(e) {
					t.Fatalf("vec cols=%d pairs=%d: row %d: %g, dotF16 %g", cols, pairs, r, g, e)
				}
			}
		}
	}
}
