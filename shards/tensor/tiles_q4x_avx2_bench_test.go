//go:build amd64 && !purego && unix

package tensor

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"
)

// BenchmarkQ4xColdAVX2 times the AVX2 one-position Q4_0 x kernel on
// 5632×2048 products whose weights stream from DRAM (≥ 256 MB of packed
// copies, cycled) on a two-thread Pool, at several prefetch distances
// (q4xAVX2BenchPF), every iteration running each of them in turn so that
// all see the same machine. Per distance: GB/s of the best iteration (other
// work on a shared machine only ever slows one down) and GB per CPU-second
// (both threads).
//
//	go test -run x -bench Q4xColdAVX2 -benchtime 200x ./shards/tensor/
func BenchmarkQ4xColdAVX2(b *testing.B) {
	skipUnless(b, kernelGap("avx2"))
	const rows, cols = 5632, 2048
	const nb = cols / 32
	rb := nb * 18
	r := rand.New(rand.NewPCG(7, 7))
	w0, packed := coldQ4x(b, r, rows, cols)
	copies := len(packed)
	pool := NewPool(2)
	defer pool.Close()
	x := randomVec(r, cols)
	qs := make([]int8, cols)
	d := make([]float32, nb)
	bias := make([]int32, nb)
	out := make([]float32, rows)
	ks := avx2Kernels()
	wall := make([][]time.Duration, len(q4xAVX2BenchPF))
	cpu := make([]time.Duration, len(q4xAVX2BenchPF))
	for i := range wall {
		wall[i] = make([]time.Duration, b.N)
	}
	for i := 0; i < b.N; i++ {
		for jj := range q4xAVX2BenchPF {
			j := (jj + i) % len(q4xAVX2BenchPF)
			pf := q4xAVX2BenchPF[j]
			pk := packed[(i*len(q4xAVX2BenchPF)+jj)%copies]
			c0 := cpuTime()
			t0 := time.Now()
			ks.q8_0(x, qs, d)
			biasQ4_0x(bias, qs)
			pool.For(rows/16, func(lo, hi int) {
				q40xVecAVX2(&pk[16*lo*rb], nb, hi-lo, &qs[0], &d[0], &bias[0], &out[16*lo], pf)
			})
			wall[j][i] = time.Since(t0)
			cpu[j] += cpuTime() - c0
		}
	}
	for j, pf := range q4xAVX2BenchPF {
		tag := "pf" + strconv.Itoa(pf)
		b.ReportMetric(float64(len(w0))/slices.Min(wall[j]).Seconds()/1e9, tag+"-GB/s")
		b.ReportMetric(float64(len(w0))*float64(b.N)/cpu[j].Seconds()/1e9, tag+"-GB/cpu-s")
	}
}

// coldQ4x makes a random rows×cols Q4_0 matrix and enough x-layout copies
// of it (at least two, ≥ 256 MB) that cycling through them streams the
// weights from DRAM.
func coldQ4x(b *testing.B, r *rand.Rand, rows, cols int) (w0 []byte, packed [][]byte) {
	w0 = randomMatrix(r, Q4_0, rows, cols).Data
	packed = make([][]byte, max(2, (256<<20)/len(w0)))
	for i := range packed {
		packed[i] = make([]byte, len(w0))
		if err := packQ4_0x(packed[i], w0, rows, cols); err != nil {
			b.Fatal(err)
		}
	}
	return w0, packed
}

// q4xAVX2BenchPF are the prefetch distances BenchmarkQ4xColdAVX2 compares.
var q4xAVX2BenchPF = []int{0, 1152, 2304, 4608, 9216}

