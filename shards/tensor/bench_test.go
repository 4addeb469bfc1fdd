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

// BenchmarkMatVecCold cycles through enough copies of a 5632x2048 matrix
// (about 256 MB in total) that every call streams its weights from DRAM, as
// decoding a real model does; the hot benchmarks above partly run from L3.
func BenchmarkMatVecCold(b *testing.B) {
	p := NewPool(0)
	defer p.Close()
	r := rand.New(rand.NewPCG(2, 2))
	const rows, cols = 5632, 2048
	for _, typ := range allTypes {
		w0 := randomMatrix(r, typ, rows, cols)
		copies := max(2, (256<<20)/len(w0.Data))
		ws := make([]Matrix, copies)
		for i := range ws {
			ws[i] = w0
			ws[i].Data = append([]byte(nil), w0.Data...)
		}
		x := randomVec(r, cols)
		out := make([]float32, rows)
		work := NewWorkspace()
		b.Run(typ.String(), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				MatMul(p, work, ws[i%copies], x, 1, out)
			}
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(float64(len(w0.Data))/sec/1e9, "GB/s")
		})
	}
}
