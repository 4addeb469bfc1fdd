//go:build amd64 && !purego && unix

package tensor

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// BenchmarkKLayouts compares, for the K types, every kernel set this CPU
// runs on row-major matrices and, for the sets that read it (group > 0),
// on the block-interleaved layout Pack gives them, at 1, 2, 4 and 8
// positions (decode, batched decode), through matMul on a two-thread Pool
// (one thread: "/1t"), on TinyLlama's 5632×2048 shape with the weights
// streaming from DRAM (copies of at least 256 MB, cycled). Each iteration
// runs every variant once, in rotating order, so that all see the same
// machine; the metric is weight GB/s at the median iteration (other load
// on a shared machine moves the median less than the mean). The results
// are checked against the generic set's first.
//
//	go test -run x -bench KLayouts -benchtime 60x ./shards/tensor/
func BenchmarkKLayouts(b *testing.B) {
	r := rand.New(rand.NewPCG(81, 82))
	const rows, cols = 5632, 2048
	for _, typ := range []Type{Q4_K, Q5_K, Q6_K, F16, BF16} {
		w0 := randomMatrix(r, typ, rows, cols)
		copies := max(1, (256<<20)/len(w0.Data))
		type variant struct {
			name string
			ks   *kernelSet
			ms   []Matrix
		}
		var vs []variant
		for _, ks := range kernelSets()[1:] {
			ms := make([]Matrix, copies)
			for i := range ms {
				ms[i] = w0
				ms[i].Data = append([]byte(nil), w0.Data...)
				if typ == BF16 {
					// The exponent ranges the AVX-512 set's guard reads,
					// as Pack notes them for a model's matrices.
					var err error
					if ms[i], err = Pack(ms[i]); err != nil {
						b.Fatal(err)
					}
				}
			}
			vs = append(vs, variant{ks.name, ks, ms})
			if g := groupOf(ks, w0); g > 0 {
				pms := make([]Matrix, copies)
				for i := range pms {
					pms[i] = packGroups(w0, g)
				}
				vs = append(vs, variant{ks.name + "-packed", ks, pms})
			}
		}
		x := randomVec(r, 128*cols)
		want := make([]float32, 128*rows)
		out := make([]float32, 128*rows)
		for _, threads := range []int{2, 1} {
			p := NewPool(threads)
			for _, n := range []int{1, 2, 4, 8, 128} {
				matMul(genericKernels, p, NewWorkspace(), w0, x, n, want)
				for _, v := range vs {
					matMul(v.ks, p, NewWorkspace(), v.ms[0], x, n, out)
					if d := firstDiff(want[:n*rows], out[:n*rows]); d >= 0 {
						b.Fatalf("%v %s n=%d: element %d %g, generic %g", typ, v.name, n, d, out[d], want[d])
					}
				}
				name := fmt.Sprintf("%v/n=%d", typ, n)
				if threads == 1 {
					name += "/1t"
				}
				b.Run(name, func(b *testing.B) {
					ws := NewWorkspace()
					ts := make([][]time.Duration, len(vs))
					for i := 0; i < b.N; i++ {
						for j := range vs {
							k := (i + j) % len(vs)
							// Another copy than the last variant read.
							t0 := time.Now()
							matMul(vs[k].ks, p, ws, vs[k].ms[(i*len(vs)+j)%copies], x, n, out)
							ts[k] = append(ts[k], time.Since(t0))
						}
					}
					for j, v := range vs {
						slices.Sort(ts[j])
						b.ReportMetric(float64(len(w0.Data))/ts[j][len(ts[j])/2].Seconds()/1e9, v.name+"-GB/s")
					}
				})
			}
			p.Close()
		}
	}
}
