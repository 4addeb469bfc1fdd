//go:build amd64 && !purego

package tensor

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestBF16AVX2Fallback checks the mechanism that keeps the AVX2 kernels
// exact: on ordinary data they report no subnormal operand (so their own
// sums are used), and each way a subnormal can enter llama.cpp's BF16
// order — an input, a product, an accumulated sum, a lane's final sum —
// is reported, in both orders.
func TestBF16AVX2Fallback(t *testing.T) {
	skipUnless(t, kernelGap("avx2"))
	const n = 128
	for _, c := range bf16FlagCases {
		w, x := c.data(n)
		var steps [16][2]float32
		step := bf16StepRowsAVX2(&w[0], 0, &x[0], n, 2, 0, &steps) != 0
		var many [4]float32
		batch := bf16ManyAVX2(&w[0], 0, 2, &x[0], 2*n, 2, n, 0, &many[0], 2) != 0
		if step != c.flagged || batch != c.flagged {
			t.Errorf("%s: flagged %v (one position), %v (several), want %v", c.name, step, batch, c.flagged)
		}
		if !c.flagged {
			if got, want := finishBF16Sums(steps[0], w, x[:n], n), dotBF16Step(w, x[:n]); !sameBits(got, want) {
				t.Errorf("%s: one position %g, generic %g", c.name, got, want)
			}
			if want := dotBF16Batch(w, x[:n]); !sameBits(many[3], want) {
				t.Errorf("%s: several positions %g, generic %g", c.name, many[3], want)
			}
		}
	}
}

// TestBF16ManyFAVX2Flags checks how narrowly the widened prompt kernel
// reports subnormals: one in a weight flags that row pair for every
// position, one in an activation that position's group (three, or a
// pair) for every row pair, and the outputs it does not flag are the Go
// kernel's; a row pair whose products could be inexact makes it decline
// the call.
func TestBF16ManyFAVX2Flags(t *testing.T) {
	skipUnless(t, kernelGap("avx2"))
	const rows, cols, k = 16, 2080, 5 // three column blocks; groups of 3 and 2
	r := rand.New(rand.NewPCG(71, 72))
	fresh := func() ([]byte, []uint16) {
		w := make([]byte, 2*rows*cols)
		for i := 0; i < len(w); i += 2 {
			binary.LittleEndian.PutUint16(w[i:], FP32ToBF16(float32(r.NormFloat64()*0.02)))
		}
		x := make([]uint16, k*cols)
		for i := range x {
			x[i] = FP32ToBF16(float32(r.NormFloat64()))
		}
		return w, x
	}
	run := func(name string, w []byte, x []uint16, want func(p, pair int) bool) {
		t.Helper()
		xf := make([]float32, len(x))
		lo, hi := uint32(511), uint32(0)
		for p := range k {
			e := splitBF16(x[p*cols:(p+1)*cols], xf[p*cols:(p+1)*cols])
			lo, hi = min(lo, e>>16), max(hi, e&0xffff)
		}
		var flags [8 * posTile]byte
		var spill [8 * 12 * 8]float32
		out := make([]float32, k*rows)
		ret := bf16ManyFAVX2(&w[0], 2*cols, rows, &xf[0], k, cols, int(lo<<16|hi), 0, &out[0], rows, &flags[0], &spill[0])
		if want == nil {
			if ret != -1 {
				t.Errorf("%s: returned %d, want -1 (declined)", name, ret)
			}
			return
		}
		if ret != 0 {
			t.Fatalf("%s: returned %d, want 0", name, ret)
		}
		for p := range k {
			for pair := range rows / 2 {
				got := flags[8*p+pair] != 0
				if got != want(p, pair) {
					t.Errorf("%s: position %d rows %d-%d flagged %v, want %v", name, p, 2*pair, 2*pair+1, got, !got)
				}
				if got {
					continue
				}
				for rr := 2 * pair; rr < 2*pair+2; rr++ {
					g := dotBF16Batch(w[rr*2*cols:(rr+1)*2*cols], x[p*cols:(p+1)*cols])
					if !sameBits(out[p*rows+rr], g) {
						t.Errorf("%s: row %d position %d: %g, generic %g", name, rr, p, out[p*rows+rr], g)
					}
				}
			}
		}
	}
	w, x := fresh()
	run("ordinary", w, x, func(int, int) bool { return false })
	w, x = fresh()
	binary.LittleEndian.PutUint16(w[2*(5*cols+1500):], 0x0003) // row 5, second block
	run("subnormal weight", w, x, func(_, pair int) bool { return pair == 2 })
	w, x = fresh()
	x[3*cols+100] = 0x8011 // position 3: the pair of positions 3 and 4
	run("subnormal activation", w, x, func(p, _ int) bool { return p >= 3 })
	w, x = fresh()
	for i := 0; i < 2*cols; i += 2 { // row 9: products below 2^-126 possible
		binary.LittleEndian.PutUint16(w[9*2*cols+i:], FP32ToBF16(0x1p-70))
	}
	x[7] = FP32ToBF16(0x1p-60)
	run("inexact products", w, x, nil)
}

// BenchmarkBF16AVX2Tile runs the several-position kernel on one tile's
// worth of cached data (2 or 16 rows × 2048 columns, 32 positions) and
// reports GFLOP per CPU-second (two per multiply-add), for comparing
// versions of the kernel on a busy machine.
func BenchmarkBF16AVX2Tile(b *testing.B) {
	skipUnless(b, kernelGap("avx2"))
	for _, rows := range []int{2, 16} {
		const cols, k = 2048, 32
		r := rand.New(rand.NewPCG(1, 2))
		w := randomMatrix(r, BF16, rows, cols)
		x := make([]uint16, k*cols)
		for i := range x {
			x[i] = FP32ToBF16(float32(r.NormFloat64()))
		}
		out := make([]float32, rows*k)
		xf := make([]float32, k*cols)
		xr := splitBF16(x, xf)
		var flags [8 * posTile]byte
		var spill [8 * 12 * 8]float32
		for _, widened := range []bool{false, true} {
			b.Run(fmt.Sprintf("rows=%d/widened=%v", rows, widened), func(b *testing.B) {
				c0 := cpuTime()
				for i := 0; i < b.N; i++ {
					if widened {
						bf16ManyFAVX2(&w.Data[0], 2*cols, rows, &xf[0], k, cols, int(xr), 0, &out[0], rows, &flags[0], &spill[0])
					} else {
						bf16ManyAVX2(&w.Data[0], 2*cols, rows, &x[0], 2*cols, k, cols, 0, &out[0], rows)
					}
				}
				if cpu := cpuTime() - c0; cpu > 0 {
					b.ReportMetric(float64(b.N*2*rows*k*cols)/cpu.Seconds()/1e9, "GFLOP/cpu-s")
				}
			})
		}
	}
}

// BenchmarkBF16Prefill times a 128-position BF16 product of TinyLlama's
// shapes on one worker with the AVX2 set, with the activations widened
// once per product (acts.hf) and without, in GFLOP per CPU-second.
//
//	go test -run '^$' -bench BF16Prefill -count 3 ./shards/tensor/
func BenchmarkBF16Prefill(b *testing.B) {
	skipUnless(b, kernelGap("avx2"))
	var variants []prefillVariant
	for _, widened := range []bool{false, true} {
		ks := avx2Kernels()
		ks.bf16f32 = widened
		variants = append(variants, prefillVariant{fmt.Sprintf("widened=%v", widened), ks})
	}
	benchPrefill(b, BF16, variants, true)
}
