//go:build amd64 && !purego

package tensor

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkKTiles runs the Q4_K/Q6_K tile kernels directly (no MatMul
// around them) over a 512x2048 matrix that stays in cache, on one thread:
// the kernels' compute ceiling. It reports weight bytes per second.
//
//	go test -run x -bench KTiles ./shards/tensor/
func BenchmarkKTiles(b *testing.B) {
	skipUnless(b, kTilesGap())
	ks := avx512Kernels()
	r := rand.New(rand.NewPCG(61, 62))
	const rows, cols = 512, 2048
	for _, typ := range []Type{Q4_K, Q6_K} {
		for _, spec := range []tileSpec{ks.vec[typ], ks.batch[typ]} {
			if spec.fn == nil {
				continue
			}
			w := randomMatrix(r, typ, rows, cols)
			x := randomVec(r, spec.pos*cols)
			ws := NewWorkspace()
			ws.bind()
			ws.act.prepare(ks, nil, typ, x, spec.pos, cols, ws.convFn)
			tk := mmTask{w: w, rb: mustRowBytes(typ, cols), bb: typ.BlockBytes()}
			buf := make([]float32, maxTile)
			b.Run(fmt.Sprintf("%v/%dx%d", typ, spec.rows, spec.pos), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					for r := 0; r+spec.rows <= rows; r += spec.rows {
						off, l := tk.layout(r, spec.rows)
						spec.fn(w.Data[off:], l, &ws.act, 0, buf)
					}
				}
				b.ReportMetric(float64(b.N)*float64(len(w.Data))/b.Elapsed().Seconds()/1e9, "GB/s")
			})
		}
	}
}
