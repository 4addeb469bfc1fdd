//go:build arm64 && !purego

package tensor

import (
	"math/rand/v2"
	"testing"
)

// TestF16TileNEON calls the F16 tile directly on shapes MatMul does not
// use (1-3 rows, 1 position, rows and positions spaced wider than their
// data) besides its own (16 rows, up to 32 positions), each result
// against dotF16.
func TestF16TileNEON(t *testing.T) {
	r := rand.New(rand.NewPCG(65, 66))
	for _, cols := range []int{32, 96, 1024} {
		rs, xs := 2*cols+10, cols+3
		w := make([]byte, 16*rs)
		copy(w, randomMatrix(r, F16, 1, len(w)/2).Data)
		h := make([]uint16, 32*xs)
		toF16(randomVec(r, len(h)), h)
		hf := make([]float32, len(h))
		for j, v := range h {
			hf[j] = f16Lookup[v]
		}
		for _, rows := range []int{1, 2, 3, 16} {
			for _, pos := range []int{1, 2, 3, 4, 5, 7, 32} {
				const os = 21
				out := make([]float32, pos*os)
				f16TileNEON(&w[0], rs, rows, &hf[0], 4*xs, pos, cols, &out[0], os)
				for p := range pos {
					for k := range os {
						got := out[p*os+k]
						if k >= rows {
							if got != 0 {
								t.Fatalf("cols=%d rows=%d pos=%d: wrote out[%d] past the rows", cols, rows, pos, p*os+k)
							}
							continue
						}
						if want := dotF16(w[k*rs:], h[p*xs:p*xs+cols]); !sameBits(got, want) {
							t.Fatalf("cols=%d rows=%d pos=%d: row %d position %d: %g, generic %g", cols, rows, pos, k, p, got, want)
						}
					}
				}
			}
		}
	}
}
