package tensor

import (
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"time"
)

// decodeShapes are the matrices of one TinyLlama block in the order a
// decode step multiplies them (q, k, v, o, gate, up, down).
var decodeShapes = [][2]int{{2048, 2048}, {256, 2048}, {256, 2048}, {2048, 2048}, {5632, 2048}, {5632, 2048}, {2048, 5632}}

// decodeSet builds blocks copies of a TinyLlama block's matrices of type
// typ, about 55 MB per block at Q8_0, so that a pass streams from DRAM.
func decodeSet(r *rand.Rand, typ Type, blocks int) ([]Matrix, int) {
	proto := make([]Matrix, len(decodeShapes))
	for i, sh := range decodeShapes {
		proto[i] = randomMatrix(r, typ, sh[0], sh[1])
	}
	var ms []Matrix
	bytes := 0
	for b := 0; b < blocks; b++ {
		for _, m := range proto {
			c := m
			c.Data = append([]byte(nil), m.Data...)
			ms = append(ms, c)
			bytes += len(c.Data)
		}
	}
	return ms, bytes
}

// BenchmarkDecodeStream runs the matrix-vector products of eight TinyLlama
// blocks one after another, as a decode step does, and reports the weight
// bytes streamed per second.
//
//	go test -run x -bench DecodeStream -benchtime 10x ./shards/tensor/
func BenchmarkDecodeStream(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, typ := range []Type{Q8_0, Q4_0} {
		ms, bytes := decodeSet(r, typ, 8)
		x := randomVec(r, 5632)
		out := make([]float32, 5632)
		report := func(b *testing.B) {
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(float64(bytes)/sec/1e9, "GB/s")
		}
		b.Run(typ.String()+"/matmul", func(b *testing.B) {
			p := NewPool(2)
			defer p.Close()
			ws := NewWorkspace()
			for i := 0; i < b.N; i++ {
				for _, m := range ms {
					MatMul(p, ws, m, x, 1, out)
				}
			}
			report(b)
		})
		// q, k, v and gate, up fused into one call each.
		b.Run(typ.String()+"/fused", func(b *testing.B) {
			p := NewPool(2)
			defer p.Close()
			ws := NewWorkspace()
			o := make([][]float32, 3)
			for k := range o {
				o[k] = make([]float32, 5632)
			}
			for i := 0; i < b.N; i++ {
				for j := 0; j < len(ms); j += 7 {
					MatMulMany(p, ws, ms[j:j+3], x, 1, o[:3])
					MatMul(p, ws, ms[j+3], x, 1, out)
					MatMulMany(p, ws, ms[j+4:j+6], x, 1, o[:2])
					MatMul(p, ws, ms[j+6], x, 1, out)
				}
			}
			report(b)
		})
		// The fused products on row-major and on packed copies (Pack), in
		// alternating order within every iteration so that both see the
		// same machine; each layout gets its own GB/s metric (best pass).
		b.Run(typ.String()+"/layouts", func(b *testing.B) {
			pms := make([]Matrix, len(ms))
			for k, m := range ms {
				var err error
				if pms[k], err = Pack(m); err != nil {
					b.Fatal(err)
				}
			}
			p := NewPool(2)
			defer p.Close()
			ws := NewWorkspace()
			o := make([][]float32, 3)
			for k := range o {
				o[k] = make([]float32, 5632)
			}
			pass := func(ms []Matrix) time.Duration {
				t0 := time.Now()
				for j := 0; j < len(ms); j += 7 {
					MatMulMany(p, ws, ms[j:j+3], x, 1, o[:3])
					MatMul(p, ws, ms[j+3], x, 1, out)
					MatMulMany(p, ws, ms[j+4:j+6], x, 1, o[:2])
					MatMul(p, ws, ms[j+6], x, 1, out)
				}
				return time.Since(t0)
			}
			// The best pass of each: the machine may be shared, and other
			// work only ever slows a pass down.
			tr, tp := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
			for i := 0; i < b.N; i++ {
				if i%2 == 0 {
					tr = min(tr, pass(ms))
					tp = min(tp, pass(pms))
				} else {
					tp = min(tp, pass(pms))
					tr = min(tr, pass(ms))
				}
			}
			b.ReportMetric(float64(bytes)/tr.Seconds()/1e9, "rowmajor-GB/s")
			b.ReportMetric(float64(bytes)/tp.Seconds()/1e9, "packed-GB/s")
		})
		// Each product split into one contiguous range per thread (static,
		// no dynamic chunks).
		b.Run(typ.String()+"/halves", func(b *testing.B) {
			p := NewPool(2)
			defer p.Close()
			ws := NewWorkspace()
			ws.bind()
			for i := 0; i < b.N; i++ {
				for _, m := range ms {
					a := &ws.act
					a.prepare(bestKernels, nil, m.Type, x, 1, m.Cols, ws.convFn)
					tiles := (m.Rows + rowTile - 1) / rowTile
					ws.scratch = grow(ws.scratch, tiles*maxTile)
					tk := newTask(bestKernels, a, m, 1, out, ws.scratch)
					p.For(2, func(lo, hi int) {
						tk.tiles(tiles*lo/2, tiles*hi/2)
					})
				}
			}
			report(b)
		})
		// Upper bound without per-product synchronisation: each of two
		// goroutines computes its half of every product's tiles.
		for _, th := range []int{1, 2} {
			b.Run(typ.String()+"/nosync"+strconv.Itoa(th), func(b *testing.B) {
				wss := make([]*Workspace, th)
				outs := make([][]float32, th)
				for t := range wss {
					wss[t] = NewWorkspace()
					outs[t] = make([]float32, 5632)
				}
				for i := 0; i < b.N; i++ {
					var wg sync.WaitGroup
					for t := 0; t < th; t++ {
						wg.Add(1)
						go func() {
							defer wg.Done()
							ws := wss[t]
							for _, m := range ms {
								ws.bind()
								a := &ws.act
								a.prepare(bestKernels, nil, m.Type, x, 1, m.Cols, ws.convFn)
								tiles := (m.Rows + rowTile - 1) / rowTile
								ws.scratch = grow(ws.scratch, tiles*maxTile)
								tk := newTask(bestKernels, a, m, 1, outs[t], ws.scratch)
								lo, hi := tiles*t/th, tiles*(t+1)/th
								tk.tiles(lo, hi)
							}
						}()
					}
					wg.Wait()
				}
				report(b)
			})
		}
	}
}
