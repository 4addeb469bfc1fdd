//go:build amd64 && !purego

package tensor

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkQ6bCold times TinyLlama's LM head (Q6_K, 32000x2048) at n = 1,
// 2, 4 and 8 positions with the weights streaming from DRAM (copies of
// about 256 MB in total, cycled), on a two-thread pool, with the AVX-512
// kernel set as it is ("old") and with addK8Tiles applied ("new"), in the
// same run. It reports ms per product and the CPU time per product.
//
//	go test -run x -bench Q6bCold -benchtime 40x ./shards/tensor/
func BenchmarkQ6bCold(b *testing.B) {
	if !hasAVX512Set() || !hasKTiles() {
		b.Skip("no Q6_K tile kernels on this CPU")
	}
	old := avx512Kernels()
	cur := avx512Kernels()
	addK8Tiles(cur)
	r := rand.New(rand.NewPCG(71, 72))
	const rows, cols = 32000, 2048
	for _, typ := range []Type{Q6_K, Q4_K} {
		w0 := randomMatrix(r, typ, rows, cols)
		copies := max(2, (256<<20)/len(w0.Data))
		ws := make([]Matrix, copies)
		for i := range ws {
			ws[i] = w0
			ws[i].Data = append([]byte(nil), w0.Data...)
		}
		p := NewPool(2)
		x := randomVec(r, 8*cols)
		out := make([]float32, 8*rows)
		for _, n := range []int{1, 2, 4, 8} {
			for _, set := range []struct {
				name string
				ks   *kernelSet
			}{{"old", old}, {"new", cur}} {
				work := NewWorkspace()
				b.Run(fmt.Sprintf("%v/n=%d/%s", typ, n, set.name), func(b *testing.B) {
					c0 := cpuTime()
					for i := 0; i < b.N; i++ {
						matMul(set.ks, p, work, ws[i%copies], x, n, out)
					}
					sec := b.Elapsed().Seconds() / float64(b.N)
					b.ReportMetric(sec*1e3, "ms")
					b.ReportMetric((cpuTime()-c0).Seconds()/float64(b.N)*1e3, "cpu-ms")
					b.ReportMetric(2*float64(n)*rows*cols/sec/1e9, "GOP/s")
				})
			}
		}
		p.Close()
	}
}

// BenchmarkQ6bHot runs the Q6_K tile kernels directly (no MatMul around
// them) over a 512x2048 matrix that stays in cache, on one thread: the
// compute ceiling, as weight bytes x positions per second ("GB/s" of
// weights per position). old = q6kBatch2x8 (8 positions) and q6kVec8 (1),
// new = the 8-row tile with 1..8 positions.
//
//	go test -run x -bench Q6bHot ./shards/tensor/
func BenchmarkQ6bHot(b *testing.B) {
	if !hasAVX512Set() || !hasKTiles() {
		b.Skip("no Q6_K tile kernels on this CPU")
	}
	old := avx512Kernels()
	cur := avx512Kernels()
	addK8Tiles(cur)
	r := rand.New(rand.NewPCG(73, 74))
	const rows, cols = 512, 2048
	w := randomMatrix(r, Q6_K, rows, cols)
	x := randomVec(r, 8*cols)
	ws := NewWorkspace()
	ws.bind()
	ws.act.prepare(cur, nil, Q6_K, x, 8, cols, ws.convFn)
	tk := mmTask{w: w, rb: mustRowBytes(Q6_K, cols), bb: 210}
	buf := make([]float32, maxTile)
	run := func(name string, spec tileSpec, np int) {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				for r := 0; r+spec.rows <= rows; r += spec.rows {
					off, l := tk.layout(r, spec.rows)
					spec.fn(w.Data[off:], l, &ws.act, 0, buf[:spec.rows*np])
				}
			}
			b.ReportMetric(float64(b.N)*float64(len(w.Data))*float64(np)/b.Elapsed().Seconds()/1e9, "GBxpos/s")
		})
	}
	run("old/vec8x1", old.vec[Q6_K], 1)
	run("old/batch2x8", old.batch[Q6_K], 8)
	for _, np := range []int{1, 2, 4, 8} {
		run(fmt.Sprintf("new/8x%d", np), cur.batch[Q6_K], np)
	}
}
