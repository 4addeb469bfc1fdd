//go:build amd64 && !purego && unix

package tensor

import (
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"time"
)

// q4vKernel is one way of computing 16-row Q4_0 tiles for one position,
// on row-major tiles (il false) or block-interleaved ones.
type q4vKernel struct {
	name string
	il   bool
	fn   func(w *byte, rb int, y *int8, d *float32, nb int, out *float32)
}

// q4vKernels are the kernels compared: the one-block-per-iteration
// q40Vec16 and q40Vec16x2 on the same row-major tiles, and q40Vec16x2 on
// the block-interleaved copy.
func q4vKernels() []q4vKernel {
	return []q4vKernel{
		{"q40Vec16", false, q40Vec16},
		{"x2", false, func(w *byte, rb int, y *int8, d *float32, nb int, out *float32) {
			q40Vec16x2(w, rb, 18, y, d, nb, out)
		}},
		{"x2-interleaved", true, func(w *byte, _ int, y *int8, d *float32, nb int, out *float32) {
			q40Vec16x2(w, 18, 288, y, d, nb, out)
		}},
	}
}

// q4vRun computes tiles [lo, hi) of a Q4_0 matrix of 16*tiles rows of nb
// blocks with kernel fn.
func q4vRun(fn func(w *byte, rb int, y *int8, d *float32, nb int, out *float32), w []byte, y []int8, d []float32, nb, lo, hi int, out []float32) {
	rb := 18 * nb
	for t := lo; t < hi; t++ {
		fn(&w[t*16*rb], rb, &y[0], &d[0], nb, &out[16*t])
	}
}

// q4vInterleaveAll returns the block-interleaved copy of consecutive
// row-major tiles.
func q4vInterleaveAll(w []byte, nb int) []byte {
	il := make([]byte, len(w))
	ts := 16 * 18 * nb
	for t := 0; t < len(w)/ts; t++ {
		q4vInterleave(il[t*ts:(t+1)*ts], w[t*ts:], nb)
	}
	return il
}

// BenchmarkQ4Vec16x2 compares q40Vec16 and q40Vec16x2 on Q4_0 tiles of
// 2048 columns (TinyLlama's q/k/v/o/gate/up rows): "cold" streams 128 MB
// of weights from DRAM per pass on one thread or on two goroutines working
// on disjoint halves, "hot" repeats one 16-row tile from L1/L2. Every
// iteration runs every kernel once, rotating which goes first, and each
// gets its own GB/s metric, so that they are measured under the same
// conditions; "speedup" is x2 over q40Vec16 on the same row-major data.
//
//	go test -run x -bench Q4Vec16x2 -benchtime 20x ./shards/tensor/
func BenchmarkQ4Vec16x2(b *testing.B) {
	skipUnless(b, q40xTilesGap())
	const nb = 64
	r := rand.New(rand.NewPCG(71, 72))
	y, d := q4vActs(r, nb)
	ks := q4vKernels()
	cold := q4vWeights(r, (128<<20)/(16*18*nb), nb)
	coldIL := q4vInterleaveAll(cold, nb)
	for _, th := range []int{1, 2} {
		b.Run("cold/threads="+strconv.Itoa(th), func(b *testing.B) {
			tiles := len(cold) / (16 * 18 * nb)
			out := make([]float32, 16*tiles)
			pass := func(k q4vKernel) time.Duration {
				w := cold
				if k.il {
					w = coldIL
				}
				t0 := time.Now()
				if th == 1 {
					q4vRun(k.fn, w, y, d, nb, 0, tiles, out)
					return time.Since(t0)
				}
				var wg sync.WaitGroup
				for g := 0; g < th; g++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						q4vRun(k.fn, w, y, d, nb, tiles*g/th, tiles*(g+1)/th, out)
					}()
				}
				wg.Wait()
				return time.Since(t0)
			}
			q4vCompare(b, ks, float64(len(cold)), pass)
		})
	}
	b.Run("hot", func(b *testing.B) {
		const reps = 2000
		hot := q4vWeights(r, 1, nb)
		hotIL := q4vInterleaveAll(hot, nb)
		out := make([]float32, 16)
		pass := func(k q4vKernel) time.Duration {
			w := hot
			if k.il {
				w = hotIL
			}
			t0 := time.Now()
			for i := 0; i < reps; i++ {
				k.fn(&w[0], 18*nb, &y[0], &d[0], nb, &out[0])
			}
			return time.Since(t0)
		}
		q4vCompare(b, ks, float64(reps*len(hot)), pass)
	})
}

// q4vCompare runs every kernel once per iteration, rotating which goes
// first, and reports each kernel's bytes per second.
func q4vCompare(b *testing.B, ks []q4vKernel, bytes float64, pass func(k q4vKernel) time.Duration) {
	total := make([]time.Duration, len(ks))
	for i := 0; i < b.N; i++ {
		for j := range ks {
			k := (i + j) % len(ks)
			total[k] += pass(ks[k])
		}
	}
	for k, kk := range ks {
		b.ReportMetric(bytes*float64(b.N)/total[k].Seconds()/1e9, kk.name+"-GB/s")
	}
	b.ReportMetric(total[0].Seconds()/total[1].Seconds(), "speedup")
}
