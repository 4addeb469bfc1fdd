//go:build amd64 && !purego

package tensor

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkQ6bCold times TinyLlama's LM head shape (32000x2048, Q6_K as in
// the model, and Q4_K) at n = 1, 2, 4 and 8 positions with the weights streaming from DRAM (copies of
// about 256 MB in total, cycled), on a two-thread pool, with the AVX-512
// kernel set as it is ("old") and with addK8Tiles applied ("new"), row-major
// and packed in groups of 8 rows (as Pack now packs Q6_K), in the same run.
// It reports ms and CPU ms per product: on a shared machine the CPU time
// is the steadier figure. MatMul as it stands uses the batch kernel only
// for n >= 8 (see BenchmarkQ6bColdFlex for 2..7).
//
//	go test -run x -bench Q6bCold -benchtime 40x ./shards/tensor/
func BenchmarkQ6bCold(b *testing.B) {
	skipUnless(b, kTilesGap())
	old := avx512Kernels()
	cur := avx512Kernels()
	addK8Tiles(cur)
	r := rand.New(rand.NewPCG(71, 72))
	const rows, cols = 32000, 2048
	for _, typ := range q6bTypes {
		q6bColdType(b, r, typ, old, cur)
	}
}

func q6bColdType(b *testing.B, r *rand.Rand, typ Type, old, cur *kernelSet) {
	const rows, cols = 32000, 2048
	w0 := randomMatrix(r, typ, rows, cols)
	copies := max(2, (256<<20)/len(w0.Data))
	rowMajor := make([]Matrix, copies)
	packed := make([]Matrix, copies)
	for i := range rowMajor {
		rowMajor[i] = w0
		rowMajor[i].Data = append([]byte(nil), w0.Data...)
		packed[i] = packGroups(w0, q6bRows)
	}
	p := NewPool(2)
	defer p.Close()
	x := randomVec(r, 8*cols)
	out := make([]float32, 8*rows)
	for _, n := range []int{1, 2, 4, 8} {
		for _, set := range []struct {
			name string
			ks   *kernelSet
			ms   []Matrix
		}{{"old", old, rowMajor}, {"new", cur, rowMajor}, {"old-packed", old, packed}, {"new-packed", cur, packed}} {
			work := NewWorkspace()
			b.Run(fmt.Sprintf("%v/n=%d/%s", typ, n, set.name), func(b *testing.B) {
				c0 := cpuTime()
				for i := 0; i < b.N; i++ {
					matMul(set.ks, p, work, set.ms[i%copies], x, n, out)
				}
				sec := b.Elapsed().Seconds() / float64(b.N)
				b.ReportMetric(sec*1e3, "ms")
				b.ReportMetric((cpuTime()-c0).Seconds()/float64(b.N)*1e3, "cpu-ms")
				b.ReportMetric(2*float64(n)*rows*cols/sec/1e9, "GOP/s")
			})
		}
	}
}

// BenchmarkQ6bHot runs the Q6_K and Q4_K tile kernels directly (no MatMul around
// them) over a 512x2048 matrix that stays in cache, on one thread: the
// compute ceiling, as weight bytes x positions per second ("GB/s" of
// weights per position). old = q6kBatch2x8/q4kBatch2x8 (8 positions) and
// q6kVec8/q4kVec8 (1), new = the 8-row tiles with 1..8 positions.
//
//	go test -run x -bench Q6bHot ./shards/tensor/
func BenchmarkQ6bHot(b *testing.B) {
	skipUnless(b, kTilesGap())
	old := avx512Kernels()
	cur := avx512Kernels()
	addK8Tiles(cur)
	r := rand.New(rand.NewPCG(73, 74))
	for _, typ := range q6bTypes {
		q6bHotType(b, r, typ, old, cur)
	}
}

func q6bHotType(b *testing.B, r *rand.Rand, typ Type, old, cur *kernelSet) {
	const rows, cols = 512, 2048
	w := randomMatrix(r, typ, rows, cols)
	x := randomVec(r, 8*cols)
	ws := NewWorkspace()
	ws.bind()
	ws.act.prepare(cur, nil, typ, x, 8, cols, ws.convFn)
	tk := mmTask{w: w, rb: mustRowBytes(typ, cols), bb: typ.BlockBytes()}
	buf := make([]float32, maxTile)
	run := func(name string, spec tileSpec, np int) {
		b.Run(typ.String()+"/"+name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				for r := 0; r+spec.rows <= rows; r += spec.rows {
					off, l := tk.layout(r, spec.rows)
					spec.fn(w.Data[off:], l, &ws.act, 0, buf[:spec.rows*np])
				}
			}
			b.ReportMetric(float64(b.N)*float64(len(w.Data))*float64(np)/b.Elapsed().Seconds()/1e9, "GBxpos/s")
		})
	}
	run("old/vec8x1", old.vec[typ], 1)
	run("old/batch2x8", old.batch[typ], 8)
	for _, np := range []int{1, 2, 4, 8} {
		run(fmt.Sprintf("new/8x%d", np), cur.batch[typ], np)
	}
}

