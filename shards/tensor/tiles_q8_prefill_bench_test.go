//go:build amd64 && !purego && unix

package tensor

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkQ8Prefill times a 128-position Q8_0 product of TinyLlama's
// shapes (2048 and 5632 columns) on one worker with the AVX2 set, in
// weight bytes per CPU-second, which a shared machine disturbs less than
// the wall clock.
//
//	go test -run '^$' -bench Q8Prefill -count 5 ./shards/tensor/
func BenchmarkQ8Prefill(b *testing.B) {
	skipUnless(b, kernelGap("avx2"))
	p := NewPool(1)
	defer p.Close()
	r := rand.New(rand.NewPCG(1, 1))
	for _, sh := range [][2]int{{2048, 2048}, {2048, 5632}} {
		w := randomMatrix(r, Q8_0, sh[0], sh[1])
		x := randomVec(r, 128*sh[1])
		out := make([]float32, 128*sh[0])
		ws := NewWorkspace()
		ks := avx2Kernels()
		b.Run(fmt.Sprintf("%dx%d", sh[0], sh[1]), func(b *testing.B) {
			matMul(ks, p, ws, w, x, 128, out)
			b.ResetTimer()
			c0 := cpuTime()
			for i := 0; i < b.N; i++ {
				matMul(ks, p, ws, w, x, 128, out)
			}
			cpu := cpuTime() - c0
			b.ReportMetric(float64(b.N)*float64(len(w.Data))/cpu.Seconds()/1e9, "GB/cpu-s")
		})
	}
}
