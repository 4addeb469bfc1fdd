//go:build arm64 && !purego

package tensor

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestNEONDots calls the NEON and SDOT kernels directly on every block
// count from 1 to 40 (and 64) and checks their bits against the canonical
// Go dot products, so a wrong lane order or scale shows even where MatMul
// would pick another kernel. The SDOT ones skip, with the reason, on a CPU
// without the dot-product extension.
func TestNEONDots(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	type kernel struct {
		name  string
		typ   Type
		bytes int
		fn    func(w *byte, y *int8, d *float32, nb int) float32
		ref   func(w []byte, qs []int8, d []float32) float32
		sdot  bool
	}
	kernels := []kernel{
		{"dotQ8_0NEON", Q8_0, 34, dotQ8_0NEON, dotQ8_0, false},
		{"dotQ8_0SDOT", Q8_0, 34, dotQ8_0SDOT, dotQ8_0, true},
		{"dotQ4_0NEON", Q4_0, 18, dotQ4_0NEON, dotQ4_0, false},
		{"dotQ4_0SDOT", Q4_0, 18, dotQ4_0SDOT, dotQ4_0, true},
	}
	for _, k := range kernels {
		t.Run(k.name, func(t *testing.T) {
			if k.sdot && !CanRunKernels("neondot") {
				t.Skip(KernelGap("neondot"))
			}
			for nb := 1; nb <= 64; nb++ {
				if nb > 40 && nb != 64 {
					continue
				}
				cols := 32 * nb
				w := randomMatrix(r, k.typ, 1, cols)
				if nb%5 == 0 { // extreme quants: every bit set
					for b := 0; b < nb; b++ {
						for j := 2; j < k.bytes; j++ {
							w.Data[b*k.bytes+j] = 0xff
						}
					}
				}
				x := randomVec(r, cols)
				if nb%7 == 0 { // a zero block and a huge one
					clear(x[:32])
					for j := 32 * (nb - 1); j < cols; j++ {
						x[j] *= 1e30
					}
				}
				qs, d := make([]int8, cols), make([]float32, nb)
				quantQ8_0(x, qs, d)
				got := k.fn(&w.Data[0], &qs[0], &d[0], nb)
				want := k.ref(w.Data, qs, d)
				if math.Float32bits(got) != math.Float32bits(want) {
					t.Fatalf("%d blocks: %v (%#x), want %v (%#x)", nb, got, math.Float32bits(got), want, math.Float32bits(want))
				}
			}
		})
	}
}
