//go:build amd64 && !purego

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
	benchPrefill(b, Q8_0, []prefillVariant{{"", avx2Kernels()}}, false)
}

// prefillVariant is one kernel set benchPrefill times, under a sub-benchmark
// name ("" for none).
type prefillVariant struct {
	name string
	ks   *kernelSet
}

// benchPrefill times 128-position products of typ with TinyLlama's shapes
// (2048×2048 and 2048×5632) on one worker, for each variant on the same
// data, and reports GFLOP per CPU-second (gflop) or weight GB per
// CPU-second.
func benchPrefill(b *testing.B, typ Type, variants []prefillVariant, gflop bool) {
	const n = 128
	p := NewPool(1)
	defer p.Close()
	r := rand.New(rand.NewPCG(1, 1))
	for _, sh := range [][2]int{{2048, 2048}, {2048, 5632}} {
		w := randomMatrix(r, typ, sh[0], sh[1])
		x := randomVec(r, n*sh[1])
		out := make([]float32, n*sh[0])
		ws := NewWorkspace()
		for _, v := range variants {
			name := fmt.Sprintf("%dx%d", sh[0], sh[1])
			if v.name != "" {
				name += "/" + v.name
			}
			b.Run(name, func(b *testing.B) {
				matMul(v.ks, p, ws, w, x, n, out)
				b.ResetTimer()
				c0 := cpuTime()
				for i := 0; i < b.N; i++ {
					matMul(v.ks, p, ws, w, x, n, out)
				}
				sec := (cpuTime() - c0).Seconds()
				if gflop {
					b.ReportMetric(float64(b.N)*float64(2*n*sh[0]*sh[1])/sec/1e9, "GFLOP/cpu-s")
				} else {
					b.ReportMetric(float64(b.N)*float64(len(w.Data))/sec/1e9, "GB/cpu-s")
				}
			})
		}
	}
}