// BenchmarkQ4xColdAVX2x4 is BenchmarkQ4xColdAVX2 for four positions (the
// multi-position kernel, one pass over each tile).
//
//	go test -run x -bench Q4xColdAVX2x4 -benchtime 100x ./shards/tensor/
func BenchmarkQ4xColdAVX2x4(b *testing.B) {
	skipUnless(b, kernelGap("avx2"))
	const rows, cols = 5632, 2048
	const nb = cols / 32
	rb := nb * 18
	r := rand.New(rand.NewPCG(7, 7))
	w0, packed := coldQ4x(b, r, rows, cols)
	copies := len(packed)
	pool := NewPool(2)
	defer pool.Close()
	x := randomVec(r, 4*cols)
	qs := make([]int8, 4*cols)
	d := make([]float32, 4*nb)
	bias := make([]int32, 4*nb)
	ks := avx2Kernels()
	pfs := []int{0, 4608, 9216, 18432}
	wall := make([][]time.Duration, len(pfs))
	for i := range wall {
		wall[i] = make([]time.Duration, b.N)
	}
	for i := 0; i < b.N; i++ {
		for jj := range pfs {
			j := (jj + i) % len(pfs)
			pf := pfs[j]
			pk := packed[(i*len(pfs)+jj)%copies]
			t0 := time.Now()
			ks.q8_0(x, qs, d)
			for k := 0; k < 4; k++ {
				biasQ4_0x(bias[k*nb:(k+1)*nb], qs[k*cols:(k+1)*cols])
			}
			pool.For(rows/16, func(lo, hi int) {
				var tmp [64]float32
				for tile := lo; tile < hi; tile++ {
					q40xBatchAVX2(&pk[16*tile*rb], nb, &qs[0], cols, &d[0], &bias[0], nb, 4, &tmp[0], pf)
				}
			})
			wall[j][i] = time.Since(t0)
		}
	}
	for j, pf := range pfs {
		b.ReportMetric(float64(len(w0))/slices.Min(wall[j]).Seconds()/1e9, "pf"+strconv.Itoa(pf)+"-GB/s")
	}
}

// BenchmarkQ4xColdAVX2x8 is BenchmarkQ4xColdAVX2x4 for eight positions:
// the eight-position kernel (one pass over each tile) against the
// four-position kernel twice (two passes, the first prefetching), in
// turn every iteration. Per variant: GB/s of the best iteration.
//
//	go test -run x -bench Q4xColdAVX2x8 -benchtime 100x ./shards/tensor/
func BenchmarkQ4xColdAVX2x8(b *testing.B) {
	skipUnless(b, kernelGap("avx2"))
	const rows, cols = 5632, 2048
	const nb = cols / 32
	tb := 16 * nb * 18
	r := rand.New(rand.NewPCG(7, 7))
	w0, packed := coldQ4x(b, r, rows, cols)
	copies := len(packed)
	pool := NewPool(2)
	defer pool.Close()
	x := randomVec(r, 8*cols)
	qs := make([]int8, 8*cols)
	d := make([]float32, 8*nb)
	bias := make([]int32, 8*nb)
	avx2Kernels().q8_0(x, qs, d)
	for k := 0; k < 8; k++ {
		biasQ4_0x(bias[k*nb:(k+1)*nb], qs[k*cols:(k+1)*cols])
	}
	names := []string{"one-pass", "two-pass"}
	wall := make([][]time.Duration, len(names))
	for i := range wall {
		wall[i] = make([]time.Duration, b.N)
	}
	for i := 0; i < b.N; i++ {
		for jj := range names {
			j := (jj + i) % len(names)
			pk := packed[(i*len(names)+jj)%copies]
			t0 := time.Now()
			pool.For(rows/16, func(lo, hi int) {
				var tmp [128]float32
				for tile := lo; tile < hi; tile++ {
					w := &pk[tile*tb]
					if j == 0 {
						q40xBatch8AVX2(w, nb, &qs[0], cols, &d[0], &bias[0], nb, &tmp[0], q40xAVX2PF4)
						continue
					}
					q40xBatchAVX2(w, nb, &qs[0], cols, &d[0], &bias[0], nb, 4, &tmp[0], q40xAVX2PF4)
					q40xBatchAVX2(w, nb, &qs[4*cols], cols, &d[4*nb], &bias[4*nb], nb, 4, &tmp[64], 0)
				}
			})
			wall[j][i] = time.Since(t0)
		}
	}
	for j, name := range names {
		b.ReportMetric(float64(len(w0))/slices.Min(wall[j]).Seconds()/1e9, name+"-GB/s")
	}
}