// q6bFlexMatMul is MatMul as it would run with the change to
// mmTask.tiles proposed with addK8Tiles (batch kernels whose tileSpec
// accepts 2..pos positions are called with min(pos, remaining) positions,
// the count given by len(out)): for a row-major Q6_K matrix with
// Rows%16 == 0 and n >= 2, every 8-row tile takes the 8-row kernel for
// min(8, remaining) positions at a time. For benchmarks only.
func q6bFlexMatMul(ks *kernelSet, p *Pool, ws *Workspace, w Matrix, x []float32, n int, out []float32) {
	ws.bind()
	a := &ws.act
	a.prepare(ks, p, w.Type, x, n, w.Cols, ws.convFn)
	tk := mmTask{w: w, rb: mustRowBytes(w.Type, w.Cols), bb: w.Type.BlockBytes()}
	spec := ks.batch[w.Type]
	p.For(w.Rows/rowTile, func(lo, hi int) {
		var buf [maxTile]float32
		for r := lo * rowTile; r < hi*rowTile; r += spec.rows {
			off, l := tk.layout(r, spec.rows)
			if w.group == spec.rows {
				// Proposed: prefetch in packed groups of the tile's rows
				// too, whose next group follows contiguously.
				l.next = spec.rows * tk.rb
			}
			for i := 0; i < n; {
				k := min(spec.pos, n-i)
				lp := l
				if i != 0 {
					lp.next = 0
				}
				spec.fn(w.Data[off:], lp, a, i, buf[:spec.rows*k])
				for q := 0; q < k; q++ {
					copy(out[(i+q)*w.Rows+r:(i+q)*w.Rows+r+spec.rows], buf[q*spec.rows:(q+1)*spec.rows])
				}
				i += k
			}
		}
	})
	a.x = nil
}

// BenchmarkQ6bColdFlex compares, on TinyLlama's LM head shape streaming
// from DRAM (as BenchmarkQ6bCold, Q6_K and Q4_K), MatMul with the current kernel set ("old":
// below 8 positions one q6kVec8 pass per position) and the 8-row kernel
// for 2..8 positions at once as MatMul would run it after the proposed
// mmTask.tiles change ("flex", q6bFlexMatMul), in the same run.
//
//	go test -run x -bench Q6bColdFlex -benchtime 40x ./shards/tensor/
func BenchmarkQ6bColdFlex(b *testing.B) {
	skipUnless(b, kTilesGap())
	old := avx512Kernels()
	cur := avx512Kernels()
	addK8Tiles(cur)
	r := rand.New(rand.NewPCG(75, 76))
	for _, typ := range q6bTypes {
		q6bColdFlexType(b, r, typ, old, cur)
	}
}

func q6bColdFlexType(b *testing.B, r *rand.Rand, typ Type, old, cur *kernelSet) {
	const rows, cols = 32000, 2048
	w0 := randomMatrix(r, typ, rows, cols)
	copies := max(2, (256<<20)/len(w0.Data))
	ms := make([]Matrix, copies)
	packed := make([]Matrix, copies)
	for i := range ms {
		ms[i] = w0
		ms[i].Data = append([]byte(nil), w0.Data...)
		packed[i] = packGroups(w0, q6bRows)
	}
	p := NewPool(2)
	defer p.Close()
	x := randomVec(r, 8*cols)
	want := make([]float32, 8*rows)
	out := make([]float32, 8*rows)
	for _, n := range []int{2, 3, 4, 6, 8} {
		// The emulation must give MatMul's bits.
		matMul(genericKernels, p, NewWorkspace(), ms[0], x, n, want)
		for _, m := range []Matrix{ms[0], packed[0]} {
			q6bFlexMatMul(cur, p, NewWorkspace(), m, x, n, out)
			if d := firstDiff(want[:n*rows], out[:n*rows]); d >= 0 {
				b.Fatalf("n=%d group %d: flex element %d: %g, generic %g", n, m.group, d, out[d], want[d])
			}
		}
		for _, v := range []string{"old", "flex", "flex-packed"} {
			ws := NewWorkspace()
			b.Run(fmt.Sprintf("%v/n=%d/%s", typ, n, v), func(b *testing.B) {
				c0 := cpuTime()
				for i := 0; i < b.N; i++ {
					switch v {
					case "old":
						matMul(old, p, ws, ms[i%copies], x, n, out)
					case "flex":
						q6bFlexMatMul(cur, p, ws, ms[i%copies], x, n, out)
					default:
						q6bFlexMatMul(cur, p, ws, packed[i%copies], x, n, out)
					}
				}
				sec := b.Elapsed().Seconds() / float64(b.N)
				b.ReportMetric(sec*1e3, "ms")
				b.ReportMetric((cpuTime()-c0).Seconds()/float64(b.N)*1e3, "cpu-ms")
			})
		}
	}
}
