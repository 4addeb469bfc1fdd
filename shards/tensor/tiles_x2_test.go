//go:build amd64 && !purego

package tensor

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestQ4xTilesVec checks the multi-tile one-position kernels bit for bit
// against q40xVec16 tile by tile and against dotQ4_0, on random and edge
// inputs.
func TestQ4xTilesVec(t *testing.T) {
	if !hasQ0Tiles() {
		t.Skip("no AVX-512 VNNI on this CPU")
	}
	r := rand.New(rand.NewPCG(47, 48))
	for _, nb := range []int{1, 2, 3, 64, 176} {
		for edge := 0; edge < 3; edge++ {
			c := q4xMakeCase(t, r, "", 64, nb, 1, 0, edge)
			tb := nb * q40xTileBytes
			one := make([]float32, 16)
			for k := 1; k <= 4; k++ {
				for first := 0; first+k <= 4; first++ {
					out := make([]float32, 16*k)
					if err := q40xTilesVec(c.packedTile[first*tb:], k, nb, c.qs, c.d, c.bias, out); err != nil {
						t.Fatal(err)
					}
					for tile := 0; tile < k; tile++ {
						q40xVec16(&c.packedTile[(first+tile)*tb], nb, &c.qs[0], &c.d[0], &c.bias[0], &one[0], 0)
						for row := 0; row < 16; row++ {
							got, want := out[16*tile+row], c.want(16*(first+tile)+row, 0)
							if !sameBits(got, one[row]) || !sameBits(got, want) {
								t.Fatalf("nb=%d edge=%d k=%d tile %d row %d: %g, q40xVec16 %g, dotQ4_0 %g", nb, edge, k, first+tile, row, got, one[row], want)
							}
						}
					}
				}
			}
		}
	}
}

