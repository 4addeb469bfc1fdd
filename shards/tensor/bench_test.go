package tensor

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Benchmarks report the weight bytes streamed per second (GB/s), the
// figure that bounds single-stream decoding.
//
//	go test -run x -bench . -benchtime 20x ./shards/tensor/

var benchShapes = [][2]int{{2048, 2048}, {5632, 2048}}

func benchMatMul(b *testing.B, n int) {
	p := NewPool(0)
	defer p.Close()
	r := rand.New(rand.NewPCG(1, 1))
	for _, typ := range allTypes {
		for _, sh := range benchShapes {
			w := randomMatrix(r, typ, sh[0], sh[1])
			x := randomVec(r, n*sh[1])
			out := make([]float32, n*sh[0])
			ws := NewWorkspace()
			b.Run(fmt.Sprintf("%v/%dx%d", typ, sh[0], sh[1]), func(b *testing.B) {
				MatMul(p, ws, w, x, n, out)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					MatMul(p, ws, w, x, n, out)
				}
				sec := b.Elapsed().Seconds() / float64(b.N)
				b.ReportMetric(float64(len(w.Data))/sec/1e9, "GB/s")
				b.ReportMetric(2*float64(n)*float64(sh[0])*float64(sh[1])/sec/1e9, "GFLOP/s")
			})
		}
	}
}

func BenchmarkMatVec(b *testing.B) { benchMatMul(b, 1) }

func BenchmarkMatMul128(b *testing.B) { benchMatMul(b, 128) }
