//go:build amd64 && !purego

package tensor

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestBF16AVX2Fallback checks the mechanism that keeps the AVX2 kernels
// exact: on ordinary data they report no subnormal operand (so their own
// sums are used), and each way a subnormal can enter llama.cpp's BF16
// order — an input, a product, an accumulated sum, a lane's final sum —
// is reported, in both orders.
func TestBF16AVX2Fallback(t *testing.T) {
	skipUnless(t, kernelGap("avx2"))
	const n = 128
	for _, c := range bf16FlagCases {
		w, x := c.data(n)
		var steps [16][2]float32
		step := bf16StepRowsAVX2(&w[0], 0, &x[0], n, 2, 0, &steps) != 0
		var many [4]float32
		batch := bf16ManyAVX2(&w[0], 0, 2, &x[0], 2*n, 2, n, 0, &many[0], 2) != 0
		if step != c.flagged || batch != c.flagged {
			t.Errorf("%s: flagged %v (one position), %v (several), want %v", c.name, step, batch, c.flagged)
		}
		if !c.flagged {
			if got, want := finishBF16Sums(steps[0], w, x[:n], n), dotBF16Step(w, x[:n]); !sameBits(got, want) {
				t.Errorf("%s: one position %g, generic %g", c.name, got, want)
			}
			if want := dotBF16Batch(w, x[:n]); !sameBits(many[3], want) {
				t.Errorf("%s: several positions %g, generic %g", c.name, many[3], want)
			}
		}
	}
}

// BenchmarkBF16AVX2Tile runs the several-position kernel on one tile's
// worth of cached data (2 or 16 rows × 2048 columns, 32 positions) and
// reports GFLOP per CPU-second (two per multiply-add), for comparing
// versions of the kernel on a busy machine.
func BenchmarkBF16AVX2Tile(b *testing.B) {
	skipUnless(b, kernelGap("avx2"))
	for _, rows := range []int{2, 16} {
		const cols, k = 2048, 32
		r := rand.New(rand.NewPCG(1, 2))
		w := randomMatrix(r, BF16, rows, cols)
		x := make([]uint16, k*cols)
		for i := range x {
			x[i] = FP32ToBF16(float32(r.NormFloat64()))
		}
		out := make([]float32, rows*k)
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			c0 := cpuTime()
			for i := 0; i < b.N; i++ {
				bf16ManyAVX2(&w.Data[0], 2*cols, rows, &x[0], 2*cols, k, cols, 0, &out[0], rows)
			}
			if cpu := cpuTime() - c0; cpu > 0 {
				b.ReportMetric(float64(b.N*2*rows*k*cols)/cpu.Seconds()/1e9, "GFLOP/cpu-s")
			}
		})
	}
}
