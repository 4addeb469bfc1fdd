//go:build amd64 && !purego && unix

package tensor

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"
)

// BenchmarkQ4xCold compares the Q4_0 x-layout kernels (q40xVec16 /
// q40xBatch16, with the activations quantized and their biases computed
// as part of the time) with matMul of the AVX-512 kernel set on the
// row-major matrix (its Q4_0 vec and batch tile kernels, on the package
// Pool of two workers) on a 5632×2048 product whose weights stream from
// DRAM (≥ 256 MB of copies, cycled), at 1, 2, 4 and 8 positions, both
// on the same two-thread Pool (x layout: Pool.For over the tiles). Each
// iteration runs the old and then the new kernels, so both see the same
// machine state; the metrics are per kernel.
//
//	go test -run x -bench Q4xCold -benchtime 200x ./shards/tensor/
func BenchmarkQ4xCold(b *testing.B) { q4xCompare(b, 5632, 256<<20) }

// BenchmarkQ4xHot is BenchmarkQ4xCold on one 1536×2048 matrix (1.7 MB,
// in cache): the kernels' compute speed without the DRAM bound (the
// per-call work, quantizing the activations and two goroutines, weighs
// more here).
//
//	go test -run x -bench Q4xHot -benchtime 2000x ./shards/tensor/
func BenchmarkQ4xHot(b *testing.B) { q4xCompare(b, 1536, 0) }

// q4xCompare times old and new kernels on rows×2048 Q4_0, cycling through
// enough copies of the weights to fill budget bytes.
func q4xCompare(b *testing.B, rows int, budget int) {
	skipUnless(b, q40xTilesGap())
	const cols = 2048
	const nb = cols / 32
	rb := nb * 18
	r := rand.New(rand.NewPCG(7, 7))
	w0 := randomMatrix(r, Q4_0, rows, cols).Data
	copies := max(1, budget/len(w0))
	old := make([][]byte, copies)
	packed := make([][]byte, copies)
	for i := range old {
		old[i] = append([]byte(nil), w0...)
		packed[i] = make([]byte, len(w0))
		if err := packQ4_0x(packed[i], w0, rows, cols); err != nil {
			b.Fatal(err)
		}
	}
	ks := avx512Kernels()
	pool := NewPool(2)
	defer pool.Close()
	work := NewWorkspace()
	for _, p := range []int{1, 2, 4, 8} {
		x := randomVec(r, p*cols)
		qs := make([]int8, p*cols)
		d := make([]float32, p*nb)
		bias := make([]int32, p*nb)
		out := make([]float32, p*rows)
		b.Run("P="+strconv.Itoa(p), func(b *testing.B) {
			tOld := make([]time.Duration, b.N)
			tNew := make([][]time.Duration, len(q4xBenchPF))
			for j := range tNew {
				tNew[j] = make([]time.Duration, b.N)
			}
			var cOld time.Duration
			cNew := make([]time.Duration, len(q4xBenchPF))
			for i := 0; i < b.N; i++ {
				c0 := cpuTime()
				t0 := time.Now()
				matMul(ks, pool, work, Matrix{Type: Q4_0, Rows: rows, Cols: cols, Data: old[i%copies]}, x, p, out)
				tOld[i] = time.Since(t0)
				cOld += cpuTime() - c0
				for j, pf := range q4xBenchPF {
					if pf < 0 {
						pf = q40xPrefetch(p)
					}
					// Another copy than the one just read by the last
					// kernel, so every run starts cold.
					pk := packed[(i+j*copies/len(q4xBenchPF)+copies/2)%copies]
					c1 := cpuTime()
					t1 := time.Now()
					ks.q8_0(x, qs, d)
					for k := 0; k < p; k++ {
						biasQ4_0x(bias[k*nb:(k+1)*nb], qs[k*cols:(k+1)*cols])
					}
					pool.For(rows/16, func(lo, hi int) {
						var tmp [128]float32
						for tile := lo; tile < hi; tile++ {
							pw := &pk[16*tile*rb]
							if p == 1 {
								q40xVec16(pw, nb, &qs[0], &d[0], &bias[0], &tmp[0], pf)
							} else {
								q40xBatch16(pw, nb, &qs[0], cols, &d[0], &bias[0], nb, p, &tmp[0], pf)
							}
							for k := 0; k < p; k++ {
								copy(out[k*rows+16*tile:][:16], tmp[16*k:16*k+16])
							}
						}
					})
					tNew[j][i] = time.Since(t1)
					cNew[j] += cpuTime() - c1
				}
			}
			// Wall-clock rates from the median iteration, which other load
			// on a shared machine moves less than the mean, and rates per
			// second of process CPU time (both threads).
			ops := 2 * float64(p) * float64(rows) * cols
			median := func(t []time.Duration) float64 {
				slices.Sort(t)
				return t[len(t)/2].Seconds()
			}
			o := median(tOld)
			b.ReportMetric(float64(len(w0))/o/1e9, "old-GB/s")
			b.ReportMetric(ops/o/1e9, "old-GOP/s")
			b.ReportMetric(ops*float64(b.N)/cOld.Seconds()/1e9, "old-GOP/cpu-s")
			for j, pf := range q4xBenchPF {
				n := median(tNew[j])
				tag := "new-pf" + strconv.Itoa(pf)
				if pf < 0 {
					tag = "new"
				}
				b.ReportMetric(float64(len(w0))/n/1e9, tag+"-GB/s")
				b.ReportMetric(ops/n/1e9, tag+"-GOP/s")
				b.ReportMetric(ops*float64(b.N)/cNew[j].Seconds()/1e9, tag+"-GOP/cpu-s")
			}
		})
	}
}

// q4xBenchPF are the prefetch distances BenchmarkQ4xCold tries besides
// q40xPrefetch(p) (-1 stands for that).
var q4xBenchPF = []int{-1, 0, 4608, 9216}