func TestQ4xTilesVecErrors(t *testing.T) {
	if !hasQ0Tiles() {
		t.Skip("no AVX-512 VNNI on this CPU")
	}
	r := rand.New(rand.NewPCG(49, 50))
	c := q4xMakeCase(t, r, "", 32, 4, 1, 0, 0)
	out := make([]float32, 64)
	for name, f := range map[string]func() error{
		"no tiles":    func() error { return q40xTilesVec(c.packedTile, 0, 4, c.qs, c.d, c.bias, out) },
		"five tiles":  func() error { return q40xTilesVec(c.packedTile, 5, 4, c.qs, c.d, c.bias, out) },
		"short tiles": func() error { return q40xTilesVec(c.packedTile, 3, 4, c.qs, c.d, c.bias, out) },
		"zero blocks": func() error { return q40xTilesVec(c.packedTile, 1, 0, c.qs, c.d, c.bias, out) },
		"short out":   func() error { return q40xTilesVec(c.packedTile, 2, 4, c.qs, c.d, c.bias, out[:31]) },
		"short acts":  func() error { return q40xTilesVec(c.packedTile, 2, 4, c.qs[:127], c.d, c.bias, out) },
		"short bias":  func() error { return q40xTilesVec(c.packedTile, 2, 4, c.qs, c.d, c.bias[:3], out) },
	} {
		if err := f(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// BenchmarkQ4xTilesCold times one position against 5632×2048 and
// 2048×5632 Q4_0 x-packed matrices streamed from DRAM (≥ 256 MB of
// copies, cycled) on the two-thread Pool, each thread taking k adjacent
// tiles per kernel call (k = 1: q40xVec16; k = -2: pairs half the thread's
// chunk apart). Each iteration runs every k on a different copy, so all
// see the same machine state; median wall time per k.
//
//	go test -run x -bench Q4xTilesCold -benchtime 300x ./shards/tensor/
func BenchmarkQ4xTilesCold(b *testing.B) {
	if !hasQ0Tiles() {
		b.Skip("no AVX-512 VNNI on this CPU")
	}
	b.Run("5632x2048", func(b *testing.B) { q4xTilesCold(b, 5632, 2048) })
	b.Run("2048x5632", func(b *testing.B) { q4xTilesCold(b, 2048, 5632) })
}

func q4xTilesCold(b *testing.B, rows, cols int) {
	nb := cols / 32
	r := rand.New(rand.NewPCG(uint64(rows), 8))
	w0 := randomMatrix(r, Q4_0, rows, cols).Data
	copies := max(1, (256<<20)/len(w0))
	packed := make([][]byte, copies)
	for i := range packed {
		packed[i] = make([]byte, len(w0))
		if err := packQ4_0x(packed[i], w0, rows, cols); err != nil {
			b.Fatal(err)
		}
	}
	ks := avx512Kernels()
	pool := NewPool(2)
	defer pool.Close()
	x := randomVec(r, cols)
	qs := make([]int8, cols)
	d := make([]float32, nb)
	bias := make([]int32, nb)
	ks.q8_0(x, qs, d)
	biasQ4_0x(bias, qs)
	out := make([]float32, rows)
	tb := nb * q40xTileBytes
	// k = -2: pairs of tiles half the thread's chunk apart (two streams
	// in different regions rather than adjacent tiles).
	ks4 := []int{1, 2, 4, -2}
	times := make([][]time.Duration, len(ks4))
	for j := range times {
		times[j] = make([]time.Duration, b.N)
	}
	for i := 0; i < b.N; i++ {
		for j, k := range ks4 {
			pk := packed[(i*len(ks4)+j)%copies]
			t0 := time.Now()
			pool.For(rows/16, func(lo, hi int) {
				var tmp [64]float32
				if k == -2 {
					h := (hi - lo) / 2
					for tile := lo; tile < lo+h; tile++ {
						q40xVec2T(&pk[tile*tb], h*tb, nb, &qs[0], &d[0], &bias[0], &tmp[0])
						copy(out[16*tile:], tmp[:16])
						copy(out[16*(tile+h):], tmp[16:32])
					}
					for tile := lo + 2*h; tile < hi; tile++ {
						q40xVec16(&pk[tile*tb], nb, &qs[0], &d[0], &bias[0], &tmp[0], 0)
						copy(out[16*tile:], tmp[:16])
					}
					return
				}
				for tile := lo; tile < hi; {
					n := min(k, hi-tile)
					if err := q40xTilesVec(pk[tile*tb:], n, nb, qs, d, bias, tmp[:]); err != nil {
						panic(err)
					}
					copy(out[16*tile:], tmp[:16*n])
					tile += n
				}
			})
			times[j][i] = time.Since(t0)
		}
	}
	for j, k := range ks4 {
		slices.Sort(times[j])
		b.ReportMetric(float64(len(w0))/times[j][b.N/2].Seconds()/1e9, "k"+strconv.Itoa(k)+"-GB/s")
	}
}

// BenchmarkQ4xShapes compares one-position MatMul on the x layout with
// the row-major layout (both through matMul with the best kernels, the
// same two-thread Pool) for TinyLlama's Q4_0 matrix shapes, cold (≥ 256 MB
// of copies, cycled; "-hot": one copy, in cache, where the per-call work
// weighs more), alternating layouts each iteration; median wall rates and
// their ratio x/row-major.
//
//	go test -run x -bench Q4xShapes -benchtime 300x ./shards/tensor/
func BenchmarkQ4xShapes(b *testing.B) {
	if !hasQ0Tiles() {
		b.Skip("no AVX-512 VNNI on this CPU")
	}
	for _, s := range [][3]int{{256, 2048, 0}, {2048, 2048, 0}, {5632, 2048, 0}, {2048, 5632, 0}, {256, 2048, 1}, {2048, 2048, 1}} {
		rows, cols, hot := s[0], s[1], s[2] == 1
		name := strconv.Itoa(rows) + "x" + strconv.Itoa(cols)
		if hot {
			name += "-hot"
		}
		b.Run(name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(uint64(rows), uint64(cols)))
			m := randomMatrix(r, Q4_0, rows, cols)
			copies := max(2, (256<<20)/len(m.Data))
			if hot {
				copies = 1
			}
			rm := make([]Matrix, copies)
			xm := make([]Matrix, copies)
			for i := range rm {
				rm[i] = m
				rm[i].Data = append([]byte(nil), m.Data...)
				p, err := Pack(rm[i])
				if err != nil {
					b.Fatal(err)
				}
				xm[i] = p
			}
			pool := NewPool(2)
			defer pool.Close()
			ws := NewWorkspace()
			x := randomVec(r, cols)
			out := make([]float32, rows)
			tr := make([]time.Duration, b.N)
			tx := make([]time.Duration, b.N)
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				matMul(bestKernels, pool, ws, rm[i%copies], x, 1, out)
				tr[i] = time.Since(t0)
				t1 := time.Now()
				matMul(bestKernels, pool, ws, xm[(i+copies/2)%copies], x, 1, out)
				tx[i] = time.Since(t1)
			}
			slices.Sort(tr)
			slices.Sort(tx)
			br := float64(len(m.Data)) / tr[b.N/2].Seconds() / 1e9
			bx := float64(len(m.Data)) / tx[b.N/2].Seconds() / 1e9
			b.ReportMetric(br, "rowmajor-GB/s")
			b.ReportMetric(bx, "x-GB/s")
			b.ReportMetric(bx/br, "x/rowmajor")
		})
	}
}
