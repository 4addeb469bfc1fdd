//go:build amd64 && !purego

package tensor

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkF16AVX2 runs F16 products of TinyLlama's shapes on one thread
// with the AVX2 set: prefill batches (n=32, 128) and one position (n=1),
// reporting GFLOP per CPU-second (and weight GB per CPU-second), which a
// shared machine disturbs less than the wall clock.
//
//	go test -run x -bench F16AVX2 ./shards/tensor/
func BenchmarkF16AVX2(b *testing.B) {
	skipUnless(b, kernelGap("avx2"))
	ks := avx2Kernels()
	p := NewPool(1)
	defer p.Close()
	r := rand.New(rand.NewPCG(81, 82))
	for _, sh := range [][2]int{{2048, 2048}, {2048, 5632}} {
		w := randomMatrix(r, F16, sh[0], sh[1])
		for _, n := range []int{1, 32, 128} {
			x := randomVec(r, n*sh[1])
			out := make([]float32, n*sh[0])
			ws := NewWorkspace()
			b.Run(fmt.Sprintf("%dx%d/n=%d", sh[0], sh[1], n), func(b *testing.B) {
				matMul(ks, p, ws, w, x, n, out)
				b.ResetTimer()
				c0 := cpuTime()
				for i := 0; i < b.N; i++ {
					matMul(ks, p, ws, w, x, n, out)
				}
				cpu := (cpuTime() - c0).Seconds()
				if cpu > 0 {
					b.ReportMetric(2*float64(b.N)*float64(n)*float64(sh[0])*float64(sh[1])/cpu/1e9, "GFLOP/cpu-s")
					b.ReportMetric(float64(b.N)*float64(len(w.Data))/cpu/1e9, "GB/cpu-s")
				}
			})
		}
	}
}

// BenchmarkF16TileHot calls the 16-row tile directly on weights and
// activations that stay in L2: the kernel's compute ceiling, per number
// of positions (about 105 GFLOP/s is two 8-lane FMAs a cycle at 3.3 GHz).
func BenchmarkF16TileHot(b *testing.B) {
	skipUnless(b, kernelGap("avx2"))
	r := rand.New(rand.NewPCG(83, 84))
	for _, cols := range []int{512, 2048, 5632} {
		w := randomMatrix(r, F16, 16, cols)
		x := randomVec(r, 6*cols)
		for j := range x {
			x[j] = f16Lookup[FP32ToFP16(x[j])]
		}
		var acc [16 * 6 * 32]float32
		out := make([]float32, 6*16)
		for _, np := range []int{6, 5, 4, 2} {
			b.Run(fmt.Sprintf("cols=%d/p=%d", cols, np), func(b *testing.B) {
				c0 := cpuTime()
				for i := 0; i < b.N; i++ {
					f16TileAVX2(&w.Data[0], 2*cols, &x[0], 4*cols, cols/32, 8, np, &acc[0], 0, 0, 0, &out[0], 16)
				}
				cpu := (cpuTime() - c0).Seconds()
				b.ReportMetric(2*float64(b.N)*float64(np)*16*float64(cols)/cpu/1e9, "GFLOP/cpu-s")
			})
		}
	}
}

// BenchmarkF16Decode runs the one-position products of three TinyLlama
// blocks (about 260 MB of F16 weights, streamed from DRAM) on two
// threads, as a decode step does, and reports the weight bytes per second.
//
//	go test -run x -bench F16Decode ./shards/tensor/
func BenchmarkF16Decode(b *testing.B) {
	skipUnless(b, kernelGap("avx2"))
	r := rand.New(rand.NewPCG(85, 86))
	ms, bytes := decodeSet(r, F16, 3)
	x := randomVec(r, 5632)
	out := make([]float32, 5632)
	ks := avx2Kernels()
	p := NewPool(2)
	defer p.Close()
	ws := NewWorkspace()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, m := range ms {
			matMul(ks, p, ws, m, x, 1, out)
		}
	}
	b.ReportMetric(float64(b.N)*float64(bytes)/b.Elapsed().Seconds()/1e9, "GB/s")
}
