//go:build amd64 && !purego && unix

package tensor

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// BenchmarkQ0Cold compares the kernel sets on Q8_0 and Q4_0 products whose
// weights stream from DRAM (as in decoding a real model), for one position
// and for a 32-position batch, on two threads.
//
//	go test -run x -bench Q0Cold -benchtime 20x ./shards/tensor/
func BenchmarkQ0Cold(b *testing.B) {
	p := NewPool(2)
	defer p.Close()
	r := rand.New(rand.NewPCG(5, 5))
	const rows, cols = 5632, 2048
	for _, typ := range []Type{Q8_0, Q4_0} {
		w0 := randomMatrix(r, typ, rows, cols)
		copies := max(2, (256<<20)/len(w0.Data))
		ws := make([]Matrix, copies)
		for i := range ws {
			ws[i] = w0
			ws[i].Data = append([]byte(nil), w0.Data...)
		}
		for _, n := range []int{1, 32} {
			x := randomVec(r, n*cols)
			out := make([]float32, n*rows)
			for _, ks := range kernelSets()[1:] {
				work := NewWorkspace()
				b.Run(typ.String()+"/n="+strconv.Itoa(n)+"/"+ks.name, func(b *testing.B) {
					c0 := cpuTime()
					for i := 0; i < b.N; i++ {
						matMul(ks, p, work, ws[i%copies], x, n, out)
					}
					cpu := (cpuTime() - c0).Seconds() / float64(b.N)
					sec := b.Elapsed().Seconds() / float64(b.N)
					b.ReportMetric(2*float64(n)*rows*cols/cpu/1e9, "GOP/cpu-s")
					b.ReportMetric(float64(len(w0.Data))/sec/1e9, "GB/s")
					b.ReportMetric(2*float64(n)*rows*cols/sec/1e9, "GOP/s")
				})
			}
		}
	}
}
